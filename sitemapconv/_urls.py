"""URLs: the one home for telling, encoding, normalising and comparing them.

- *Is it a web URL?* :func:`is_http` (a URL string) and :func:`is_http_scheme` (a scheme
  already split off): http and https are the only schemes sitemaps.org allows in a sitemap.
- *Encoding for output* (:func:`encode_url`): IRIs become URIs (RFC 3987 §3.1, and the
  sitemaps.org protocol's "Entity escaping"): non-ASCII characters and spaces are
  percent-encoded from their UTF-8 bytes, existing ``%XX`` escapes are kept as they are,
  and reserved characters keep their meaning. The host is encoded with UTS #46 / IDNA 2008
  (:func:`encode_host`). Writers XML-escape the result afterwards.
- *Equivalence* (:func:`normalize_url`, :func:`same_url`, :func:`url_digest`): when two URLs
  name the same page (RFC 3986 §6.2.2-6.2.3); it never changes what is written.
- :data:`DEFAULT_PORTS`, the one table of default ports.
"""

from __future__ import annotations

import hashlib
import re
from urllib.parse import quote, urlsplit, urlunsplit

import idna

#: The schemes of web URLs: the only ones a sitemap may list (sitemaps.org protocol).
WEB_SCHEMES = frozenset(("http", "https"))
#: How a web URL starts, in the usual lower case (:func:`is_http` accepts any case); hot
#: loops may test ``url.startswith(WEB_PREFIXES)`` first and call :func:`is_http` only on a miss.
WEB_PREFIXES = ("http://", "https://")
#: Each scheme's default port (RFC 9110 §4.2 for http/https, RFC 6455 for ws/wss, RFC 1738).
DEFAULT_PORTS: dict[str, int] = {"http": 80, "https": 443, "ftp": 21, "ws": 80, "wss": 443}


def is_http_scheme(scheme: str) -> bool:
    """True for ``http`` or ``https`` in any case."""
    return scheme.lower() in WEB_SCHEMES


def is_http(url: str) -> bool:
    """True for an absolute http(s) URL: one that starts ``http://`` or ``https://`` (any case).

    A scheme without an authority (``http:foo``) is not one: it names no host to fetch.
    """
    return url.startswith(WEB_PREFIXES) or url[:8].lower().startswith(WEB_PREFIXES)


# --- encoding for output ------------------------------------------------------------------

# Everything RFC 3986 allows unescaped in a URI, plus "%" so existing escapes survive.
_SAFE = "!#$%&'()*+,/:;=?@[]~-._"
_LONE_PERCENT = re.compile(r"%(?![0-9A-Fa-f]{2})")
# Printable ASCII that RFC 3986 does not allow unescaped (a plain character class: one
# alternation-free scan is several times faster than a combined pattern).
_UNSAFE_ASCII = re.compile(r'[ "<>\\^`{|}]')


def encode_host(host: str) -> str:
    """An internationalised host name in ASCII: UTS #46 mapping, then IDNA 2008 A-labels.

    The one place sitemapconv encodes host names (httpx does the same when it fetches).
    Python's own ``"idna"`` codec implements IDNA 2003, which maps ``ß`` to ``ss`` and so
    writes ``straße.de`` as ``strasse.de``, another domain; IDNA 2008 gives
    ``xn--strae-oqa.de``. A host that IDNA refuses as a whole (an ``_`` in a label, an
    emoji) is encoded label by label, and a label it still refuses is percent-encoded
    (RFC 3986 §3.2.2), so the name is never silently changed into another one.
    """
    if host.isascii():
        return host
    try:
        return idna.encode(host, uts46=True).decode("ascii")
    except (idna.IDNAError, UnicodeError):
        pass
    labels = []
    for label in host.split("."):
        if label.isascii():
            labels.append(label)
            continue
        try:
            labels.append(idna.encode(label, uts46=True).decode("ascii"))
        except (idna.IDNAError, UnicodeError):
            labels.append(quote(label, safe=""))
    return ".".join(labels)


def _host(netloc: str) -> str:
    userinfo, at, hostport = netloc.rpartition("@")
    host, colon, port = hostport.partition(":")
    if host.startswith("["):  # IPv6 literal: leave alone
        return netloc
    host = encode_host(host)
    userinfo = quote(userinfo, safe=_SAFE) if at else ""
    return f"{userinfo}{at}{host}{colon}{port}"


def _is_clean(url: str) -> bool:
    """True when ``url`` needs no encoding: the fast path for the usual, already clean URL."""
    return (
        url.isascii()
        and url.isprintable()
        and _UNSAFE_ASCII.search(url) is None
        and ("%" not in url or _LONE_PERCENT.search(url) is None)
    )


def encode_url(url: str) -> str:
    """Percent-encode what RFC 3986 forbids in ``url``; a clean URL is returned unchanged."""
    url = url.strip()
    if _is_clean(url):
        return url
    parts = urlsplit(url)
    netloc = _host(parts.netloc) if not parts.netloc.isascii() else parts.netloc
    return urlunsplit(
        (parts.scheme, netloc, _fix(parts.path), _fix(parts.query), _fix(parts.fragment))
    )


def _fix(part: str) -> str:
    # A "%" not followed by two hex digits is a literal percent sign: encode it.
    return quote(_LONE_PERCENT.sub("%25", part), safe=_SAFE)


# --- equivalence --------------------------------------------------------------------------

_DEFAULT_PORT_TEXT = {scheme: str(port) for scheme, port in DEFAULT_PORTS.items()}
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
    if port == _DEFAULT_PORT_TEXT.get(scheme):
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
      internationalised host is IDNA-encoded (:func:`encode_host`);
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


def same_url(a: str, b: str) -> bool:
    """True when ``a`` and ``b`` name the same resource: equal after :func:`normalize_url`.

    So ``%7E`` and ``~`` are one (RFC 3986 §6.2.2.2), and so are ``HTTPS://Example.COM:443/``
    and ``https://example.com/``; the path's case and the query are significant.
    """
    return normalize_url(a) == normalize_url(b)
