"""The follow policy (:class:`sitemapconv._follow.policy.Scheduler`) decides without I/O.

Nothing here opens a file or a socket: the scheduler is fed child URLs and results by hand,
as a driver would, and asked what to do next.
"""

from __future__ import annotations

import pickle
from collections.abc import Iterable

from sitemapconv._follow.policy import QueuedChild, Scheduler, include_filter
from sitemapconv._follow.results import ChildKind, ChildResult, FollowStats
from sitemapconv._model import Entry
from sitemapconv._options import ReadOptions

TOP = "https://example.com/sitemap_index.xml"


class Pending:
    """A driver's handle whose download is not over (``done()`` false), then over."""

    def __init__(self) -> None:
        self.over = False

    def done(self) -> bool:
        return self.over


def scheduler(
    children: Iterable[str], warnings: list[str] | None = None, **options: object
) -> Scheduler:
    opts = ReadOptions(on_warning=(warnings if warnings is not None else []).append, **options)  # type: ignore[arg-type]
    return Scheduler(opts, FollowStats(), TOP, TOP, iter(children))


def urls(queued: list[QueuedChild]) -> list[str]:
    return [q.child.url for q in queued]


def test_children_start_in_index_order_resolved_against_the_index() -> None:
    sched = scheduler(["/a.xml", "b.xml", "https://example.com/c.xml"])
    started = sched.to_start()
    assert urls(started) == [
        "https://example.com/a.xml",
        "https://example.com/b.xml",
        "https://example.com/c.xml",
    ]
    assert [q.child.depth for q in started] == [1, 1, 1]
    assert sched.head() is started[0]


def test_a_child_listed_twice_in_two_spellings_is_read_once() -> None:
    sched = scheduler(["https://example.com/a.xml", "HTTPS://EXAMPLE.COM:443/a.xml"])
    assert urls(sched.to_start()) == ["https://example.com/a.xml"]
    assert sched.stats.duplicates == 1


def test_concurrency_bounds_the_downloads_started_at_once() -> None:
    sched = scheduler([f"/s{i}.xml" for i in range(10)], concurrency=2)
    first = sched.to_start()
    assert len(first) == 2
    handles = [Pending(), Pending()]
    for queued, handle in zip(first, handles, strict=True):
        queued.handle = handle
    assert sched.to_start() == []  # both still downloading
    assert sched.downloading() == handles
    handles[1].over = True  # a download ends (not the head's): its place is free
    assert sched.downloading() == [handles[0]]
    assert urls(sched.to_start()) == ["https://example.com/s2.xml"]


def test_a_nested_index_is_read_in_its_place_one_level_deeper() -> None:
    warnings: list[str] = []
    sched = scheduler(["/nested.xml", "/after.xml"], warnings)
    nested, _after = sched.to_start()
    # A driver hands over the nested index's children resolved against it.
    children = ["https://example.com/n1.xml", "https://example.com/n2.xml"]
    result = ChildResult(ChildKind.INDEX, children=children, base=nested.child.url)
    assert sched.deliver(nested, result) == []
    queue = sched.pending()
    assert urls(queue) == [
        "https://example.com/n1.xml",
        "https://example.com/n2.xml",
        "https://example.com/after.xml",
    ]
    assert [q.child.depth for q in queue] == [2, 2, 1]
    assert sched.stats.indexes == 1
    assert any("nested indexes break the protocol" in w for w in warnings)


def test_too_deep_children_are_counted_and_named_in_a_warning() -> None:
    warnings: list[str] = []
    sched = scheduler([], warnings, max_depth=1)
    assert sched.admit("https://example.com/deep.xml", TOP, 2) is None
    assert sched.stats.not_followed == 1
    assert any("deep.xml not followed: deeper than max_depth 1" in w for w in warnings)


def test_the_budget_stops_following_with_one_warning() -> None:
    warnings: list[str] = []
    # The top took one unit of max_sitemaps=3: two children are left.
    sched = scheduler([f"/s{i}.xml" for i in range(5)], warnings, max_sitemaps=3)
    assert len(sched.to_start()) == 2
    assert sched.stats.not_followed == 3
    assert sum("stopped following" in w for w in warnings) == 1


def test_the_sitemap_filter_skips_children_silently() -> None:
    warnings: list[str] = []
    sched = scheduler(
        ["/products-1.xml", "/blog.xml", "/products-2.xml"],
        warnings,
        sitemap_filter=include_filter([r"products-\d"]),
    )
    assert [u.rsplit("/", 1)[1] for u in urls(sched.to_start())] == [
        "products-1.xml",
        "products-2.xml",
    ]
    assert sched.stats.filtered == 1
    assert warnings == []


def test_from_the_web_only_web_children_are_followed() -> None:
    warnings: list[str] = []
    sched = scheduler(["file:///etc/passwd", "ftp://example.com/s.xml"], warnings)
    assert sched.to_start() == []
    assert sched.stats.refused == 2
    assert all("only http(s) URLs are followed" in w for w in warnings)


def test_failed_and_refused_children_are_counted_and_reading_goes_on() -> None:
    warnings: list[str] = []
    sched = scheduler(["/bad.xml", "/private.xml", "/good.xml"], warnings)
    bad, private, good = sched.to_start()
    assert sched.deliver(bad, ChildResult(ChildKind.FAILED, reason="HTTP 500")) == []
    assert sched.deliver(private, ChildResult(ChildKind.REFUSED, reason="loopback")) == []
    entries = [Entry(loc="https://example.com/page")]
    assert sched.deliver(good, ChildResult(ChildKind.PAGES, entries=entries)) == entries
    assert sched.head() is None
    stats = sched.stats
    assert (stats.failed, stats.refused, stats.entries) == (1, 1, 1)
    assert stats.failures == [
        ("https://example.com/bad.xml", "HTTP 500"),
        ("https://example.com/private.xml", "loopback"),
    ]
    assert any("bad.xml: child sitemap failed: HTTP 500" in w for w in warnings)
    assert any("private.xml: child sitemap refused: loopback" in w for w in warnings)
    sched.finish()
    assert "following done: read 1 sitemap(s), 1 entries, 1 failed, 1 refused" in warnings[-1]


def test_results_survive_pickling_for_the_cluster() -> None:
    result = ChildResult(ChildKind.INDEX, children=["https://example.com/a.xml"])
    again = pickle.loads(pickle.dumps(result))
    assert again.kind is ChildKind.INDEX
    assert again.kind == "index"  # the word older code compared with
