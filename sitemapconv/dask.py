"""Reading the sitemaps of many sites on a Dask cluster: one task per sitemap file.

Needs the extra: ``pip install 'sitemapconv[dask]'``. Core sitemapconv never imports dask;
this module imports it inside its functions (absolute imports, so ``import dask`` here is
the real dask), and says which extra to install when it is missing.

How the work is split (:func:`read_sitemaps`):

1. With ``discover=True``, one task per site finds its sitemaps (robots.txt, well-known
   paths). These tasks run when ``read_sitemaps`` is called.
2. One task per source reads it completely; also run at call time. A sitemap's rows stay
   where the task ran (``dask.persist``); an index sends only its child URLs back.
3. The client admits the children with follow's rules (http(s) only, ``max_depth``,
   ``max_sitemaps``, ``sitemap_filter``, dedup) and each admitted child becomes one task
   of the returned bag, run when the bag is computed. So one huge site spreads over the
   cluster. A child that turns out to be an index itself (nested indexes break the
   protocol) is followed inside its own task, down to ``max_depth``.

Dedup is **per site** (per source, or per discovered site): a sitemap listed twice within
one site is read once, as with ``read(url, follow=True)``; the same sitemap reached from
two sources is read for each. Inside a nested index (expanded within one task) the
grandchildren are checked against the site's first-level set and that task's own, not
against what other tasks expand; ``max_sitemaps`` counts per site on the client and per
task for nested indexes.

Failures never fail the graph: a sitemap or site that cannot be read is one row with
``loc`` None, ``error`` the reason and ``sitemap`` its URL. Warnings go to
``on_warning`` (else the ``warnings`` module) in the process that runs the task; give a
picklable handler (a module-level function, ``print``), since tasks are pickled.

Row schema (:data:`SCHEMA`, also the dtypes of :func:`to_dataframe`): ``site``,
``sitemap``, ``loc``, ``lastmod``, ``changefreq``, ``title`` and ``error`` are strings
(``string[pyarrow]``, missing as ``<NA>``), ``priority`` is float64 (missing as NaN).
``lastmod`` stays the ISO 8601 / W3C text of :func:`sitemapconv.dates.format_w3c`:
sitemaps mix dates, zoned and zone-less times, and a datetime64[ns, UTC] column would have
to invent a zone and a time. ``dd.to_datetime(df.lastmod, utc=True, format="ISO8601")``
converts when that is what you want.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from .door import visit_key
from .errors import SitemapError
from .options import ReadOptions, build_options
from .scaleout import (
    COLUMNS,
    Listed,
    Record,
    as_location,
    discover_site,
    read_listed,
    read_top,
    read_whole,
    top_records,
    top_summary,
)

if TYPE_CHECKING:
    import dask.bag as db
    import dask.dataframe as dd
    import pandas as pd

_STRING = "string[pyarrow]"

#: Column dtypes of :func:`to_dataframe` (and of the Parquet output), in column order.
SCHEMA: dict[str, str] = {name: _STRING for name in COLUMNS} | {"priority": "float64"}

#: Output formats of :func:`run_cli_job`.
JOB_FORMATS = ("parquet", "jsonl")

EXTRA_HINT = "the Dask features need the extra: pip install 'sitemapconv[dask]'"

#: Partitions computed at once when the client writes JSON lines itself.
_JSONL_BATCH = 64


def _require() -> None:
    try:
        import dask.bag  # noqa: F401
    except ImportError as exc:
        raise ImportError(EXTRA_HINT) from exc


# --- building the bag ---------------------------------------------------------------------


def read_sitemaps(
    sources: str | Iterable[str],
    *,
    follow: bool = True,
    discover: bool = False,
    options: ReadOptions | None = None,
    **read_options: Any,
) -> db.Bag:
    """A bag of plain dicts, one per entry (or per failed sitemap), read on the cluster.

    ``sources`` are sitemap or index URLs (or local paths, which every worker must see),
    or site URLs with ``discover=True``. Keyword arguments are
    :class:`~sitemapconv.options.ReadOptions` fields (``timeout``, ``retries``,
    ``user_agent``, ``block_private``...). Discovery and the top documents are read when
    this is called, on the current scheduler (an active ``distributed.Client``, or
    ``dask.config``); the children are read when the bag is computed.
    """
    _require()
    import dask
    import dask.bag as db

    opts = replace(build_options(ReadOptions, options, read_options), follow=follow)
    given = [sources] if isinstance(sources, str) else list(sources)
    parts: list[db.Bag] = []
    sites: list[tuple[str, list[str]]]
    if discover:
        tasks = [dask.delayed(discover_site, pure=False)(s, opts) for s in given]
        found: tuple[tuple[list[str], list[Record]], ...] = dask.compute(*tasks)
        sites = [(s, urls) for s, (urls, _) in zip(given, found, strict=True) if urls]
        errors = [record for _, records in found for record in records]
        if errors:
            parts.append(db.from_sequence(errors, npartitions=1))
    else:
        sites = [(s, [as_location(s)]) for s in given]
    if follow:
        parts.extend(_followed(sites, opts))
    else:
        pairs = [(site, url) for site, urls in sites for url in urls]
        if pairs:
            whole = db.from_sequence(pairs, partition_size=1)
            parts.append(whole.starmap(read_whole, options=opts).flatten())
    if not parts:
        return db.from_sequence([], npartitions=1)
    return parts[0] if len(parts) == 1 else db.concat(parts)


def _followed(sites: list[tuple[str, list[str]]], opts: ReadOptions) -> list[db.Bag]:
    """Read the tops (now), admit their children, and make one task per child."""
    import dask
    import dask.bag as db

    from .follow import FollowStats, Scheduler, is_web

    plan = [(no, site, url) for no, (site, urls) in enumerate(sites) for url in urls]
    if not plan:
        return []
    tops = dask.persist(*[dask.delayed(read_top, pure=False)(s, u, opts) for _, s, u in plan])
    summaries = dask.compute(*[dask.delayed(top_summary)(t) for t in tops])
    visited: dict[int, set[str]] = {}
    for (no, _, url), (_, _, base) in zip(plan, summaries, strict=True):
        visited.setdefault(no, set()).update(visit_key(u) for u in (url, base) if u)
    pages: list[Any] = []
    listed: list[Listed] = []
    for (no, site, _url), top, (kind, children, base) in zip(plan, tops, summaries, strict=True):
        if kind != "index":
            pages.append(dask.delayed(top_records)(top))
            continue
        start = site if is_web(site) else None  # the user's URL, never a discovered one
        sched = Scheduler(opts, FollowStats(), start, base, iter(()), visited[no])
        for child in children:
            ref = sched.admit(child, base, 1)
            if ref is not None:
                listed.append(Listed(no, site, start, ref.url, base))
    parts: list[db.Bag] = []
    if pages:
        parts.append(db.from_delayed(pages))
    if listed:
        shared = {no: frozenset(urls) for no, urls in visited.items()}
        per_child = db.from_sequence(listed, partition_size=1)
        parts.append(
            per_child.map(
                read_listed,
                options=dask.delayed(opts, traverse=False),
                visited=dask.delayed(shared, traverse=False),
            ).flatten()
        )
    return parts


# --- DataFrame ----------------------------------------------------------------------------


def records_frame(records: Iterable[Record]) -> pd.DataFrame:
    """A pandas DataFrame of rows with the :data:`SCHEMA` dtypes (empty input included)."""
    import pandas as pd

    frame = pd.DataFrame.from_records(list(records), columns=list(COLUMNS))
    return frame.astype(SCHEMA)


def to_dataframe(bag: db.Bag) -> dd.DataFrame:
    """A dask DataFrame of the bag's rows, one partition per bag partition, dtypes fixed.

    Write it with ``.to_parquet(path, write_index=False)``; a run over many small
    sitemaps may want ``.repartition(partition_size="100MB")`` first.
    """
    _require()
    import dask
    import dask.dataframe as dd

    frames = [dask.delayed(records_frame)(part) for part in bag.to_delayed()]
    return dd.from_delayed(frames, meta=records_frame([]), verify_meta=False)


# --- the CLI job --------------------------------------------------------------------------


@contextmanager
def use_scheduler(where: str) -> Iterator[None]:
    """Run the enclosed dask work on ``where``.

    ``local``: a ``distributed.LocalCluster`` (processes) started for the job and closed
    after it. ``sync``, ``threads``, ``processes``: dask's single-machine schedulers.
    Anything else is a scheduler address (``tcp://10.0.0.5:8786``) for a
    ``distributed.Client``.
    """
    import dask

    name = where.strip().lower()
    single = {"sync": "sync", "synchronous": "sync", "threads": "threads"}
    single["processes"] = "processes"
    if name in single:
        with dask.config.set(scheduler=single[name]):
            yield
        return
    from distributed import Client, LocalCluster

    if name == "local":
        with LocalCluster(processes=True, dashboard_address=None) as cluster, Client(cluster):
            yield
        return
    with Client(where):
        yield


def job_format(to: str | None, output: str) -> str | None:
    """``parquet`` or ``jsonl`` from ``-t``, else from a ``.jsonl``/``.ndjson`` output name."""
    if to is not None:
        name = to.strip().lower()
        return {"ndjson": "jsonl", "jsonlines": "jsonl"}.get(name, name)
    lower = output.lower().removesuffix(".gz")
    if lower.endswith((".jsonl", ".ndjson")):
        return "jsonl"
    if lower.endswith(".parquet"):
        return "parquet"
    return None


def run_cli_job(
    inputs: Iterable[str],
    *,
    scheduler: str,
    to: str | None,
    output: str,
    follow: bool,
    discover: bool,
    read_options: dict[str, Any],
    warn: Callable[[str], None],
    error: Callable[[str], None],
) -> int:
    """``sitemapconv --dask``: read on ``scheduler``, write Parquet or JSON lines; exit code.

    Exit codes as the CLI's: 2 for a usage problem, 1 when the job could not run or not a
    single entry was read, else 0 (failed sitemaps are warned about and kept as error
    rows in the output).
    """
    fmt = job_format(to, output)
    if fmt not in JOB_FORMATS:
        error(f"--dask writes -t parquet (-o DIR) or -t jsonl (-o FILE), not {to or output!r}")
        return 2
    if fmt == "parquet" and (output == "-" or (os.path.isdir(output) and os.listdir(output))):
        error("-t parquet needs -o DIR, a new or empty directory")
        return 2
    try:
        _require()
    except ImportError as exc:
        error(str(exc))
        return 1
    options = {k: v for k, v in read_options.items() if k != "follow"}
    try:
        with use_scheduler(scheduler):
            bag = read_sitemaps(list(inputs), follow=follow, discover=discover, **options)
            if fmt == "jsonl":
                entries, failures = _write_jsonl(bag, output)
            else:
                entries, failures = _write_parquet(bag, output)
    except SitemapError as exc:
        error(str(exc))
        return 1
    except Exception as exc:  # a cluster that cannot be reached, a full disk...
        error(f"the Dask job failed: {type(exc).__name__}: {exc}")
        return 1
    for sitemap, message in failures[:20]:
        warn(f"{sitemap}: {message}")
    if len(failures) > 20:
        warn(f"... and {len(failures) - 20} more failed sitemap(s)")
    if failures and not entries:
        error(f"no entries read; {len(failures)} sitemap(s) failed")
        return 1
    return 0


def _write_jsonl(bag: db.Bag, output: str) -> tuple[int, list[tuple[str, str]]]:
    """Compute the partitions a batch at a time and write their rows, one JSON per line."""
    import dask

    from .sink import open_dest

    entries = 0
    failures: list[tuple[str, str]] = []
    parts = bag.to_delayed()
    with open_dest(output, gzip_output=output.lower().endswith(".gz")) as out:
        for i in range(0, len(parts), _JSONL_BATCH):
            for records in dask.compute(*parts[i : i + _JSONL_BATCH]):
                for record in records:
                    out.write(json.dumps(record, ensure_ascii=False).encode("utf-8") + b"\n")
                    if record["error"] is None:
                        entries += 1
                    else:
                        failures.append((record["sitemap"], record["error"]))
    return entries, failures


def _write_parquet(bag: db.Bag, output: str) -> tuple[int, list[tuple[str, str]]]:
    """Write the Parquet directory and count rows and failures in the same computation."""
    import dask

    df = to_dataframe(bag)
    write = df.to_parquet(output, write_index=False, compute=False)
    failed = df[df["error"].notnull()][["sitemap", "error"]]
    _, failures, entries = dask.compute(write, failed, df["loc"].count())
    pairs = [(str(s), str(e)) for s, e in zip(failures["sitemap"], failures["error"], strict=True)]
    return int(entries), pairs
