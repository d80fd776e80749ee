"""Progress display and summary (sitemapconv._progress), and the CLI's -v / --quiet.

The display must appear only on a terminal: a pseudo-terminal (the ``pty`` module) stands in
for one, and a pipe for everything else.
"""

from __future__ import annotations

import io
import os
import select
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from pytest_httpserver import HTTPServer

from sitemapconv import _progress as progress_module
from sitemapconv._filters import FilterOptions, Pipeline
from sitemapconv._model import Entry
from sitemapconv._progress import Progress, current, summary_line

# A child that feeds a Progress slowly enough (about 0.6 s) for several redraws, then reports
# whether rich was imported.
CHILD = """
import sys, time
from sitemapconv._progress import Progress
with Progress.for_terminal(quiet={quiet}) as p:
    for i in range(30):
        p.entry()
        if i == 10:
            p.sitemap_fetched("https://example.com/s.xml", 2_500_000)
        time.sleep(0.02)
print("rich imported:", "rich" in sys.modules, file=sys.stdout)
"""


def run_in_pty(code: str, timeout: float = 30.0) -> tuple[bytes, int]:
    """Run ``python -c code`` with stdout and stderr on a pseudo-terminal; return its output."""
    pty = pytest.importorskip("pty")
    master, slave = pty.openpty()
    env = {**os.environ, "COLUMNS": "120", "LINES": "24", "TERM": "xterm"}
    proc = subprocess.Popen(
        [sys.executable, "-c", code], stdin=slave, stdout=slave, stderr=slave, env=env
    )
    os.close(slave)
    chunks: list[bytes] = []
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 0.5)
            if ready:
                try:
                    data = os.read(master, 65536)
                except OSError:  # EIO: the child closed the terminal
                    break
                if not data:
                    break
                chunks.append(data)
            elif proc.poll() is not None:
                break
    finally:
        os.close(master)
        rc = proc.wait(timeout=timeout)
    return b"".join(chunks), rc


def test_display_appears_on_a_terminal() -> None:
    out, rc = run_in_pty(CHILD.format(quiet=False))
    assert rc == 0
    assert b"URLs read" in out
    assert b"1 sitemaps fetched" in out
    assert b"2.5 MB" in out
    assert b"rich imported: True" in out


def test_quiet_shows_no_display_even_on_a_terminal() -> None:
    out, rc = run_in_pty(CHILD.format(quiet=True))
    assert rc == 0
    assert b"URLs read" not in out
    assert b"rich imported: False" in out


def test_no_display_and_no_rich_when_stderr_is_not_a_terminal() -> None:
    proc = subprocess.run(
        [sys.executable, "-c", CHILD.format(quiet=False)],
        capture_output=True,
        timeout=60,
        check=True,
    )
    assert proc.stderr == b""
    assert proc.stdout.strip() == b"rich imported: False"


def test_counters_and_line() -> None:
    stream = io.StringIO()
    with Progress(stream, display=True) as p:  # a StringIO is no terminal: counters only
        assert not p.display
        assert current() is p
        assert list(p.track(range(5))) == [0, 1, 2, 3, 4]
        p.entry()
        p.sitemap_fetched("a", 1500)
        p.sitemap_failed("b")
        p.add_bytes(500)
    assert current() is not p
    assert stream.getvalue() == ""
    assert (p.urls, p.sitemaps, p.failed, p.bytes) == (6, 1, 1, 2000)
    line = p.line()
    assert line.startswith("6 URLs read")
    assert "1 sitemaps fetched (1 failed)" in line
    assert "2.0 kB" in line


def test_current_is_inert_outside_a_run_and_feeding_it_is_thread_safe() -> None:
    assert not current().display
    with Progress(io.StringIO()) as p:

        def worker() -> None:
            for _ in range(1000):
                progress_module.current().sitemap_fetched("u", 1)

        # Threads start with empty context variables: carried() hands them this run's progress.
        threads = [threading.Thread(target=progress_module.carried(worker)) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert p.sitemaps == 4000 and p.bytes == 4000


def test_summary_line_lists_only_filters_that_dropped() -> None:
    pipeline = Pipeline(FilterOptions(exclude=["/tag/"], dedupe=True, limit=10))
    entries = [Entry(loc=u) for u in ("https://e.com/a", "https://e.com/tag/1", "https://e.com/a")]
    out = list(pipeline(entries))
    assert summary_line(pipeline.stats, written=len(out), warnings=1) == (
        "3 entries in, 1 out; dropped: exclude 1, dedupe 1; 1 warning"
    )
    assert summary_line(None, written=1, warnings=0) == "1 entry in, 1 out; 0 warnings"
    p = Progress(io.StringIO())
    p.sitemap_failed()
    assert summary_line(None, written=2, warnings=2, progress=p).endswith("; 1 sitemaps failed")


# --- the CLI ----------------------------------------------------------------------------


def test_following_feeds_the_progress_counters(tmp_path: Path) -> None:
    """Sitemaps read, failed and bytes reach the display from the library's follow code."""
    import sitemapconv
    from sitemapconv._progress import Progress

    (tmp_path / "a.xml").write_text(
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
        "<url><loc>https://example.com/a</loc></url></urlset>"
    )
    (tmp_path / "index.xml").write_text(
        '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
        "<sitemap><loc>a.xml</loc></sitemap><sitemap><loc>missing.xml</loc></sitemap>"
        "</sitemapindex>"
    )
    shown = Progress()
    with shown:
        entries = list(sitemapconv.read(tmp_path / "index.xml", follow=True, on_warning=print))
    assert [e.loc for e in entries] == ["https://example.com/a"]
    assert shown.sitemaps == 1 and shown.failed == 1
    assert shown.bytes > 100


def test_a_plain_thread_does_not_count_into_another_runs_progress() -> None:
    with Progress(io.StringIO()) as p:
        thread = threading.Thread(target=lambda: progress_module.current().sitemap_fetched("u"))
        thread.start()
        thread.join()
    assert p.sitemaps == 0


def test_two_reads_in_one_process_keep_their_own_counters(loopback: HTTPServer) -> None:
    """Two runs at once, in two threads: each Progress counts its own sitemaps and bytes
    (the children are fetched by the follow code's worker threads)."""
    import sitemapconv

    base = f"http://127.0.0.1:{loopback.port}"
    ns = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'
    for n in range(4):
        loopback.expect_request(f"/c{n}.xml").respond_with_data(
            f"<urlset {ns}><url><loc>https://example.com/{n}</loc></url></urlset>",
            content_type="application/xml",
        )
    for name, children in (("one", [0]), ("three", [1, 2, 3])):
        listed = "".join(f"<sitemap><loc>{base}/c{n}.xml</loc></sitemap>" for n in children)
        loopback.expect_request(f"/{name}.xml").respond_with_data(
            f"<sitemapindex {ns}>{listed}</sitemapindex>", content_type="application/xml"
        )
    both_running = threading.Barrier(2, timeout=30)
    shown: dict[str, Progress] = {}
    read: dict[str, int] = {}

    def run(name: str) -> None:
        with Progress(io.StringIO()) as p:
            shown[name] = p
            both_running.wait()  # both progresses are "current" before either reads
            read[name] = len(list(sitemapconv.read(f"{base}/{name}.xml", follow=True)))
            both_running.wait()

    threads = [threading.Thread(target=run, args=(n,)) for n in ("one", "three")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert read == {"one": 1, "three": 3}
    assert (shown["one"].sitemaps, shown["three"].sitemaps) == (1, 3)
    assert 0 < shown["one"].bytes < shown["three"].bytes
