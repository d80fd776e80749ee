"""Which hosts may be contacted: the address classes behind a host name or URL.

A service that follows sitemap indexes from untrusted sites must not be steered into its
own network (SSRF). An address that is loopback, private, link-local or otherwise
non-public is refused, unless the user's start URL itself resolved to an address of the
same class (a start on 127.0.0.1 allows other loopback children, and still refuses 10.x or
169.254.x).

The policy lives in :class:`sitemapconv._door.Door`; the check is made by the connection
layer (:mod:`sitemapconv._transport`) on the very address it connects to, resolved once with
:func:`resolve`, so a DNS answer that changes between a check and the connection
(DNS rebinding) cannot slip through. :func:`resolve` and :func:`address_class` are looked up
through this module at every use, so tests can simulate a "public" loopback address.
"""

from __future__ import annotations

import ipaddress
import socket


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


def literal(host: str) -> str | None:
    """``host`` without brackets when it is an IP address literal, else None (a name)."""
    bare = host.strip("[]")
    try:
        ipaddress.ip_address(bare.split("%", 1)[0])
    except ValueError:
        return None
    return bare


def resolve(host: str, port: int) -> list[str]:
    """The IP addresses to try for ``host`` (a literal is itself), in resolver order.

    An empty list when the name does not resolve.
    """
    bare = literal(host)
    if bare is not None:
        return [bare]
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, ValueError, UnicodeError):
        return []
    return list(dict.fromkeys(str(info[4][0]) for info in infos))
