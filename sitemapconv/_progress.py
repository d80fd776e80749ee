"""Progress of a long run (URLs read, sitemaps fetched or failed, bytes) and its summary line.

A :class:`Progress` is a handful of counters. Updating one is an integer increment, so the
CLI can count every entry: the live display (rich, on stderr) is redrawn by rich's own
refresh thread ten times a second from those counters, never from the entry loop. The
display exists only when it is asked for *and* the stream is a terminal; otherwise rich is
not even imported, and nothing is written.

The code that follows remote sitemaps reports through :func:`current`, which returns the
progress of the running command (or an inert one), so it needs no extra parameter::

    from sitemapconv import _progress as progress
    progress.current().sitemap_fetched(url, nbytes)
    progress.current().sitemap_failed(url)

"The running command" is a context variable, not a module global: two reads in one process
(two threads, two asyncio tasks) each count into their own :class:`Progress`. Worker threads
do not inherit context variables, so code that hands work to a thread pool wraps it in
:func:`carried`.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextvars import ContextVar, Token
from typing import TYPE_CHECKING, Any, ParamSpec, TextIO, TypeVar

if TYPE_CHECKING:
    from ._filters import FilterStats

T = TypeVar("T")
P = ParamSpec("P")

#: Redraws per second of the live display.
REFRESH_PER_SECOND = 10


class Progress:
    """Counters of a run, with an optional live display on a terminal.

    Use it as a context manager: entering starts the display (when enabled) and makes this
    the :func:`current` progress; leaving removes the display (it is transient: the terminal
    is left as it was, and the summary line, if any, says how the run ended).
    """

    def __init__(self, stream: TextIO | None = None, *, display: bool = False) -> None:
        self.stream = stream if stream is not None else sys.stderr
        #: Whether the live display will be shown: asked for, and the stream is a terminal.
        self.display = display and _isatty(self.stream)
        self.urls = 0
        self.sitemaps = 0
        self.failed = 0
        self.bytes = 0
        self.cache_hits = 0
        self._lock = threading.Lock()
        self._live: Any = None
        self._spinner: Any = None
        self._start = time.monotonic()
        self._token: Token[Progress | None] | None = None

    @classmethod
    def for_terminal(
        cls, *, quiet: bool = False, output_to_stdout: bool = False, stream: TextIO | None = None
    ) -> Progress:
        """The CLI's progress: displayed on stderr when it is a terminal and not ``quiet``.

        When the converted output goes to stdout and stdout is a terminal too, the display
        would be drawn in the middle of the output, so there is none.
        """
        if output_to_stdout and _isatty(sys.stdout):
            quiet = True
        return cls(stream, display=not quiet)

    # --- feeding it -------------------------------------------------------------------------

    def entry(self) -> None:
        """One more URL read."""
        self.urls += 1

    def track(self, entries: Iterable[T]) -> Iterator[T]:
        """Count each item as it passes, unchanged."""
        for item in entries:
            self.urls += 1
            yield item

    def sitemap_fetched(self, url: str = "", nbytes: int = 0) -> None:
        """A sitemap (or feed) was fetched or opened; ``nbytes`` is its size when known.

        Thread-safe: the remote-following code may call it from worker threads.
        """
        with self._lock:
            self.sitemaps += 1
            self.bytes += nbytes

    def sitemap_failed(self, url: str = "") -> None:
        """A sitemap could not be fetched or read (thread-safe)."""
        with self._lock:
            self.failed += 1

    def cache_hit(self) -> None:
        """A sitemap's body came from the HTTP cache (thread-safe)."""
        with self._lock:
            self.cache_hits += 1

    def add_bytes(self, nbytes: int) -> None:
        """Bytes received, for sources read in several chunks (thread-safe)."""
        with self._lock:
            self.bytes += nbytes

    # --- showing it -------------------------------------------------------------------------

    @property
    def elapsed(self) -> float:
        return time.monotonic() - self._start

    def line(self) -> str:
        """The one line the display shows: ``12,345 URLs read (4,100/s) · 3 sitemaps...``."""
        elapsed = self.elapsed
        rate = f" ({self.urls / elapsed:,.0f}/s)" if elapsed >= 1 else ""
        parts = [f"{self.urls:,} URLs read{rate}"]
        if self.sitemaps or self.failed:
            failed = f" ({self.failed:,} failed)" if self.failed else ""
            parts.append(f"{self.sitemaps:,} sitemaps fetched{failed}")
        if self.cache_hits:
            parts.append(f"{self.cache_hits:,} from cache")
        if self.bytes:
            parts.append(_size(self.bytes))
        minutes, seconds = divmod(int(elapsed), 60)
        parts.append(f"{minutes}:{seconds:02d}")
        return " · ".join(parts)

    def _render(self) -> Any:
        self._spinner.update(text=self.line())
        return self._spinner

    def start(self) -> None:
        """Start the live display if enabled (imports rich only then)."""
        if not self.display or self._live is not None:
            return
        from rich.console import Console
        from rich.live import Live
        from rich.spinner import Spinner

        self._spinner = Spinner("dots", style="cyan")
        console = Console(file=self.stream, stderr=self.stream is sys.stderr)
        self._live = Live(
            console=console,
            get_renderable=self._render,
            refresh_per_second=REFRESH_PER_SECOND,
            transient=True,
            redirect_stdout=False,  # stdout carries the converted output
            redirect_stderr=True,  # warnings print above the display
        )
        self._live.start()

    def stop(self) -> None:
        """Remove the live display; the counters stay readable."""
        if self._live is not None:
            live, self._live = self._live, None
            live.stop()

    def __enter__(self) -> Progress:
        self._token = _running.set(self)
        self._start = time.monotonic()
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
        token, self._token = self._token, None
        if token is not None:
            _running.reset(token)


