"""The follow scheduler's read-ahead: local children two at a time, remote ones in parallel."""

from __future__ import annotations

from pathlib import Path

from sitemapconv.follow import LOCAL_AHEAD, FollowStats, Result, Scheduler
from sitemapconv.options import ReadOptions


def _scheduler(top: str, children: list[str]) -> Scheduler:
    return Scheduler(ReadOptions(concurrency=8), FollowStats(), None, top, iter(children))


def test_local_children_are_read_at_most_two_ahead(tmp_path: Path) -> None:
    top = (tmp_path / "index.xml").as_uri()
    sched = _scheduler(top, [f"child-{i}.xml" for i in range(6)])
    order: list[str] = []
    started = sched.to_start()
    assert len(started) == LOCAL_AHEAD == 2
    while (head := sched.head()) is not None:
        assert sum(1 for s in sched._queue if s.handle is not None) <= LOCAL_AHEAD
        order.append(head.ref.url.rsplit("/", 1)[1])
        sched.deliver(head, Result("pages"))
        sched.to_start()
    assert order == [f"child-{i}.xml" for i in range(6)]
    assert sched.stats.sitemaps == 6


def test_remote_children_still_use_the_whole_concurrency(tmp_path: Path) -> None:
    top = (tmp_path / "index.xml").as_uri()
    sched = _scheduler(top, [f"https://example.com/child-{i}.xml" for i in range(12)])
    assert len(sched.to_start()) == 8
