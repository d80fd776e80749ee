"""Parquet (``.parquet``): the JSON Lines row as typed columns, for pandas, DuckDB, Spark.

The columns are :data:`~sitemapconv.writers._tabular.ROW_KEYS`, the keys of the ``jsonl``
object, in its order (``sitemapconv --dask`` adds ``site`` and ``error``). Types: ``priority``
float64, ``mobile`` boolean, every other column a UTF-8 string (null when absent). ``lastmod``
and ``published`` stay W3C text, as in jsonl: a source mixes dates, zoned and zone-less
times, and a timestamp column would have to invent a zone. The extension columns
(``images``, ``videos``, ``news``, ``alternates``) hold the JSON text of the jsonl value
(``[]``, or null for ``news``), since their objects hold only the fields the source had and
so have no fixed struct type.

Entries are written while they stream in, :data:`ROW_GROUP` rows per Parquet row group, so
memory stays bounded whatever the size of the input. Needs pyarrow (the ``dask`` extra);
without it the writer fails with one line saying what to install.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, BinaryIO, ClassVar

from .._model import Entry
from ..errors import WriteError
from . import WriteContext, Writer
from ._tabular import ROW_KEYS, entry_row

if TYPE_CHECKING:
    import pyarrow as pa

#: Rows per row group: a few megabytes of column data held at once.
ROW_GROUP = 20_000

#: The extension columns, stored as the JSON text of their jsonl value.
NESTED: tuple[str, ...] = ("images", "videos", "news", "alternates")

#: The column types that are not strings: ``float64`` and ``bool``.
TYPES: dict[str, str] = {"priority": "float64", "mobile": "bool"}

HINT = "writing Parquet needs pyarrow: pip install 'sitemapconv[dask]'"

_SURROGATE = re.compile("[\ud800-\udfff]")
_encode = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode
_encode_ascii = json.JSONEncoder(separators=(",", ":"), allow_nan=False).encode


def column_type(name: str) -> str:
    """``string``, ``float64`` or ``bool``: the logical type of a row column."""
    return TYPES.get(name, "string")


def nested_text(value: Any) -> str | None:
    """The JSON text of an extension value as jsonl writes it (``None`` stays null)."""
    if value is None:
        return None
    text = _encode(value)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate: JSON's \\uXXXX escape keeps it
        return str(_encode_ascii(value))
    return str(text)


def flat_row(row: Mapping[str, Any]) -> dict[str, Any]:
    """``row`` with its extension values as JSON text: one scalar per column."""
    flat = dict(row)
    for name in NESTED:
        if name in flat:
            flat[name] = nested_text(flat[name])
    return flat


def arrow_schema(columns: Sequence[str]) -> pa.Schema:
    """The Arrow schema of these row columns (see :func:`column_type`)."""
    import pyarrow as pa

    kinds = {"string": pa.string(), "float64": pa.float64(), "bool": pa.bool_()}
    return pa.schema([(name, kinds[column_type(name)]) for name in columns])


def _valid_text(value: Any) -> Any:
    """A string Arrow can hold: lone surrogates (from a broken source) become U+FFFD."""
    if isinstance(value, str):
        return _SURROGATE.sub("\ufffd", value)
    return value


def _batches(
    rows: Iterable[Mapping[str, Any]], columns: Sequence[str], size: int
) -> Iterator[dict[str, list[Any]]]:
    data: dict[str, list[Any]] = {name: [] for name in columns}
    count = 0
    for row in rows:
        flat = flat_row(row)
        for name in columns:
            data[name].append(flat[name])
        count += 1
        if count == size:
            yield data
            data = {name: [] for name in columns}
            count = 0
    if count:
        yield data


def write_rows(
    rows: Iterable[Mapping[str, Any]],
    out: BinaryIO,
    columns: Sequence[str],
    dest: str,
    row_group: int = ROW_GROUP,
) -> int:
    """Write rows (dicts with at least ``columns``) as one Parquet file; return the count."""
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        raise WriteError(HINT, source=dest) from None
    schema = arrow_schema(columns)
    count = 0
    with pq.ParquetWriter(out, schema, compression="zstd") as writer:
        for data in _batches(rows, columns, row_group):
            try:
                table = pa.Table.from_pydict(data, schema=schema)
            except (pa.ArrowInvalid, UnicodeEncodeError):
                fixed = {name: [_valid_text(v) for v in values] for name, values in data.items()}
                table = pa.Table.from_pydict(fixed, schema=schema)
            writer.write_table(table, row_group_size=row_group)
            count += table.num_rows
    return count


class ParquetWriter(Writer):
    name: ClassVar[str] = "parquet"
    aliases: ClassVar[tuple[str, ...]] = ()
    extensions: ClassVar[tuple[str, ...]] = (".parquet",)
    media_type: ClassVar[str] = "application/vnd.apache.parquet"

    def write(self, entries: Iterable[Entry], out: BinaryIO, ctx: WriteContext) -> int:
        return write_rows((entry_row(e) for e in entries), out, ROW_KEYS, ctx.dest)
