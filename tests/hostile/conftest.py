"""Fixtures of the hostile-input suite: the shared gzip bomb (the loopback server is global)."""

from __future__ import annotations

from pathlib import Path

import pytest

from .payloads import BOMB_SIZE, write_space_bomb


@pytest.fixture(scope="session")
def space_bomb(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One gzip member holding 2 GiB of spaces, about 2 MB on disk (made once per run)."""
    path = tmp_path_factory.mktemp("bomb") / "spaces.gz"
    write_space_bomb(path, BOMB_SIZE)
    return path
