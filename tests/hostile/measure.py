"""Run one hostile read in a fresh interpreter and report its outcome, time and peak memory.

Peak memory is the child's ``ru_maxrss``, so every case is measured alone (a parent process
would only ever show the largest case so far). The child reads the whole document, primes its
metadata, and reports a summary as JSON: outcome (``ok``, ``error`` for a SitemapError,
``crash`` for anything else), the first entries, the metadata, the warnings, and whether a
secret string showed up anywhere in them.

Set ``HOSTILE_TABLE=/path/file.md`` to append one markdown table row per case (the report's
table of times and peak memory is made that way).
"""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

#: The generous bounds every hostile case must stay within.
MAX_SECONDS = 10.0
MAX_PEAK_MB = 400.0

_ZYGOTE = r"""
import json, os, resource, sys, time, traceback
import sitemapconv
import sitemapconv.readers._urlset, sitemapconv.readers._index, sitemapconv.readers._rss
import sitemapconv.readers._atom, sitemapconv.readers._atom03, sitemapconv.readers._text
from sitemapconv.errors import SitemapError


def run(spec):
    secret = spec.get("secret")
    warnings = []
    out = {"count": 0, "entries": [], "leaks": []}

    def look(where, text):
        if secret and secret in text:
            out["leaks"].append(where)

    start = time.perf_counter()
    try:
        doc = sitemapconv.read(
            spec["source"], spec.get("format"), on_warning=warnings.append,
            **spec.get("options", {})
        )
        out["format"] = doc.format
        meta = doc.prime()
        for entry in doc:
            out["count"] += 1
            look("entry", repr(entry))
            if len(out["entries"]) < 5:
                out["entries"].append(
                    {"loc": entry.loc[:200], "title": (entry.title or "")[:200] or None}
                )
        look("meta", repr(meta))
        out["meta_title"] = (meta.title or "")[:200] or None
        out["outcome"] = "ok"
    except SitemapError as exc:
        out["outcome"] = "error"
        out["error_type"] = type(exc).__name__
        out["message"] = str(exc)[:500]
        look("error", str(exc))
    except BaseException as exc:
        out["outcome"] = "crash"
        out["error_type"] = type(exc).__name__
        out["message"] = traceback.format_exc()[-2000:]
    out["elapsed"] = time.perf_counter() - start
    out["peak_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    for w in warnings:
        look("warning", w)
    out["warnings"] = [w[:300] for w in warnings[:20]]
    return out


for line in sys.stdin:
    spec = json.loads(line)
    pid = os.fork()
    if pid == 0:
        try:
            result = json.dumps(run(spec))
        except BaseException:
            result = json.dumps({"outcome": "crash", "elapsed": 0, "peak_mb": 0,
                                 "message": traceback.format_exc()[-2000:]})
        sys.stdout.write(result + "\n")
        sys.stdout.flush()
        os._exit(0)
    _, status = os.waitpid(pid, 0)
    if status != 0:
        sys.stdout.write(json.dumps({"outcome": "crash", "elapsed": 0, "peak_mb": 0,
                                     "message": f"the child died (wait status {status})"}) + "\n")
        sys.stdout.flush()
"""


class _Zygote:
    """A ``python -c`` process that imported sitemapconv once and forks a child per case.

    Each case still runs in a process of its own, so its ``ru_maxrss`` is its own peak (the
    child starts from the zygote's footprint, as a fresh interpreter would after importing
    sitemapconv), without paying interpreter start-up 200 times.
    """

    def __init__(self) -> None:
        self._proc: subprocess.Popen[bytes] | None = None

    def run(self, spec: dict[str, Any]) -> dict[str, Any]:
        proc = self._proc
        if proc is None or proc.poll() is not None:
            proc = self._proc = subprocess.Popen(
                [sys.executable, "-c", _ZYGOTE],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                env={**os.environ, "PYTHONWARNINGS": "ignore"},
            )
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write(json.dumps(spec).encode() + b"\n")
        proc.stdin.flush()
        ready, _, _ = select.select([proc.stdout], [], [], _TIMEOUT)
        if not ready:
            proc.kill()
            self._proc = None
            raise AssertionError(f"no answer in {_TIMEOUT} s: the read hangs")
        line = proc.stdout.readline()
        assert line, "the measuring process died"
        return json.loads(line)  # type: ignore[no-any-return]


_TIMEOUT = 120
_zygote = _Zygote()


@dataclass
class Outcome:
    """What one hostile read did; see the module docstring."""

    outcome: str
    elapsed: float
    peak_mb: float
    count: int = 0
    format: str | None = None
    error_type: str | None = None
    message: str | None = None
    entries: list[dict[str, Any]] = field(default_factory=list)
    meta_title: str | None = None
    warnings: list[str] = field(default_factory=list)
    leaks: list[str] = field(default_factory=list)

    @property
    def locs(self) -> list[str]:
        return [e["loc"] for e in self.entries]

    def warned(self, text: str) -> bool:
        return any(text in w for w in self.warnings)

    def check_bounds(self) -> None:
        """No crash, within time and memory; the assertion every hostile case makes."""
        assert self.outcome != "crash", self.message
        assert self.elapsed < MAX_SECONDS, f"took {self.elapsed:.1f} s"
        assert self.peak_mb < MAX_PEAK_MB, f"peak memory {self.peak_mb:.0f} MB"


def measure(
    case: str,
    source: str | Path,
    format: str | None = None,
    *,
    secret: str | None = None,
    **options: Any,
) -> Outcome:
    """Read ``source`` (a path or URL) in a fresh interpreter; return what happened."""
    spec = {"source": str(source), "format": format, "options": options, "secret": secret}
    outcome = Outcome(**_zygote.run(spec))
    _record(case, format, outcome)
    return outcome


def _record(case: str, format: str | None, o: Outcome) -> None:
    table = os.environ.get("HOSTILE_TABLE")
    if not table:
        return
    result = f"{o.error_type}" if o.outcome == "error" else f"{o.count} entries"
    if o.outcome == "crash":
        result = f"CRASH {o.error_type}"
    with open(table, "a", encoding="utf-8") as f:
        f.write(
            f"| {case} | {format or 'detected'} | {result} | {o.elapsed:.2f} s "
            f"| {o.peak_mb:.0f} MB |\n"
        )
