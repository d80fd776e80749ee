"""Minimal text reader (placeholder; the full reader replaces it)."""

from __future__ import annotations

import io
from collections.abc import Iterator
from typing import BinaryIO

from ..detect import Head
from ..model import Entry
from . import ReadContext, Reader


class TextReader(Reader):
    name = "txt"
    aliases = ("text",)

    @classmethod
    def sniff(cls, head: Head) -> float:
        first = head.text.strip().split("\n", 1)[0].strip().lower()
        return 0.5 if first.startswith(("http://", "https://")) else 0.0

    def read(self, stream: BinaryIO, ctx: ReadContext) -> Iterator[Entry]:
        for line in io.TextIOWrapper(stream, encoding="utf-8-sig", errors="replace"):
            url = line.strip()
            if url.lower().startswith(("http://", "https://")):
                yield Entry(loc=url, sitemap=ctx.url or ctx.source)
