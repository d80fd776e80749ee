"""The async API: ``async for entry in sitemapconv.aread(source, **options)``.

For callers already inside an event loop. Network I/O runs on an ``httpx.AsyncClient``
with the same redirect, retry, timeout and size-cap rules as the sync fetcher
(:class:`sitemapconv.fetch.Chain`). Parsing stays with the sync readers, which run in worker
threads (``asyncio.to_thread``) so that a large document never blocks the loop; entries
cross back in batches.

Memory: a fetched body is held in memory before it is parsed (capped by
``options.max_bytes``), then streamed through the reader. With ``follow=True`` the rules
are those of :mod:`sitemapconv.follow` (same :class:`~sitemapconv.follow.Scheduler`):
children run as tasks, at most ``options.concurrency`` at a time, and their entries come
out in index order.
"""

from __future__ import annotations

import asyncio
import io
from collections.abc import AsyncGenerator, AsyncIterator, Callable, Iterator
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from .errors import FetchError
from .follow import FollowStats, Ref, Result, Scheduler, document_location, is_web, read_child
from .model import Entry
from .options import ReadOptions, build_options

if TYPE_CHECKING:
    import httpx

    from .model import Document
    from .source import Source

_BATCH = 500


def _named(data: bytes, name: str) -> io.BytesIO:
    stream = io.BytesIO(data)
    stream.name = name  # the name source.py uses in messages
    return stream


class AsyncFetcher:
    """An ``httpx.AsyncClient`` with the sync fetcher's policy; bodies come back whole."""

    def __init__(self, options: ReadOptions) -> None:
        import httpx

        from .fetch import client_settings

        self.options = options
        settings = client_settings(options)
        if options.cache is not None:  # see sitemapconv.cache
            from .cache import async_cached_transport

            settings["transport"] = async_cached_transport(options, settings.pop("limits"))  # type: ignore[arg-type]
        self._client = httpx.AsyncClient(**settings)  # type: ignore[arg-type]

    async def aclose(self) -> None:
        await self._client.aclose()

    async def _send(self, url: str, guard: Callable[[str], str | None] | None) -> httpx.Response:
        import httpx

        from .fetch import Chain

        chain = Chain(url, self.options)
        while True:
            try:
                request = self._client.build_request("GET", chain.target)
                response = await self._client.send(request, stream=True)
            except httpx.HTTPError as exc:
                await asyncio.sleep(chain.after_error(exc))
                continue
            try:
                step = chain.after_response(response)
            finally:
                if response.is_redirect or response.status_code >= 400:
                    await response.aclose()
            if step is None:
                return response
            if isinstance(step, str):
                if guard is not None:
                    chain.refuse(await asyncio.to_thread(guard, step))
            else:
                await asyncio.sleep(step)

    async def fetch(
        self, url: str, guard: Callable[[str], str | None] | None = None
    ) -> tuple[bytes, str]:
        """GET ``url``: (raw body, final URL); the raw size cap is checked as bytes arrive."""
        import httpx

        from .fetch import _RAW_CODINGS, body_over_cap, too_large

        response = await self._send(url, guard)
        try:
            error = too_large(url, self.options, response.headers.get("content-length"))
            if error is not None:
                raise error
            coding = response.headers.get("content-encoding", "").strip().lower()
            chunks = response.aiter_raw() if coding in _RAW_CODINGS else response.aiter_bytes()
            body = bytearray()
            async for chunk in chunks:
                body += chunk
                if len(body) > self.options.max_bytes:
                    raise body_over_cap(url, self.options)
        except httpx.HTTPError as exc:
            raise FetchError(f"transfer failed ({exc})", source=url) from None
        finally:
            await response.aclose()
        return bytes(body), str(response.url)


def _take(entries: Iterator[Entry]) -> list[Entry]:
    batch: list[Entry] = []
    for entry in entries:
        batch.append(entry)
        if len(batch) >= _BATCH:
            break
    return batch


