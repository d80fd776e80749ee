"""Fixtures for the remote-sitemap tests: a threaded loopback HTTP server and sample bodies.

The server listens on 127.0.0.1 only and is threaded, so slow handlers do not serialise
the concurrent fetches under test. No test sends traffic anywhere else: the refused
private and link-local children are refused before they are contacted.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from pytest_httpserver import HTTPServer

from .bodies import Run


@pytest.fixture
def server(loopback: HTTPServer) -> HTTPServer:
    """The shared threaded loopback server (tests/conftest.py), under this suite's name."""
    return loopback


@pytest.fixture
def closed_port() -> int:
    """A loopback port with nothing listening (connections are refused at once)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port


@pytest.fixture
def run_cli() -> Run:
    """Run the installed ``sitemapconv`` console script in a subprocess."""
    beside = Path(sys.executable).with_name("sitemapconv")
    exe = str(beside) if beside.exists() else shutil.which("sitemapconv")
    assert exe, "the sitemapconv console script is not installed"

    def run(*args: str, cwd: Path | None = None) -> Any:
        return subprocess.run(
            [exe, *args], capture_output=True, text=True, cwd=cwd, timeout=120, check=False
        )

    return run
