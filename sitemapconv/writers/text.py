"""Minimal text writer (placeholder; the full writer replaces it)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import BinaryIO

from ..model import Entry
from . import WriteContext, Writer


class TextWriter(Writer):
    name = "txt"
    aliases = ("text",)
    extensions = (".txt",)

    def write(self, entries: Iterable[Entry], out: BinaryIO, ctx: WriteContext) -> int:
        n = 0
        for e in entries:
            out.write(e.loc.encode() + b"\n")
            n += 1
        return n
