"""URL normalisation for output: RFC 3986 percent-encoding without double encoding.

IRIs become URIs (PROTOCOL.md §2): non-ASCII characters and spaces are percent-encoded from
their UTF-8 bytes, existing ``%XX`` escapes are kept as they are, and reserved characters
keep their meaning. The host is encoded with UTS #46 / IDNA 2008 (:func:`encode_host`).
Writers XML-escape the result afterwards.
"""

from __future__ import annotations

import re
from urllib.parse import quote, urlsplit, urlunsplit

import idna

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
