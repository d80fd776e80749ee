"""Fixtures of the hostile-input suite: a loopback HTTP server and the shared gzip bomb."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from pytest_httpserver import HTTPServer

from .payloads import BOMB_SIZE, write_space_bomb


@pytest.fixture(scope="session")
def _loopback_server() -> Iterator[HTTPServer]:
    server = HTTPServer(host="127.0.0.1", port=0, threaded=True)
    server.start()
    yield server
    server.clear()
    if server.is_running():
        server.stop()


@pytest.fixture
def loopback(_loopback_server: HTTPServer) -> Iterator[HTTPServer]:
    """A loopback server, cleared for each test; its ``log`` lists every request it got."""
    _loopback_server.clear()
    _loopback_server.no_handler_status_code = 404
    yield _loopback_server
    _loopback_server.clear()


@pytest.fixture(scope="session")
def space_bomb(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One gzip member holding 2 GiB of spaces, about 2 MB on disk (made once per run)."""
    path = tmp_path_factory.mktemp("bomb") / "spaces.gz"
    write_space_bomb(path, BOMB_SIZE)
    return path
