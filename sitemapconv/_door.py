"""The one door to the outside world: every policy about what may be fetched, from where.

sitemapconv is imported by crawlers and services that hand it URLs from strangers, so every
path that reads from the network (``read``, ``read(follow=True)``, ``aread``, ``validate``,
``discover``, the Dask tasks, IndexNow and pings) goes through one :class:`Door` per run,
and through the one HTTP client made by :func:`make_client` / :func:`make_async_client`:

* **Schemes.** Only http(s) is ever fetched; a document that came over http(s) only leads to
  http(s) (children, redirects, ``Sitemap:`` lines). Local files are opened only where the
  user's own local index lists them (:meth:`Door.child_allowed`).
* **Addresses.** With ``block_private`` (the default) every connection is checked, on the
  address actually connected to (:mod:`sitemapconv._transport`): a loopback, private,
  link-local or reserved address is refused unless the user's start URL resolved to an
  address of that same class. Redirect hops, children, robots.txt and probes included.
* **Credentials.** The user's extra headers (``headers=``, ``-H``) go only to the start URL's
  origin (scheme, host, port; RFC 6454), unless ``forward_headers`` says otherwise.
* **Time.** ``timeout`` bounds one attempt from connect to last byte, slow headers and 1xx
  answers included (:func:`attempt_deadline`); one fetch with all its retries and waits
  is bounded by ``timeout * (retries + 1)``.
* **Counts.** ``max_sitemaps`` is one :class:`Budget` for the whole run (discovery probes
  included), and the visited set compares URLs after RFC 3986 normalisation
  (:func:`visit_key`).

Size caps (``max_bytes``, decompressed, per content coding) are applied by
:mod:`sitemapconv._fetch` and :mod:`sitemapconv._decoding` while the body streams.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from . import _addresses as addresses
from ._options import ReadOptions
from ._urls import DEFAULT_PORTS as _DEFAULT_PORTS
from ._urls import WEB_SCHEMES as _WEB
from ._urls import is_http as is_web
from ._urls import normalize_url
from ._version import __version__
from .errors import FetchError, RefusedFetch

if TYPE_CHECKING:
    import httpx


#: The key under which a request carries its policy to the transport: (door, deadline).
POLICY_KEY = "sitemapconv.policy"


#: The door's name for :class:`~sitemapconv.errors.RefusedFetch` (defined in errors.py).
Refused = RefusedFetch


# --- URLs ---------------------------------------------------------------------------------


def remove_dot_segments(path: str) -> str:
    """RFC 3986 §5.2.4: ``/a/./b/../c`` is ``/a/c``."""
    if "." not in path:
        return path
    out: list[str] = []
    segments = path.split("/")
    for i, seg in enumerate(segments):
        last = i == len(segments) - 1
        if seg == ".":
            if last:
                out.append("")
        elif seg == "..":
            if len(out) > 1:
                out.pop()
            if last:
                out.append("")
        else:
            out.append(seg)
    result = "/".join(out)
    if path.startswith("/") and not result.startswith("/"):
        result = "/" + result
    return result


def visit_key(url: str) -> str:
    """The form in which two URLs name the same sitemap (RFC 3986 §6.2.2, syntax-based).

    Scheme and host case, default port, empty path, percent-escape case, dot segments and
    the fragment do not make a different sitemap.
    """
    norm = normalize_url(url)
    try:
        parts = urlsplit(norm)
    except ValueError:
        return norm
    path = remove_dot_segments(parts.path)
    if path == parts.path:
        return norm
    return parts._replace(path=path).geturl()


def origin_of(url: str | None) -> tuple[str, str, int] | None:
    """(scheme, host, port) of an http(s) URL (RFC 6454), or None."""
    if not url:
        return None
    try:
        parts = urlsplit(url.strip())
        scheme = parts.scheme.lower()
        if scheme not in _WEB or not parts.hostname:
            return None
        return scheme, parts.hostname.lower(), parts.port or _DEFAULT_PORTS[scheme]
    except ValueError:
        return None


def check_url(url: str, source: str | None = None) -> str:
    """``url`` if it is a well-formed absolute http(s) URL, else :class:`FetchError`.

    Well-formed as httpx will need it (IDNA host, brackets, port), so that a malformed URL
    in fetched data fails that one request with a clear message instead of an exception
    from deep inside the HTTP stack.
    """
    import httpx

    try:
        parsed = httpx.URL(url)
        ok = parsed.scheme in _WEB and bool(parsed.host)
    except Exception as exc:  # httpx.InvalidURL, UnicodeError (IDNA), ValueError
        raise FetchError(f"malformed URL {url!r} ({exc})", source=source or url) from None
    if not ok:
        if urlsplit(url).scheme.lower() not in _WEB:
            raise Refused(f"not an http(s) URL: {url}", source=source or url)
        raise FetchError(f"malformed URL {url!r} (no host)", source=source or url)
    host = parsed.host
    if ":" not in host:  # a name or IPv4, not an IPv6 literal: RFC 1035 label lengths
        labels = host[:-1].split(".") if host.endswith(".") else host.split(".")
        if len(host) > 253 or any(not 0 < len(label) <= 63 for label in labels):
            raise FetchError(
                f"malformed URL {url!r} (empty or too long label in the host name)",
                source=source or url,
            )
    return url


# --- the budget -----------------------------------------------------------------------------


class Budget:
    """How many sitemaps a run may still fetch: one count shared by everything the run does."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.used = 0
        self._lock = threading.Lock()

    def take(self) -> bool:
        """Use one unit; False when the budget is spent."""
        with self._lock:
            if self.used >= self.limit:
                return False
            self.used += 1
            return True

    @property
    def left(self) -> int:
        return max(0, self.limit - self.used)


