"""The one typed record of a command line: :class:`CliOptions`.

:mod:`sitemapconv._cli.main` builds it once from the flags; every mode reads what it needs
from it. The library's own records travel inside it unchanged (``ReadOptions`` for every
fetch, ``WriteOptions`` for the writer, ``FilterOptions`` for the filters), so an option
given on the command line reaches the library by construction, in every mode.
"""

from __future__ import annotations

from dataclasses import dataclass

from .._filters import FilterOptions
from .._options import ReadOptions, WriteOptions
from .notify_mode import NotifyRequest


@dataclass(frozen=True, slots=True)
class ValidateSettings:
    """``--validate``: the report's format."""

    report: str = "text"


@dataclass(frozen=True, slots=True)
class DaskSettings:
    """``--dask`` / ``--scheduler``: where the job runs."""

    scheduler: str = "local"


@dataclass(frozen=True, slots=True)
class DiffSettings:
    """``--diff OLD``: the old snapshot and what makes a URL changed."""

    old: str
    fields: str | None = None


@dataclass(frozen=True, slots=True)
class CliOptions:
    """Everything one command line asked for."""

    inputs: tuple[str, ...]
    from_: str | None
    to: str | None
    output: str
    quiet: bool
    verbose: bool
    strict: bool
    discover: bool
    #: Every fetch's options (``follow`` included); ``on_warning`` is set by each mode.
    read: ReadOptions
    #: The writer's options; ``split`` and ``on_warning`` are set once the format is known.
    write: WriteOptions
    filters: FilterOptions
    notify: NotifyRequest
    validate: ValidateSettings | None = None
    dask: DaskSettings | None = None
    diff: DiffSettings | None = None
    no_split: bool = False

    @property
    def to_stdout(self) -> bool:
        return self.output == "-"
