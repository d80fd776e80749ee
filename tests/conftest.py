"""Shared fixtures: paths to the samples and the installed console script."""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

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
