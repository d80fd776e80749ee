"""Which hosts may be contacted: the address classes behind a host name or URL.

A service that follows sitemap indexes from untrusted sites must not be steered into its
own network (SSRF). An address that is loopback, private, link-local or otherwise
non-public is refused, unless the user's start URL itself resolved to an address of the
same class (a start on 127.0.0.1 allows other loopback children, and still refuses 10.x or
169.254.x).

The policy lives in :class:`sitemapconv.door.Door`; the check is made by the connection
layer (:mod:`sitemapconv.transport`) on the very address it connects to, resolved once with
:func:`resolve`, so a DNS answer that changes between a check and the connection
(DNS rebinding) cannot slip through. :func:`resolve` and :func:`address_class` are looked up
through this module at every use, so tests can simulate a "public" loopback address.
"""

from __future__ import annotations

import ipaddress
import socket
from urllib.parse import urlsplit

_WEB = ("http", "https")


def address_class(address: str) -> str | None:
    """The class of a non-public IP address (``loopback``, ``private``...), None if public."""
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    if ip.is_loopback:
        return "loopback"
    if ip.is_link_local:
        return "link-local"
    if ip.is_unspecified or ip.is_multicast or ip.is_reserved:
        return "reserved"
    if ip.is_private or not ip.is_global:
        return "private"
    return None


def resolve(host: str, port: int) -> list[str]:
    """The IP addresses to try for ``host`` (a literal is itself), in resolver order.

    An empty list when the name does not resolve.
    """
    bare = host.strip("[]")
    try:
        ipaddress.ip_address(bare.split("%", 1)[0])
        return [bare]
    except ValueError:
        pass
    try:
        infos = socket.getaddrinfo(bare, port, type=socket.SOCK_STREAM)
    except (OSError, ValueError, UnicodeError):
        return []
    return list(dict.fromkeys(str(info[4][0]) for info in infos))


def host_addresses(url: str) -> list[str]:
    """The IP addresses a URL's host stands for: the literal itself, else a DNS lookup."""
    parts = urlsplit(url)
    host = parts.hostname
    if not host:
        return []
    try:
        ipaddress.ip_address(host.split("%", 1)[0])
        return [host]
    except ValueError:
        pass
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, ValueError, UnicodeError):
        return []  # unresolvable: the fetch itself will fail and say so
    return sorted({str(info[4][0]) for info in infos})


def address_classes(url: str | None) -> frozenset[str]:
    """The non-public classes among a URL's addresses (empty for a public host or no URL)."""
    if url is None or urlsplit(url).scheme.lower() not in _WEB:
        return frozenset()
    return frozenset(c for a in host_addresses(url) if (c := address_class(a)) is not None)


def is_blocked(
    url: str, start_url: str | None, *, start: frozenset[str] | None = None
) -> str | None:
    """Why ``url`` must not be contacted when following from ``start_url``, or None.

    A host that resolves to any loopback, private, link-local or reserved address is
    refused unless the start URL's host resolved to an address of that same class. Pass the
    start's classes as ``start`` to skip resolving it again.
    """
    allowed = address_classes(start_url) if start is None else start
    for address in host_addresses(url):
        kind = address_class(address)
        if kind is not None and kind not in allowed:
            host = urlsplit(url).hostname
            return (
                f"{host} resolves to a {kind} address ({address}); "
                "allow with --allow-private or block_private=False"
            )
    return None
