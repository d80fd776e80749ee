"""Progress display and summary line of the console script.

The library side is tests/test_progress.py.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.test_progress import run_in_pty


def has_txt_reader() -> bool:
    try:
        from sitemapconv._registry import get_reader

        get_reader("txt")
    except ImportError:
        return False
    return True


needs_txt = pytest.mark.skipif(
    not has_txt_reader(), reason="the txt reader is not in this branch yet"
)


CLI = str(Path(sys.executable).with_name("sitemapconv"))


@pytest.fixture
def url_list(tmp_path: Path) -> Path:
    path = tmp_path / "urls.txt"
    lines = [f"https://example.com/page/{i % 50}" for i in range(200)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@needs_txt
def test_cli_verbose_prints_one_summary_line(url_list: Path) -> None:
    proc = subprocess.run(
        [CLI, str(url_list), "-f", "txt", "-t", "jsonl", "--dedupe", "--exclude", "/1$", "-v"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert len(proc.stdout.splitlines()) == 49
    assert proc.stderr == (
        "sitemapconv: 200 entries in, 49 out; dropped: exclude 4, dedupe 147; 0 warnings\n"
    )


@needs_txt
def test_cli_without_verbose_and_not_on_a_terminal_prints_nothing(url_list: Path) -> None:
    proc = subprocess.run(
        [CLI, str(url_list), "-f", "txt", "-t", "jsonl", "--limit", "3"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0
    assert proc.stderr == ""
    assert len(proc.stdout.splitlines()) == 3


@needs_txt
def test_cli_quiet_silences_summary_and_warnings(tmp_path: Path) -> None:
    path = tmp_path / "urls.txt"
    path.write_text("https://example.com/a\nnot a url\n", encoding="utf-8")
    args = [CLI, str(path), "-f", "txt", "-t", "jsonl", "-v"]
    loud = subprocess.run(args, capture_output=True, text=True, timeout=60)
    quiet = subprocess.run([*args, "--quiet"], capture_output=True, text=True, timeout=60)
    assert loud.returncode == quiet.returncode == 0
    assert "warning" in loud.stderr and "1 warning" in loud.stderr
    assert quiet.stderr == ""
    assert quiet.stdout == loud.stdout


@needs_txt
def test_cli_progress_display_appears_only_on_a_terminal(url_list: Path, tmp_path: Path) -> None:
    # stdout is the converted output; the display goes to stderr, and only on a terminal.
    out_file = tmp_path / "out.jsonl"
    code = (
        "import subprocess, sys; "
        f"sys.exit(subprocess.call([{CLI!r}, {str(url_list)!r}, '-f', 'txt', "
        f"'-o', {str(out_file)!r}, '-v']))"
    )
    out, rc = run_in_pty(code)
    assert rc == 0
    assert b"URLs read" in out  # the display was drawn (its last state is drawn on stop)
    assert b"200 entries in, 200 out" in out  # then the summary line
    assert len(out_file.read_text().splitlines()) == 200
    # Output on the same terminal (stdout): no display in the middle of it.
    code = code.replace(f"'-o', {str(out_file)!r}, ", "'-t', 'jsonl', ")
    out, rc = run_in_pty(code)
    assert rc == 0
    assert b"URLs read" not in out
    assert out.count(b'{"loc":') == 200
