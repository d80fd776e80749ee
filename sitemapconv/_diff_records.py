"""What a comparison compares, without I/O: the records, fingerprints and change types.

An old URL is kept as a compact record (see :mod:`sitemapconv._diff`)::

    digest (16 bytes) | sequence number (5) | one 8-byte fingerprint per compared field
    other than lastmod | the old lastmod as W3C text (variable)

A compared field that is missing on either side is unknown, not changed. ``lastmod`` values
compare as instants (a naive time is UTC, a date is 00:00 UTC that day, as in ``--since``);
the other fields compare by value, through their fingerprints.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Literal

from ._dates import format_w3c, parse_w3c
from ._filters import instant
from ._model import Entry, When

#: Fields ``--diff-fields`` may name. ``lastmod`` alone is compared by default.
FIELDS: tuple[str, ...] = (
    "lastmod",
    "changefreq",
    "priority",
    "title",
    "summary",
    "published",
    "images",
    "videos",
    "news",
    "alternates",
)
DEFAULT_FIELDS: tuple[str, ...] = ("lastmod",)

ChangeKind = Literal["added", "removed", "changed"]

DIGEST = 16
SEQ = 5  # up to 2**40 old entries
PRINT = 8
NONE = bytes(PRINT)  # the fingerprint of a missing value


@dataclass(slots=True, frozen=True)
class Change:
    """One difference: ``change`` is ``added``, ``removed`` or ``changed``.

    ``fields`` names the compared fields that differ (only for ``changed``). ``entry`` is
    the new side's entry for ``added`` and ``changed``, ``None`` for ``removed``.
    """

    change: ChangeKind
    loc: str
    old_lastmod: When | None = None
    new_lastmod: When | None = None
    fields: tuple[str, ...] = ()
    entry: Entry | None = field(default=None, compare=False, repr=False)


@dataclass(slots=True)
class DiffStats:
    """Counts of a comparison, filled as it streams (complete once iteration ends)."""

    added: int = 0
    removed: int = 0
    changed: int = 0
    unchanged: int = 0
    #: Repeated URLs ignored on the old and on the new side.
    old_duplicates: int = 0
    new_duplicates: int = 0

    def summary(self) -> str:
        """``12 added, 3 removed, 40 changed, 9,845 unchanged``."""
        return (
            f"{self.added:,} added, {self.removed:,} removed, {self.changed:,} changed, "
            f"{self.unchanged:,} unchanged"
        )


def check_fields(names: Iterable[str]) -> tuple[str, ...]:
    """The compared fields, in :data:`FIELDS` order; ValueError naming an unknown one."""
    wanted = [n.strip().lower() for n in names if n.strip()]
    unknown = [n for n in wanted if n not in FIELDS]
    if unknown:
        raise ValueError(f"unknown field(s) {', '.join(unknown)} (choose from {', '.join(FIELDS)})")
    if not wanted:
        raise ValueError(f"name at least one field (choose from {', '.join(FIELDS)})")
    return tuple(n for n in FIELDS if n in wanted)


def fingerprint(entry: Entry, name: str) -> bytes:
    value: Any = getattr(entry, name)
    if value is None or value == "" or value == ():
        return NONE
    if isinstance(value, str):
        text = value.strip()
    elif isinstance(value, (_dt.date, _dt.datetime)):
        text = instant(value).isoformat()
    elif isinstance(value, float):
        text = repr(round(value, 6))
    elif isinstance(value, (list, tuple)):
        if not value:
            return NONE
        text = repr(list(value))
    else:
        text = repr(value)
    digest = hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=PRINT).digest()
    return digest if digest != NONE else b"\x01" + digest[1:]


def lastmod_text(when: When | None) -> str:
    return "" if when is None else format_w3c(when)


def lastmod_value(text: str) -> When | None:
    return parse_w3c(text) if text else None


def compare(
    record: bytes, entry: Entry, fields: tuple[str, ...], others: tuple[str, ...]
) -> tuple[tuple[str, ...], str]:
    """The names of ``fields`` that differ between an old ``record`` and the new ``entry``,
    and the old lastmod text. ``others`` are the compared fields other than lastmod, in the
    order their fingerprints follow the record's sequence number."""
    at = DIGEST + SEQ
    changed: list[str] = []
    old_lastmod = record[at + PRINT * len(others) :].decode("ascii")
    for name in fields:
        if name == "lastmod":
            if old_lastmod and entry.lastmod is not None:
                old_value = lastmod_value(old_lastmod)
                if old_value is None or instant(old_value) != instant(entry.lastmod):
                    changed.append(name)
            continue
        old_print = record[at : at + PRINT]
        at += PRINT
        new_print = fingerprint(entry, name)
        if old_print != NONE and new_print != NONE and old_print != new_print:
            changed.append(name)
    return tuple(changed), old_lastmod
