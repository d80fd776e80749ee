"""URL equivalence for de-duplication: RFC 3986 normalisation and a fixed-size digest.

Separate from :mod:`sitemapconv._urls` (which encodes URLs for output): this decides when two
URLs name the same page, and never changes what is written.
"""

from __future__ import annotations

import hashlib
import re
from urllib.parse import urlsplit, urlunsplit

from ._urls import encode_host

_DEFAULT_PORTS = {"http": "80", "https": "443", "ftp": "21", "ws": "80", "wss": "443"}
_PCT_RE = re.compile(r"%([0-9A-Fa-f]{2})")
_UNRESERVED = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
#: URLs already in normal form (the vast majority): lower-case http(s) host, no port, a path,
#: no escape, no fragment, no whitespace. They skip urlsplit, which halves dedupe's cost.
_NORMAL_RE = re.compile(r"https?://[a-z0-9.\-]+/[^#%\s]*")


def _pct(match: re.Match[str]) -> str:
    char = chr(int(match.group(1), 16))
    return char if char in _UNRESERVED else "%" + match.group(1).upper()


def _netloc(netloc: str, scheme: str) -> str:
    userinfo, at, hostport = netloc.rpartition("@")
    if hostport.startswith("["):  # IPv6 literal: "[::1]:8080"
        end = hostport.find("]") + 1
        host, port = hostport[:end], hostport[end + 1 :]
    else:
        host, _, port = hostport.partition(":")
    if port == _DEFAULT_PORTS.get(scheme):
        port = ""
    if not host.isascii():  # straße.de and xn--strae-oqa.de are one host (IDNA 2008)
        host = encode_host(host)
    return f"{userinfo}{at}{host.lower()}{':' + port if port else ''}"


def normalize_url(url: str) -> str:
    """The form two URLs must share to count as duplicates in :func:`dedupe`.

    Exactly these RFC 3986 §6.2.2-6.2.3 normalisations, all of which keep the resource the
    same:

    - surrounding whitespace is stripped;
    - the scheme and the host are lower-cased (not the user info, path or query), and an
      internationalised host is IDNA-encoded (:func:`sitemapconv._urls.encode_host`);
    - the scheme's default port is removed (``:80`` for http/ws, ``:443`` for https/wss,
      ``:21`` for ftp), and so is an empty port (``host:``);
    - an empty path becomes ``/`` when there is a host (``http://a.com`` = ``http://a.com/``);
    - the fragment is dropped (``#top``), and so is an empty query (a bare ``?``);
    - percent-escapes get upper-case hex (``%2f`` -> ``%2F``), and escapes of unreserved
      characters (letters, digits, ``-._~``) are decoded (``%7E`` -> ``~``).

    Nothing else: the path keeps its case and its trailing slash, the query keeps its order,
    ``www.`` is significant, ``http`` and ``https`` differ, dot segments are left alone.
    """
    url = url.strip()
    if _NORMAL_RE.fullmatch(url) is not None and not url.endswith("?"):
        return url
    return _normalize(url)


def _normalize(url: str) -> str:
    try:
        scheme, netloc, path, query, _fragment = urlsplit(url)
    except ValueError:  # e.g. an unbalanced "[" in the host: compare it as it is
        return url.partition("#")[0]
    scheme = scheme.lower()
    if netloc:
        netloc = _netloc(netloc, scheme)
        path = path or "/"
    if "%" in path:
        path = _PCT_RE.sub(_pct, path)
    if "%" in query:
        query = _PCT_RE.sub(_pct, query)
    return urlunsplit((scheme, netloc, path, query, ""))


def url_digest(url: str) -> bytes:
    """16-byte BLAKE2b digest of the normalised URL: what :func:`dedupe` remembers.

    128 bits make a collision (two different URLs taken as one) vanishingly unlikely: about
    1.5e-27 for a million URLs, 1.5e-21 for a billion.
    """
    data = normalize_url(url).encode("utf-8", "surrogatepass")
    return hashlib.blake2b(data, digest_size=16).digest()
