"""SIGTERM, SIGHUP and SIGINT during a write: temp files removed, old output intact, 128+N.

A real child process converts 300,000 URLs (a split run: six parts plus an index) and is
signalled once its first temporary file exists, that is, in the middle of writing.
"""

from __future__ import annotations

import signal
import subprocess
import time
from pathlib import Path

import pytest

from ..conftest import _console_script

N_URLS = 300_000


@pytest.fixture(scope="module")
def big_list(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("big") / "urls.txt"
    path.write_text("".join(f"https://example.com/page/{n}\n" for n in range(N_URLS)))
    return path


def _signal_mid_write(
    args: list[str], folder: Path, signum: int
) -> subprocess.CompletedProcess[bytes]:
    proc = subprocess.Popen(
        [_console_script(), *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    deadline = time.monotonic() + 120
    while not any(p.name.endswith(".tmp") and _size(p) > 64 * 1024 for p in folder.iterdir()):
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            out, err = proc.communicate()
            pytest.fail(f"no temporary file grew before the run ended: {err!r}")
        time.sleep(0.005)
    proc.send_signal(signum)
    out, err = proc.communicate(timeout=120)
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except FileNotFoundError:
        return 0


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT])
def test_split_run_killed_mid_write(big_list: Path, tmp_path: Path, signum: int) -> None:
    out = tmp_path / "sitemap.xml"
    old = {"sitemap.xml": b"old index", "sitemap-1.xml": b"old part 1"}
    for name, data in old.items():
        (tmp_path / name).write_bytes(data)
    args = [str(big_list), "-o", str(out), "--base-url", "https://example.com/", "-q"]
    done = _signal_mid_write(args, tmp_path, signum)
    assert done.returncode == 128 + signum, done.stderr
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == old
    assert b"Traceback" not in done.stderr
    assert done.stderr.decode().startswith("sitemapconv: error: ")


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
def test_plain_run_killed_mid_write(big_list: Path, tmp_path: Path, signum: int) -> None:
    out = tmp_path / "urls.jsonl"
    out.write_bytes(b"keep")
    done = _signal_mid_write([str(big_list), "-o", str(out)], tmp_path, signum)
    assert done.returncode == 128 + signum, done.stderr
    assert [p.name for p in tmp_path.iterdir()] == ["urls.jsonl"]
    assert out.read_bytes() == b"keep"


def test_signals_wait_while_renames_run() -> None:
    import os

    from sitemapconv import _termination as termination

    before = signal.getsignal(signal.SIGTERM)
    order: list[str] = []
    with pytest.raises(termination.Terminated) as caught, termination.terminating_signals():
        with termination.deferred():
            os.kill(os.getpid(), signal.SIGTERM)
            order.append("the renames went on")
        order.append("not reached")
    assert order == ["the renames went on"]
    assert caught.value.exit_code == 143
    assert signal.getsignal(signal.SIGTERM) == before  # the old handler is back