#: The progress of the run in this context (thread, asyncio task), if any.
_running: ContextVar[Progress | None] = ContextVar("sitemapconv_progress", default=None)
_inert = Progress(display=False)


def current() -> Progress:
    """The progress of the running command, or an inert one that shows nothing."""
    running = _running.get()
    return running if running is not None else _inert


def carried(fn: Callable[P, T]) -> Callable[P, T]:
    """``fn`` made to count into the caller's progress when a worker thread runs it.

    Threads start with empty context variables; each call sets the caller's progress in the
    worker's own context for its duration, so one wrapper may run in many threads at once.
    """
    running = _running.get()

    def run(*args: P.args, **kwargs: P.kwargs) -> T:
        token = _running.set(running)
        try:
            return fn(*args, **kwargs)
        finally:
            _running.reset(token)

    return run


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # no isatty, or a closed stream
        return False


def _size(nbytes: int) -> str:
    size = float(nbytes)
    for unit in ("B", "kB", "MB", "GB"):
        if size < 1000 or unit == "GB":
            return f"{size:,.0f} {unit}" if unit == "B" else f"{size:,.1f} {unit}"
        size /= 1000
    raise AssertionError("unreachable")  # pragma: no cover


def summary_line(
    stats: FilterStats | None, *, written: int, warnings: int, progress: Progress | None = None
) -> str:
    """The ``-v`` summary: entries in and out, drops per filter, warnings, sitemaps.

    For example ``120 entries in, 97 out; dropped: exclude 20, dedupe 3; 1 warning``.
    ``in`` counts the entries read (``--limit`` stops reading early, so entries after the
    limit are neither read nor counted); ``out`` counts those the writer wrote.
    """
    read = stats.entries_in if stats is not None else written
    parts = [f"{read:,} {'entry' if read == 1 else 'entries'} in, {written:,} out"]
    dropped = {k: v for k, v in (stats.dropped if stats is not None else {}).items() if v}
    if dropped:
        parts.append("dropped: " + ", ".join(f"{k} {v:,}" for k, v in dropped.items()))
    parts.append(f"{warnings:,} warning{'' if warnings == 1 else 's'}")
    if progress is not None and progress.failed:
        parts.append(f"{progress.failed:,} sitemaps failed")
    if progress is not None and progress.cache_hits:
        parts.append(f"{progress.cache_hits:,} sitemaps from the cache")
    return "; ".join(parts)
