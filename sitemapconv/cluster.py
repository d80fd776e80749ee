"""Reading the sitemaps of many sites on a Dask cluster: one task per sitemap file.

Needs the extra: ``pip install 'sitemapconv[dask]'``. Core sitemapconv never imports dask;
this module imports it inside its functions (absolute imports, so ``import dask`` here is
the real dask), and says which extra to install when it is missing.

How the work is split (:func:`read_sitemaps`):

1. With ``discover=True``, one task per site finds its sitemaps (robots.txt, well-known
   paths). These tasks are computed when ``read_sitemaps`` is called.
2. One task per source reads it completely; also computed at call time. An index sends its
   child URLs back, a failed source its error row, a sitemap of up to
   :data:`~sitemapconv._follow.tasks.KEEP_ROWS` entries its rows; a bigger one only says so
   and is read again by a task of the returned bag, so big sitemaps never pass through
   the client.
3. The client admits the children with follow's rules (http(s) only, ``max_depth``,
   ``max_sitemaps``, ``sitemap_filter``, dedup) and each admitted child becomes one task
   of the returned bag, run when the bag is computed. So one huge site spreads over the
   cluster. A child that turns out to be an index itself (nested indexes break the
   protocol) is followed inside its own task, down to ``max_depth``.

Nothing is persisted: what step 1 and 2 computed is plain data in the returned graph, so
the bag, and whatever is made of it (``to_dataframe``, ``to_delayed``, ``to_parquet``),
can be passed around and computed later, on any scheduler, after every other reference is
gone. (A graph holding persisted futures breaks there: dask's graph optimisation replaces
a future by its key, the future is released, and the computation fails with "lost
dependencies".)

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

Row schema (:data:`~sitemapconv._follow.tasks.COLUMNS`): the object ``-t jsonl`` writes for an
entry (:func:`~sitemapconv.writers._tabular.entry_row`) plus ``site`` (the source or
discovered site the row was read for) and ``error``. :func:`to_dataframe` gives the
columns of the ``parquet`` writer (:mod:`sitemapconv.writers._parquet`) plus those two:
``priority`` float64, ``mobile`` boolean, the extension columns as JSON text, every other
column ``string[pyarrow]`` (missing as ``<NA>``). ``lastmod`` stays the W3C text of
:func:`sitemapconv._dates.format_w3c`: sitemaps mix dates, zoned and zone-less times, and a
datetime64[ns, UTC] column would have to invent a zone and a time.
``dd.to_datetime(df.lastmod, utc=True, format="ISO8601")`` converts when that is wanted.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from ._door import visit_key
from ._follow.tasks import (
    COLUMNS,
    ChildTask,
    Record,
    TopRead,
    as_location,
    discover_site,
    plan_top,
    read_large,
    read_listed,
    read_whole,
)
from ._options import ReadOptions, build_options
from .writers._parquet import column_type, flat_row

if TYPE_CHECKING:
    import dask.bag as db
    import dask.dataframe as dd
    import pandas as pd

_DTYPES = {"string": "string[pyarrow]", "float64": "float64", "bool": "boolean"}

#: Column dtypes of :func:`to_dataframe`, in column order: the ``parquet`` writer's
#: columns plus ``site`` and ``error``.
SCHEMA: dict[str, str] = {name: _DTYPES[column_type(name)] for name in COLUMNS}

EXTRA_HINT = "the Dask features need the extra: pip install 'sitemapconv[dask]'"

#: Rows per partition of the rows that planning brought back (small sitemaps, failures).
_KEPT_PARTITION = 5000


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
    :class:`~sitemapconv._options.ReadOptions` fields (``timeout``, ``retries``,
    ``user_agent``, ``block_private``...). Discovery and the top documents are read when
    this is called, on the current scheduler (an active ``distributed.Client``, or
    ``dask.config``); the children are read when the bag is computed. The bag holds no
    futures: it may be computed later, anywhere (see the module's docstring).
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

    from ._follow.policy import Scheduler
    from ._follow.results import FollowStats
    from ._urls import is_http

    plan = [(no, site, url) for no, (site, urls) in enumerate(sites) for url in urls]
    if not plan:
        return []
    tops: tuple[TopRead, ...] = dask.compute(
        *[dask.delayed(plan_top, pure=False)(s, u, opts) for _, s, u in plan]
    )
    visited: dict[int, set[str]] = {}
    for (no, _, url), top in zip(plan, tops, strict=True):
        visited.setdefault(no, set()).update(visit_key(u) for u in (url, top.base) if u)
    kept: list[Record] = []
    large: list[tuple[str, str]] = []
    listed: list[ChildTask] = []
    for (no, site, url), top in zip(plan, tops, strict=True):
        if top.kind == "large":
            large.append((site, url))
            continue
        if top.kind != "index":
            kept.extend(top.records)
            continue
        start = site if is_http(site) else None  # the user's URL, never a discovered one
        base = top.base or url
        sched = Scheduler(opts, FollowStats(), start, base, iter(()), visited[no])
        for child in top.children:
            ref = sched.admit(child, base, 1)
            if ref is not None:
                listed.append(ChildTask(no, site, start, ref.url, base))
    parts: list[db.Bag] = []
    if kept:
        parts.append(db.from_sequence(kept, partition_size=_KEPT_PARTITION))
    if large:
        whole = db.from_sequence(large, partition_size=1)
        options = dask.delayed(opts, traverse=False)
        parts.append(whole.starmap(read_large, options=options).flatten())
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
    """A pandas DataFrame of rows with the :data:`SCHEMA` dtypes (empty input included).

    The extension columns become their JSON text, as in the ``parquet`` writer.
    """
    import pandas as pd

    flat = [flat_row(r) for r in records]
    frame = pd.DataFrame.from_records(flat, columns=list(COLUMNS))
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
    # verify_meta stays on: without it dask aliases the partitions, and ``df.to_bag()``
    # of such a frame fails on a distributed cluster with "lost dependencies".
    return dd.from_delayed(frames, meta=records_frame([]))


# --- where it runs -------------------------------------------------------------------------


@contextmanager
def use_scheduler(where: str) -> Iterator[None]:
    """Run the enclosed dask work on ``where``.

    ``local``: a ``distributed.LocalCluster`` (processes) started for the job and closed
    after it. ``sync``, ``threads``, ``processes``: dask's single-machine schedulers.
    Anything else is a scheduler address (``tcp://10.0.0.5:8786``) for a
    ``distributed.Client``.
    """
    _require()
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
