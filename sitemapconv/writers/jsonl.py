"""JSON Lines (``.jsonl``, alias ``ndjson``): one JSON object per entry, for data tools.

Every line has the same keys, so ``pandas.read_json(path, lines=True)`` loads it directly:
the core columns (:data:`~sitemapconv.writers.tabular.CORE_COLUMNS`, ``null`` when absent),
then the extensions as nested JSON: ``images``, ``videos`` and ``alternates`` as lists of
objects (``[]`` when none), ``news`` as an object or ``null``, and ``mobile`` as a boolean.
Nested objects hold only the fields the source had (see
:func:`~sitemapconv.writers.tabular.plain`). URLs are written as they are (no
percent-encoding: JSON carries any character), output is UTF-8 with ``\\n`` line ends.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import BinaryIO, ClassVar

from ..model import Entry
from . import WriteContext, Writer
from .tabular import CORE_COLUMNS, core_values, plain

_encode = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode
_encode_ascii = json.JSONEncoder(separators=(",", ":"), allow_nan=False).encode


class JsonlWriter(Writer):
    name: ClassVar[str] = "jsonl"
    aliases: ClassVar[tuple[str, ...]] = ("ndjson",)
    extensions: ClassVar[tuple[str, ...]] = (".jsonl", ".ndjson")
    media_type: ClassVar[str] = "application/jsonl"

    def write(self, entries: Iterable[Entry], out: BinaryIO, ctx: WriteContext) -> int:
        count = 0
        write = out.write
        for entry in entries:
            row = dict(zip(CORE_COLUMNS, core_values(entry), strict=True))
            images, videos, news, links = entry.images, entry.videos, entry.news, entry.alternates
            row["images"] = [plain(i) for i in images] if images else []
            row["videos"] = [plain(v) for v in videos] if videos else []
            row["news"] = None if news is None else plain(news)
            row["alternates"] = [plain(a) for a in links] if links else []
            row["mobile"] = entry.mobile
            try:
                line = _encode(row).encode("utf-8")
            except UnicodeEncodeError:  # a lone surrogate: JSON's \uXXXX escape keeps it
                line = _encode_ascii(row).encode("ascii")
            write(line + b"\n")
            count += 1
        return count