#: The budget of a run made of several reads (the command line's INPUTs, one after the
#: other): set by :func:`one_budget`, and shared by every :class:`Door` made inside it. A
#: context variable, not a module global, so two runs in one process keep their own counts.
_RUN_BUDGET: ContextVar[Budget | None] = ContextVar("sitemapconv_run_budget", default=None)


@contextmanager
def one_budget(max_sitemaps: int) -> Iterator[Budget]:
    """Within the block, every door takes from one ``max_sitemaps`` budget."""
    budget = Budget(max_sitemaps)
    token = _RUN_BUDGET.set(budget)
    try:
        yield budget
    finally:
        _RUN_BUDGET.reset(token)


# --- the door -------------------------------------------------------------------------------


class Door:
    """The policy of one run: what may be contacted, with which headers, how many, how long.

    ``start`` is the URL the user gave (an http(s) URL), or None for a local file, stdin or
    bytes; then ``options.base_url`` (an http(s) URL) stands for the start's origin, and no
    non-public address is allowed. One door may serve several threads and tasks.
    """

    def __init__(
        self,
        options: ReadOptions,
        start: str | None = None,
        *,
        budget: Budget | None = None,
        visited: set[str] | None = None,
    ) -> None:
        self.options = options
        self.start = start if start is not None and is_web(start) else None
        self.origin = origin_of(self.start) or origin_of(options.base_url)
        if budget is None:
            budget = _RUN_BUDGET.get()
        self.budget = budget if budget is not None else Budget(options.max_sitemaps)
        self.visited: set[str] = visited if visited is not None else set()
        self._allowed: frozenset[str] | None = None
        self._lock = threading.Lock()

    # -- addresses --

    def allowed_classes(self) -> frozenset[str]:
        """The non-public address classes this run may contact: those of the user's start."""
        if self._allowed is None:
            classes: set[str] = set()
            parts = urlsplit(self.start) if self.start else None
            if parts is not None and parts.hostname:
                try:
                    port = parts.port or _DEFAULT_PORTS.get(parts.scheme.lower(), 80)
                except ValueError:
                    port = 80
                for ip in addresses.resolve(parts.hostname, port):
                    kind = addresses.address_class(ip)
                    if kind is not None:
                        classes.add(kind)
            with self._lock:
                if self._allowed is None:
                    self._allowed = frozenset(classes)
        return self._allowed

    def refuse_address(self, host: str, ip: str) -> str | None:
        """Why connecting to ``ip`` (for ``host``) is refused, or None."""
        if not self.options.block_private:
            return None
        kind = addresses.address_class(ip)
        if kind is None or kind in self.allowed_classes():
            return None
        what = (
            f"{ip} is a {kind} address"
            if host == ip
            else (f"{host} resolves to a {kind} address ({ip})")
        )
        return f"{what}; allow with --allow-private or block_private=False"

    def refuse(self, url: str) -> str | None:
        """Why ``url`` must not be requested, known before any contact (scheme, literal IP).

        Host names are checked by the transport on the address it connects to.
        """
        try:
            check_url(url)
        except FetchError as exc:
            return exc.reason
        host = urlsplit(url).hostname or ""
        bare = addresses.literal(host) if host else None
        if bare is not None:  # a literal: known without any lookup
            return self.refuse_address(host, bare)
        return None

    # -- links --

    def child_allowed(self, child: str, parent: str | None) -> str | None:
        """Why a URL listed by ``parent`` (an index, robots.txt, a redirect) must not be
        opened, or None. From http(s) only http(s); a local parent may list ``file:``."""
        try:
            scheme = urlsplit(child).scheme.lower()
            parent_scheme = urlsplit(parent).scheme.lower() if parent else ""
        except ValueError:  # malformed: check_url says so, and the child fails alone
            return None
        if scheme in _WEB:
            return None
        if scheme == "file" and parent_scheme == "file":
            return None
        return "only http(s) URLs are followed from a document fetched over the network"

    def headers_for(self, url: str) -> dict[str, str]:
        """The user's extra headers when ``url`` is on the start's origin (or opted in)."""
        user = self.options.headers
        if not user:
            return {}
        if self.options.forward_headers:
            return dict(user)
        if self.origin is not None and origin_of(url) == self.origin:
            return dict(user)
        return {}

    # -- counts --

    def visit(self, url: str) -> bool:
        """Record ``url`` as read; False when a URL of the same normal form already was."""
        key = visit_key(url)
        with self._lock:
            if key in self.visited:
                return False
            self.visited.add(key)
            return True

    def seen(self, url: str) -> bool:
        return visit_key(url) in self.visited

    # -- time --

    def fetch_deadline(self) -> float:
        """When one fetch, all its attempts and waits included, must be over."""
        o = self.options
        return time.monotonic() + o.timeout * (max(0, o.retries) + 1)

    def attempt_deadline(self, fetch_deadline: float) -> float:
        """When the attempt starting now must have its last byte."""
        return min(time.monotonic() + self.options.timeout, fetch_deadline)

    def extensions(self, deadline: float | None) -> dict[str, Any]:
        """The request extensions that carry this door's policy to the transport."""
        return {POLICY_KEY: (self, deadline)}


