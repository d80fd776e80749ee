"""``sitemapconv --validate`` through the installed console script, in a subprocess."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

from pytest_httpserver import HTTPServer

from tests.conftest import DATA

VALIDATE = DATA / "validate"
SCRIPT = shutil.which("sitemapconv", path=str(Path(sys.executable).parent)) or "sitemapconv"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([SCRIPT, *args], capture_output=True, text=True, timeout=120, check=False)


def test_errors_give_exit_1_and_a_located_text_report() -> None:
    result = run("--validate", str(VALIDATE / "values-bad.xml"))
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    assert any(
        line.startswith(f"{VALIDATE / 'values-bad.xml'}:7: error: <priority> must be a decimal")
        and line.endswith("[priority]")
        for line in lines
    )
    assert "    https://example.com/5" in lines
    assert lines[-1].startswith("INVALID: 10 errors, 2 warnings in 1 file")
    assert "\x1b[" not in result.stdout  # no colour when not on a terminal


def test_warnings_only_exit_0() -> None:
    result = run("--validate", str(VALIDATE / "syntax-bom.xml"))
    assert result.returncode == 0
    assert result.stdout.splitlines()[-1] == (
        "valid: 0 errors, 1 warning in 1 file (1 URL checked)"
    )


def test_no_conversion_happens(tmp_path: Path) -> None:
    out = tmp_path / "out.txt"
    result = run("--validate", str(VALIDATE / "syntax-bom.xml"), "-o", str(out))
    assert result.returncode == 0 and not out.exists()


def test_json_report_and_several_inputs() -> None:
    result = run(
        "--validate",
        "--report",
        "json",
        str(VALIDATE / "rss-missing.xml"),
        str(VALIDATE / "syntax-bom.xml"),
    )
    assert result.returncode == 1
    data = json.loads(result.stdout)
    assert data["errors"] == 3 and data["warnings"] == 1 and data["ok"] is False
    assert [Path(s).name for s in data["sources"]] == ["rss-missing.xml", "syntax-bom.xml"]
    rules = {(Path(p["source"]).name, p["rule"], p["line"]) for p in data["problems"]}
    assert ("rss-missing.xml", "rss-item-link", 8) in rules
    assert ("syntax-bom.xml", "bom", 1) in rules


def test_base_url_enables_scope_checks() -> None:
    plain = run("--validate", "--report", "json", str(VALIDATE / "urls-bad.xml"))
    scoped = run(
        "--validate",
        "--report",
        "json",
        "--base-url",
        "https://example.com/catalog/sitemap.xml",
        str(VALIDATE / "urls-bad.xml"),
    )
    rules = [p["rule"] for p in json.loads(scoped.stdout)["problems"]]
    assert "scope-site" in rules and "scope-path" in rules
    assert "scope-site" not in [p["rule"] for p in json.loads(plain.stdout)["problems"]]


def test_follow_flag() -> None:
    result = run("--validate", "--follow", str(VALIDATE / "index-follow.xml"))
    assert result.returncode == 1
    assert "[nested-index]" in result.stdout and "[child-fetch]" in result.stdout
    assert "in 3 files" in result.stdout.splitlines()[-1]


def test_url_input(httpserver: HTTPServer) -> None:
    httpserver.expect_request("/sitemap.xml").respond_with_data(
        (VALIDATE / "schema-structure.xml").read_bytes()
    )
    result = run("--validate", httpserver.url_for("/sitemap.xml"))
    assert result.returncode == 1
    assert f"{httpserver.url_for('/sitemap.xml')}:9: error: <expires>" in result.stdout


def test_bad_report_format_is_a_usage_error() -> None:
    result = run("--validate", "--report", "xml", str(VALIDATE / "syntax-bom.xml"))
    assert result.returncode == 2
    assert "--report" in result.stderr
