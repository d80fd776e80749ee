"""Fixtures of the security tests: the simulated public/internal split and hostile servers.

See :mod:`tests.security.world`. ``server`` is the hostile "public" server (127.0.0.1);
``internal`` is an internal service (127.0.0.2) that must never receive a request;
``raw_server`` runs a hand-written socket server for what an HTTP framework cannot do
(drip a body, stall headers, send endless 1xx answers).
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from pytest_httpserver import HTTPServer

from . import world

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def public() -> Iterator[None]:
    """127.0.0.1 counts as public, 127.0.0.2 as internal; ``*.test`` names resolve."""
    undo = world.install()
    yield
    undo()


@pytest.fixture
def server(loopback: HTTPServer, public: None) -> HTTPServer:
    """The hostile public server (127.0.0.1), in the simulated world."""
    return loopback


@pytest.fixture(scope="session")
def _internal() -> Iterator[HTTPServer]:
    srv = HTTPServer(host=world.INTERNAL_IP, port=0, threaded=True)
    srv.start()
    yield srv
    srv.clear()
    if srv.is_running():
        srv.stop()


@pytest.fixture
def internal(_internal: HTTPServer) -> Iterator[HTTPServer]:
    """An internal service on 127.0.0.2 that answers every path with a small sitemap."""
    _internal.clear()
    _internal.no_handler_status_code = 404
    yield _internal
    _internal.clear()


Handler = Callable[[socket.socket], None]


class RawServer:
    """A loopback TCP server running ``handler`` on each connection in its own thread."""

    def __init__(self, handler: Handler) -> None:
        self.handler = handler
        self.sock = socket.socket()
        self.sock.bind((world.PUBLIC_IP, 0))
        self.sock.listen(16)
        self.port: int = self.sock.getsockname()[1]
        self.connections = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def url(self, path: str = "/") -> str:
        return f"http://{world.PUBLIC_IP}:{self.port}{path}"

    def _serve(self) -> None:
        self.sock.settimeout(0.1)
        while not self._stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            self.connections += 1
            threading.Thread(target=self._run, args=(conn,), daemon=True).start()

    def _run(self, conn: socket.socket) -> None:
        try:
            read_request(conn)
            self.handler(conn)
        except OSError:
            pass
        finally:
            conn.close()

    def close(self) -> None:
        self._stop.set()
        self._thread.join(2)
        self.sock.close()


def read_request(conn: socket.socket) -> bytes:
    data = b""
    conn.settimeout(5)
    while b"\r\n\r\n" not in data:
        chunk = conn.recv(4096)
        if not chunk:
            break
        data += chunk
    return data


@pytest.fixture
def raw_server(public: None) -> Iterator[Callable[[Handler], RawServer]]:
    servers: list[RawServer] = []

    def make(handler: Handler) -> RawServer:
        srv = RawServer(handler)
        servers.append(srv)
        return srv

    yield make
    for srv in servers:
        srv.close()


@pytest.fixture
def public_cli() -> Callable[..., Any]:
    """Run the CLI in a subprocess of the simulated world; returns the completed process."""

    def run(*args: str, timeout: float = 60) -> Any:
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        return subprocess.run(
            [sys.executable, "-c", world.CLI, *args],
            capture_output=True,
            text=True,
            cwd=ROOT,
            env=env,
            timeout=timeout,
            check=False,
        )

    return run
