"""JSON Lines (``.jsonl``, alias ``ndjson``): one JSON object per entry, for data tools.

Every line has the same keys (:func:`~sitemapconv.writers._tabular.entry_row`), so
``pandas.read_json(path, lines=True)`` loads it directly:
the core columns (:data:`~sitemapconv.writers._tabular.CORE_COLUMNS`, ``null`` when absent),
then the extensions as nested JSON: ``images``, ``videos`` and ``alternates`` as lists of
objects (``[]`` when none), ``news`` as an object or ``null``, and ``mobile`` as a boolean.
Nested objects hold only the fields the source had (see
:func:`~sitemapconv.writers._tabular.plain`). URLs are written as they are (no
percent-encoding: JSON carries any character), output is UTF-8 with ``\\n`` line ends.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any, BinaryIO, ClassVar

from .._model import Entry
from . import WriteContext, Writer
from ._tabular import entry_row

_encode = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode
_encode_ascii = json.JSONEncoder(separators=(",", ":"), allow_nan=False).encode


def encode_line(row: Mapping[str, Any]) -> bytes:
    """One JSON Lines line (``\\n`` included) for a row, UTF-8, keys in the row's order."""
    try:
        return _encode(row).encode("utf-8") + b"\n"
    except UnicodeEncodeError:  # a lone surrogate: JSON's \uXXXX escape keeps it
        return _encode_ascii(row).encode("ascii") + b"\n"


class JsonlWriter(Writer):
    name: ClassVar[str] = "jsonl"
    aliases: ClassVar[tuple[str, ...]] = ("ndjson",)
    extensions: ClassVar[tuple[str, ...]] = (".jsonl", ".ndjson")
    media_type: ClassVar[str] = "application/jsonl"

    def write(self, entries: Iterable[Entry], out: BinaryIO, ctx: WriteContext) -> int:
        count = 0
        write = out.write
        for entry in entries:
            write(encode_line(entry_row(entry)))
            count += 1
        return count