# --- the client -----------------------------------------------------------------------------

DEFAULT_USER_AGENT = f"sitemapconv/{__version__} (+https://pypi.org/project/sitemapconv/)"


def base_headers(options: ReadOptions) -> dict[str, str]:
    """The headers every request gets: User-Agent and the content codings we can undo."""
    from ._decoding import accept_encoding

    return {
        "User-Agent": options.user_agent or DEFAULT_USER_AGENT,
        "Accept-Encoding": accept_encoding(),
    }


def _limits(options: ReadOptions) -> httpx.Limits:
    import httpx

    # One connection per worker, plus one for the index being read while its children are
    # fetched (with concurrency 1 that index must not starve its child).
    n = max(1, options.concurrency) + 1
    return httpx.Limits(max_connections=n, max_keepalive_connections=n)


def _timeout(options: ReadOptions) -> httpx.Timeout:
    import httpx

    return httpx.Timeout(options.timeout, connect=min(options.connect_timeout, options.timeout))


def make_transport(options: ReadOptions, door: Door | None = None) -> httpx.BaseTransport:
    """The one sync transport: address checks on the connected address, per-attempt deadline.

    A cache layer wraps what this returns. Requests without a door's extensions get the
    policy of ``door`` (or of a door with no start: no non-public address).
    """
    from ._transport import GuardedTransport

    transport = GuardedTransport(options, door or Door(options), _limits(options))
    if options.cache is not None:  # the HTTP cache wraps the guarded transport (_cache.py)
        from ._cache import cached_transport

        return cached_transport(options, transport)
    return transport


def make_async_transport(
    options: ReadOptions, door: Door | None = None
) -> httpx.AsyncBaseTransport:
    """The async twin of :func:`make_transport`."""
    from ._transport import AsyncGuardedTransport, GuardedTransport

    if options.cache is not None:  # the cache is sync; it runs in worker threads (_cache.py)
        from ._cache import async_cached_transport

        inner = GuardedTransport(options, door or Door(options), _limits(options))
        return async_cached_transport(options, inner)
    return AsyncGuardedTransport(options, door or Door(options), _limits(options))


def make_client(options: ReadOptions, door: Door | None = None) -> httpx.Client:
    """The one sync HTTP client: redirects are followed by hand, through the door."""
    import httpx

    return httpx.Client(
        transport=make_transport(options, door),
        follow_redirects=False,
        timeout=_timeout(options),
        headers=base_headers(options),
    )


def make_async_client(options: ReadOptions, door: Door | None = None) -> httpx.AsyncClient:
    """The one async HTTP client (see :func:`make_client`)."""
    import httpx

    return httpx.AsyncClient(
        transport=make_async_transport(options, door),
        follow_redirects=False,
        timeout=_timeout(options),
        headers=base_headers(options),
    )
