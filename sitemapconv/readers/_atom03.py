"""Atom 0.3 reader: the Atom 1.0 reader with the 0.3 names (Atom 0.3, the
December 2003 pre-standard snapshot).

``lastmod`` is ``modified``, else ``issued``, else ``created`` (each fallback warns);
``published`` is ``issued``; the feed description is ``tagline``. The entry's page is its
``link rel="alternate"`` (a missing ``rel`` is read as alternate, as in 1.0). Entries are
accepted in the 0.3 namespace ``http://purl.org/atom/ns#``, in none, or in whatever
namespace a ``version="0.3"`` feed uses.
"""

from __future__ import annotations

from typing import ClassVar

from .._head import Head
from .._xml import ATOM03_NS
from ._atom import AtomReader, Dialect

ATOM03 = Dialect(None, ("modified", "issued", "created"), "issued", "tagline")


class Atom03Reader(AtomReader):
    """Streams the entries of an Atom 0.3 feed."""

    name = "atom03"
    aliases = ()
    mimetypes = ()
    dialect: ClassVar[Dialect] = ATOM03

    @classmethod
    def sniff(cls, head: Head) -> float:
        root = head.root
        if root is None or root.local != "feed":
            return 0.0
        if root.namespace == ATOM03_NS:
            return 1.0
        return 0.9 if root.attributes.get("version", "").strip() == "0.3" else 0.0
