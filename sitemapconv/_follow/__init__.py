"""Following sitemap indexes: the page entries of every child sitemap, recursively.

One concern per module, each importing only those listed before it:

* :mod:`.results`: what a follow produces (:class:`~.results.FollowStats`, the result of
  one child, the :class:`~.results.ChildKind` enum).
* :mod:`.locations`: child URLs resolved against their index, and the index's own location.
* :mod:`.policy`: :class:`~.policy.Scheduler`, every decision (visited set, budget, depth,
  filter, order, look-ahead) and no I/O.
* :mod:`.children`: downloading one child into a spool (:mod:`sitemapconv._spool`, the one
  way a fetched body waits for its turn) and parsing it.
* :mod:`.sync`: the threaded driver behind ``read(source, follow=True)``.
* :mod:`.async_driver`: the asyncio driver behind ``sitemapconv.aread``.
* :mod:`.tasks`: the Dask tasks that :mod:`sitemapconv.cluster` wires into a graph.

This ``__init__`` imports none of them: the drivers pull in threads, asyncio or httpx,
which ``import sitemapconv`` must not pay for.
"""
