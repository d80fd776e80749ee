"""The async driver, and the async API: ``async for entry in sitemapconv.aread(source)``.

For callers already inside an event loop. Network I/O runs on the async client of
:func:`sitemapconv._door.make_async_client`, through the same :class:`~sitemapconv._door.Door`
as the sync reader (:class:`sitemapconv._fetch.RequestChain`: redirects, retries, deadlines, address
checks, header scoping). Parsing stays with the sync readers, which run in worker threads
(one parser thread per document: lxml's parsers must not move between threads) so that a
large document never blocks the loop; entries cross back in batches.

Memory is that of the sync reader: every fetched body is spooled (in memory up to 1 MiB,
then to a temporary file) as it arrives, raw and capped, and parsed streaming from there;
content codings are undone while parsing, under the decoded size cap. With ``follow=True``
the rules are those of the threaded driver (:mod:`.sync`; the same
:class:`~sitemapconv._follow.policy.Scheduler`): children are downloaded by tasks, at most
``options.concurrency`` at a time, and parsed streaming in index order, so peak memory does
not depend on the size of a child.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import AsyncGenerator, AsyncIterator, Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from typing import TYPE_CHECKING, Any, BinaryIO, TypeVar

from .. import _progress as progress
from .._door import Door, Refused
from .._model import Entry
from .._open import open_document
from .._options import ReadOptions, build_options
from .._spool import CHILD_SPOOL_MEMORY, new_spool
from .._urls import is_http
from ..errors import FetchError, SitemapError
from .children import stream_child
from .locations import document_location
from .policy import Scheduler
from .results import ChildDownload, ChildSitemap, DownloadKind, FollowStats

if TYPE_CHECKING:
    import httpx

    from .._model import Document
    from .._source import Source

_BATCH = 500

T = TypeVar("T")


class _Parser:
    """The one thread in which a document's parsing happens, start to end."""

    def __init__(self) -> None:
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sitemapconv-parse")

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(
            self._pool, functools.partial(progress.carried(fn), *args)
        )

    def shutdown(self) -> None:
        self._pool.shutdown(wait=True)


class AsyncFetcher:
    """The async client with the sync fetcher's policy; bodies are spooled, not held."""

    def __init__(self, options: ReadOptions, door: Door | None = None) -> None:
        from .._door import make_async_client

        self.options = options
        self.door = door if door is not None else Door(options)
        self._client = make_async_client(options, self.door)

    async def aclose(self) -> None:
        await self._client.aclose()

    async def _send(self, url: str) -> httpx.Response:
        import httpx

        from .._fetch import RequestChain

        chain = RequestChain(url, self.options, self.door)
        while True:
            extensions = chain.begin()
            try:
                request = self._client.build_request(
                    "GET", chain.target, headers=chain.headers(), extensions=extensions
                )
                response = await self._client.send(request, stream=True)
            except Refused as exc:
                raise chain.refused(exc) from None
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
            if not isinstance(step, str):
                await asyncio.sleep(step)

    async def fetch(self, url: str) -> tuple[BinaryIO, str]:
        """GET ``url``: (body stream, final URL). The body is spooled as it arrives (raw,
        capped) and decoded while it is read."""
        import httpx

        from .._fetch import body_over_cap, decoded_stream, describe, too_large

        response = await self._send(url)
        spool = new_spool(CHILD_SPOOL_MEMORY)
        try:
            error = too_large(url, self.options, response.headers.get("content-length"))
            if error is not None:
                raise error
            count = 0
            async for chunk in response.aiter_raw():
                count += len(chunk)
                if count > self.options.max_bytes:
                    raise body_over_cap(url, self.options)
                spool.write(chunk)
        except httpx.HTTPError as exc:
            spool.close()
            raise FetchError(f"transfer failed ({describe(exc)})", source=url) from None
        except BaseException:
            spool.close()
            raise
        finally:
            await response.aclose()
        spool.seek(0)
        coding = response.headers.get("content-encoding")
        body = decoded_stream(spool, coding, url, self.options)
        return body, str(response.url)


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

    async def _open_top(
        self, fetcher: AsyncFetcher | None, parser: _Parser
    ) -> tuple[Document, str | None]:
        opts, source = self._options, self.source
        if fetcher is not None and isinstance(source, str):
            body, final = await fetcher.fetch(source)
            base = opts.base_url or final
            try:
                doc = await parser.run(
                    open_document, body, self._requested_format, replace(opts, base_url=base)
                )
            except BaseException:
                body.close()
                raise
            doc._on_close = _closing(doc._on_close, body.close)
            return doc, base
        doc = await parser.run(open_document, source, self._requested_format, opts)
        return doc, document_location(source, opts)

    async def _run(self) -> AsyncGenerator[Entry, None]:
        opts, source = self._options, self.source
        is_url = isinstance(source, str) and is_http(source)
        door = Door(opts, source if is_url else None)  # type: ignore[arg-type]
        door.budget.take()
        fetcher = AsyncFetcher(opts, door) if is_url else None
        doc: Document | None = None
        parser = _Parser()
        try:
            doc, location = await self._open_top(fetcher, parser)
            self.format = doc.format
            self.stats.sitemaps = 1
            if not opts.follow or doc.format != "index":
                it = iter(doc)
                while batch := await parser.run(_take, it):
                    self.stats.entries += len(batch)
                    for entry in batch:
                        yield entry
                return
            top = doc
            children = await parser.run(lambda: [e.loc for e in top])
            await parser.run(top.close)  # the index is read: its spool goes before any child
            start = source if is_url and isinstance(source, str) else None
            sched = Scheduler(opts, self.stats, start, location, iter(children), door=door)
            sched.mark_visited(location or doc.source)
            if start is not None:
                sched.mark_visited(start)
            if fetcher is None:
                fetcher = AsyncFetcher(opts, door)  # a local index may list remote children
            async for entry in _drive(sched, fetcher, opts, parser):
                yield entry
        finally:
            if doc is not None:
                await parser.run(doc.close)
            parser.shutdown()
            if fetcher is not None:
                await fetcher.aclose()