class AsyncDocument:
    """What :func:`aread` returns: iterate it with ``async for``; use ``async with`` to close.

    ``format`` is known once iteration has started (the first entry is out, or the source
    turned out empty); ``stats`` fills while an index is followed.
    """

    def __init__(self, source: Source, format: str | None, options: ReadOptions) -> None:
        self.source = source
        self.format: str | None = None
        self.stats = FollowStats()
        self._requested_format = format
        self._options = options
        self._iterator: AsyncGenerator[Entry, None] | None = None

    def __aiter__(self) -> AsyncIterator[Entry]:
        if self._iterator is None:
            self._iterator = self._run()
        return self._iterator

    async def aclose(self) -> None:
        """Stop reading and release connections and worker tasks."""
        if self._iterator is not None:
            await self._iterator.aclose()

    async def __aenter__(self) -> AsyncDocument:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def _open_top(self, fetcher: AsyncFetcher | None) -> tuple[Document, str | None]:
        from .api import open_document

        opts, source = self._options, self.source
        if fetcher is not None and isinstance(source, str):
            data, final = await fetcher.fetch(source)
            base = opts.base_url or final
            doc = await asyncio.to_thread(
                open_document, _named(data, source), self._requested_format,
                replace(opts, base_url=base),
            )  # fmt: skip
            return doc, base
        doc = await asyncio.to_thread(open_document, source, self._requested_format, opts)
        return doc, document_location(source, opts)

    async def _run(self) -> AsyncGenerator[Entry, None]:
        opts, source = self._options, self.source
        is_url = isinstance(source, str) and is_web(source)
        fetcher = AsyncFetcher(opts) if is_url else None
        doc: Document | None = None
        try:
            doc, location = await self._open_top(fetcher)
            self.format = doc.format
            self.stats.sitemaps = 1
            if not opts.follow or doc.format != "index":
                it = iter(doc)
                while batch := await asyncio.to_thread(_take, it):
                    self.stats.entries += len(batch)
                    for entry in batch:
                        yield entry
                return
            top = doc
            children = await asyncio.to_thread(lambda: [e.loc for e in top])
            start = source if is_url and isinstance(source, str) else None
            sched = Scheduler(opts, self.stats, start, location, iter(children))
            sched.mark_visited(location or doc.source)
            if start is not None:
                sched.mark_visited(start)
            if fetcher is None:
                fetcher = AsyncFetcher(opts)  # a local index may list remote children
            async for entry in _drive(sched, fetcher, opts):
                yield entry
        finally:
            if doc is not None:
                doc.close()
            if fetcher is not None:
                await fetcher.aclose()


async def _child(ref: Ref, sched: Scheduler, fetcher: AsyncFetcher, options: ReadOptions) -> Result:
    """Task body: refuse, fetch and read one child (the async twin of ``fetch_child``)."""
    if not is_web(ref.url):
        return await asyncio.to_thread(read_child, ref, options)
    reason = await asyncio.to_thread(sched.guard, ref.url)
    if reason is not None:
        return Result("refused", reason=reason)
    try:
        data, final = await fetcher.fetch(ref.url, sched.guard)
    except FetchError as exc:
        return Result("failed", reason=exc.reason)
    except Exception as exc:
        reason = getattr(exc, "reason", None) or f"{type(exc).__name__}: {exc}"
        return Result("failed", reason=str(reason))
    return await asyncio.to_thread(read_child, ref, options, (_named(data, ref.url), final))


async def _drive(
    sched: Scheduler, fetcher: AsyncFetcher, options: ReadOptions
) -> AsyncIterator[Entry]:
    tasks: list[asyncio.Task[Result]] = []
    completed = False
    try:
        while True:
            for slot in sched.to_start():
                task = asyncio.ensure_future(_child(slot.ref, sched, fetcher, options))
                tasks.append(task)
                slot.handle = task
            head = sched.head()
            if head is None:
                break
            result = await head.handle
            for entry in sched.deliver(head, result):
                yield entry
            tasks = [t for t in tasks if not t.done()]
        completed = True
        sched.finish()
    finally:
        if not completed:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)


def aread(
    source: Source,
    format: str | None = None,
    *,
    options: ReadOptions | None = None,
    **kwargs: Any,
) -> AsyncDocument:
    """Read like :func:`sitemapconv.read`, for ``async for``: ``follow=True`` follows indexes.

    Nothing is fetched until iteration starts. Errors are the same
    :class:`~sitemapconv.errors.SitemapError` subclasses, raised from the ``async for``.
    """
    return AsyncDocument(source, format, build_options(ReadOptions, options, kwargs))
