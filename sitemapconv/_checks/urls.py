"""URL rules (sitemaps.org protocol, "Entity escaping" and "Sitemap file location"; RFC 3986):
absolute http(s), escaped, no whitespace or fragment, shorter than 2,048 characters, inside
the sitemap's scope, listed once.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import SplitResult, urlsplit

from .._problems import Collector
from .._urls import DEFAULT_PORTS, encode_url, is_http_scheme

#: The protocol says a URL must be *less than* 2,048 characters.
MAX_URL_LENGTH = 2048
#: sitemap.xsd's ``minLength`` for ``<loc>``.
MIN_URL_LENGTH = 12

_WHITESPACE = re.compile(r"\s")
# What RFC 3986 forbids unescaped (besides whitespace, reported on its own).
_UNESCAPED = re.compile(r"[^\x21-\x7e]|[\"<>\\^`{|}]|%(?![0-9A-Fa-f]{2})")
# The shape almost every URL has: nothing to report but (maybe) scope. Checked first, so a
# clean 50,000-URL sitemap costs one regex match per URL instead of a full urlsplit.
_CLEAN = re.compile(
    r"(https?)://([A-Za-z0-9.-]+)(?::(\d{1,5}))?"
    r"(/[A-Za-z0-9\-._~!$&'()*+,;=:@/]*)?(?:\?[A-Za-z0-9\-._~!$&'()*+,;=:@/?]*)?"
)


@dataclass(frozen=True, slots=True)
class Scope:
    """Where a sitemap lives, and so which URLs it may list.

    The sitemaps.org protocol, "Sitemap file location": a sitemap lists URLs of its own host
    and scheme, in its own directory or below.
    """

    scheme: str
    host: str
    port: int | None
    directory: str
    #: Sitemap indexes and feeds are held to the same site only, not the same directory.
    check_path: bool = True

    @classmethod
    def of(cls, location: str | None, *, check_path: bool = True) -> Scope | None:
        """The scope of a sitemap at ``location``; None unless it is an http(s) URL."""
        if not location:
            return None
        parts = urlsplit(location.strip())
        if not is_http_scheme(parts.scheme) or not parts.hostname:
            return None
        directory = parts.path[: parts.path.rfind("/") + 1] or "/"
        return cls(parts.scheme.lower(), parts.hostname, _port(parts), directory, check_path)

    def describe(self) -> str:
        port = f":{self.port}" if self.port != DEFAULT_PORTS.get(self.scheme) else ""
        return f"{self.scheme}://{self.host}{port}{self.directory}"


def _port(parts: SplitResult) -> int | None:
    try:
        port = parts.port
    except ValueError:
        return None
    return port if port is not None else DEFAULT_PORTS.get(parts.scheme.lower())


def check_url(
    out: Collector,
    raw: str,
    *,
    line: int | None,
    what: str = "URL",
    scope: Scope | None = None,
) -> str | None:
    """Report every rule ``raw`` breaks; return the stripped URL, or None when empty."""
    url = raw.strip()
    if not url:
        out.error("url-empty", f"the {what} is empty", line=line)
        return None
    if len(url) >= MAX_URL_LENGTH:
        out.error(
            "url-length",
            f"the {what} is {len(url):,} characters long; it must be shorter than "
            f"{MAX_URL_LENGTH:,} characters",
            line=line,
            url=url[:200] + "...",
        )
    if len(url) < MIN_URL_LENGTH and "://" in url:
        out.error(
            "url-length",
            f"the {what} is too short to be a URL: sitemap.xsd needs at least "
            f"{MIN_URL_LENGTH} characters",
            line=line,
            url=url,
        )
    clean = _CLEAN.fullmatch(url)
    if clean is not None:
        if scope is not None:
            scheme, host, port, path = clean.groups()
            _check_scope(
                out,
                scheme,
                host.lower(),
                int(port) if port else DEFAULT_PORTS[scheme],
                path or "/",
                scope,
                url=url,
                line=line,
                what=what,
            )
        return url
    try:
        parts = urlsplit(url)
    except ValueError as exc:  # an unbalanced "[" in the host: urllib cannot split it
        out.error("url-invalid", f"the {what} is not a valid URL ({exc})", line=line, url=url)
        return url
    scheme = parts.scheme.lower()
    if not scheme or not parts.netloc:
        out.error(
            "url-relative",
            f"the {what} is not absolute: write the full address, starting with https://",
            line=line,
            url=url,
        )
        return url
    if not is_http_scheme(scheme):
        out.error(
            "url-scheme",
            f"the {what} uses the scheme '{parts.scheme}:'; only http and https are allowed",
            line=line,
            url=url,
        )
        return url
    if _WHITESPACE.search(url):
        out.error(
            "url-whitespace",
            f"the {what} contains whitespace; encode a space as %20",
            line=line,
            url=url,
        )
    bad = _UNESCAPED.findall(_WHITESPACE.sub("", url))
    if bad:
        chars = " ".join(sorted(set(bad)))
        out.error(
            "url-escaping",
            f"the {what} contains characters that must be percent-encoded ({chars}); "
            f"write it as {encode_url(url)}",
            line=line,
            url=url,
        )
    if parts.fragment or url.endswith("#"):
        out.warning(
            "url-fragment",
            f"the {what} has a #fragment; search engines ignore it, so list the page without it",
            line=line,
            url=url,
        )
    if scope is not None:
        host = (parts.hostname or "").lower()
        path = parts.path or "/"
        _check_scope(out, scheme, host, _port(parts), path, scope, url=url, line=line, what=what)
    return url


def _check_scope(
    out: Collector,
    scheme: str,
    host: str,
    port: int | None,
    path: str,
    scope: Scope,
    *,
    url: str,
    line: int | None,
    what: str,
) -> None:
    if (scheme, host, port) != (scope.scheme, scope.host, scope.port):
        out.warning(
            "scope-site",
            f"the {what} is on another site than the sitemap ({scope.describe()}): "
            "scheme, host and port must be the same (http and https, www and no www, "
            "count as different sites)",
            line=line,
            url=url,
        )
    elif scope.check_path and not path.startswith(scope.directory):
        out.warning(
            "scope-path",
            f"the {what} is outside the sitemap's directory {scope.directory}: a sitemap "
            "may only list URLs at or below the folder it is served from",
            line=line,
            url=url,
        )


class Duplicates:
    """Counts repeated URLs in one file, keeping a 64-bit hash per URL, not the URL.

    Two different URLs with the same hash would be reported as one repeated URL; with 64-bit
    SipHash and 50,000 URLs the chance is about 1 in 10^10.
    """

    def __init__(self) -> None:
        self._first: dict[int, int] = {}
        # hash -> (url, first line, count)
        self._repeated: dict[int, tuple[str, int, int]] = {}

    def add(self, url: str, line: int | None) -> None:
        key = hash(url)
        first = self._first.get(key)
        if first is None:
            self._first[key] = line or 0
            return
        _, _, count = self._repeated.get(key, (url, first, 1))
        self._repeated[key] = (url, first, count + 1)

    def report(self, out: Collector, what: str = "URL") -> None:
        for url, first, count in self._repeated.values():
            out.warning(
                "duplicate",
                f"the {what} is listed {count} times (first at line {first}); list each once",
                line=first or None,
                url=url,
            )