def _closing(first: Any, second: Any) -> Any:
    def close() -> None:
        try:
            if first is not None:
                first()
        finally:
            second()

    return close


async def _download(child: ChildSitemap, sched: Scheduler, fetcher: AsyncFetcher) -> ChildDownload:
    """Task body: refuse or download one child into a spool (the twin of download_child)."""
    if not is_http(child.url):
        return ChildDownload(DownloadKind.LOCAL)
    reason = sched.guard(child.url)
    if reason is not None:
        return ChildDownload(DownloadKind.REFUSED, reason=reason)
    try:
        body, final = await fetcher.fetch(child.url)
    except Refused as exc:
        return ChildDownload(DownloadKind.REFUSED, reason=exc.reason)
    except SitemapError as exc:
        return ChildDownload(DownloadKind.FAILED, reason=exc.reason)
    except Exception as exc:  # a transport oddity must not stop the other children
        return ChildDownload(DownloadKind.FAILED, reason=f"{type(exc).__name__}: {exc}")
    return ChildDownload(DownloadKind.BODY, body=body, final=final)


async def _drive(
    sched: Scheduler, fetcher: AsyncFetcher, options: ReadOptions, parser: _Parser
) -> AsyncIterator[Entry]:
    tasks: list[asyncio.Task[ChildDownload]] = []
    completed = False
    current: Iterator[Entry] | None = None

    def start() -> None:
        for queued in sched.to_start():
            task = asyncio.ensure_future(_download(queued.child, sched, fetcher))
            tasks.append(task)
            queued.handle = task

    try:
        while True:
            start()
            head = sched.head()
            if head is None:
                break
            while not head.handle.done():
                # Wait for the head, starting the next child whenever any download ends.
                await asyncio.wait(sched.downloading(), return_when=asyncio.FIRST_COMPLETED)
                start()
            download = head.handle.result()
            current = stream_child(sched, head, download, options)
            while batch := await parser.run(_take, current):
                for entry in batch:
                    yield entry
            current = None
            tasks = [t for t in tasks if not t.done()]
        completed = True
        sched.finish()
    finally:
        if current is not None:
            await parser.run(current.close)  # type: ignore[attr-defined]
        if not completed:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            for queued in sched.pending():
                handle = queued.handle
                if isinstance(handle, asyncio.Task) and handle.done() and not handle.cancelled():
                    body = handle.result().body
                    if body is not None:
                        body.close()


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
