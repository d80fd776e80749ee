"""Shared fixtures: paths to the samples and the installed console script."""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from pytest_httpserver import HTTPServer

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples"
DATA = Path(__file__).resolve().parent / "data"


def _console_script() -> str:
    beside = Path(sys.executable).with_name("sitemapconv")
    if beside.exists():
        return str(beside)
    found = shutil.which("sitemapconv")
    if found is None:  # pragma: no cover - the package is installed in every supported setup
        pytest.fail("the sitemapconv console script is not installed")
    return found


Run = Callable[..., "subprocess.CompletedProcess[bytes]"]


@pytest.fixture
def cli() -> Run:
    """Run the installed ``sitemapconv`` console script; returns the completed process."""
    exe = _console_script()

    def run(*args: str, stdin: bytes | None = None, cwd: Path | None = None) -> Any:
        return subprocess.run(
            [exe, *args], input=stdin, capture_output=True, cwd=cwd, timeout=120, check=False
        )

    return run


@pytest.fixture(scope="session")
def _threaded_loopback() -> Iterator[HTTPServer]:
    server = HTTPServer(host="127.0.0.1", port=0, threaded=True)
    server.start()
    yield server
    server.clear()
    if server.is_running():
        server.stop()


@pytest.fixture
def loopback(_threaded_loopback: HTTPServer) -> Iterator[HTTPServer]:
    """A threaded server on 127.0.0.1, cleared for each test; unknown paths answer 404.

    Threaded, so slow handlers do not serialise concurrent fetches; its ``log`` lists every
    request it got. No test sends traffic anywhere but loopback.
    """
    _threaded_loopback.clear()
    _threaded_loopback.no_handler_status_code = 404
    yield _threaded_loopback
    _threaded_loopback.clear()
