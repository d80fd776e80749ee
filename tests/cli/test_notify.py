"""The notify options of the ``sitemapconv`` console script, run in a subprocess."""

from __future__ import annotations

import json
import os
import resource
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from pytest_httpserver import HTTPServer

SCRIPT = str(Path(sys.executable).with_name("sitemapconv"))
KEY = "a1b2c3d4e5f6-0789"
URL = "https://example.com/sitemap.xml"
ROBOTS = b"User-agent: *\r\nDisallow: /private/\r\n# keep me \xff\r\nAllow: /"


def _has_txt_reader() -> bool:
    try:
        from sitemapconv._registry import get_reader

        get_reader("txt")
    except ImportError:
        return False
    return True


needs_txt_reader = pytest.mark.skipif(
    not _has_txt_reader(), reason="the txt reader is not in this branch yet"
)


def run(*args: str, **kwargs: object) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    return subprocess.run(  # type: ignore[call-overload, no-any-return]
        [SCRIPT, *args], capture_output=True, text=True, timeout=60, env=env, **kwargs
    )


# --- robots.txt ----------------------------------------------------------------------------


def test_robots_line() -> None:
    done = run("--robots-line", URL)
    assert (done.returncode, done.stdout, done.stderr) == (0, f"Sitemap: {URL}\n", "")


def test_robots_line_with_a_bad_url_is_a_usage_error() -> None:
    done = run("--robots-line", "/sitemap.xml")
    assert done.returncode == 2
    assert "absolute http(s) URL" in done.stderr
    assert done.stdout == ""


def test_update_robots_keeps_the_rest_byte_for_byte(tmp_path: Path) -> None:
    robots = tmp_path / "robots.txt"
    robots.write_bytes(ROBOTS)
    done = run("--update-robots", str(robots), "--sitemap-url", URL)
    assert done.returncode == 0, done.stderr
    assert "added" in done.stdout
    assert robots.read_bytes() == ROBOTS + f"\r\nSitemap: {URL}".encode()
    again = run("--update-robots", str(robots), "--sitemap-url", URL)
    assert again.returncode == 0
    assert "unchanged" in again.stdout
    assert robots.read_bytes() == ROBOTS + f"\r\nSitemap: {URL}".encode()


def test_update_robots_takes_the_url_from_robots_line(tmp_path: Path) -> None:
    robots = tmp_path / "robots.txt"
    robots.write_bytes(b"User-agent: *\n")
    done = run("--update-robots", str(robots), "--robots-line", URL)
    assert done.returncode == 0, done.stderr
    assert robots.read_bytes() == f"User-agent: *\nSitemap: {URL}\n".encode()


def test_update_robots_dry_run(tmp_path: Path) -> None:
    robots = tmp_path / "robots.txt"
    robots.write_bytes(ROBOTS)
    done = run("--update-robots", str(robots), "--sitemap-url", URL, "--dry-run")
    assert done.returncode == 0, done.stderr
    assert "would be added" in done.stdout
    assert robots.read_bytes() == ROBOTS


def test_update_robots_needs_a_sitemap_url(tmp_path: Path) -> None:
    robots = tmp_path / "robots.txt"
    robots.write_bytes(ROBOTS)
    done = run("--update-robots", str(robots))
    assert done.returncode == 2
    assert "--sitemap-url" in done.stderr
    assert robots.read_bytes() == ROBOTS


def test_update_robots_missing_file(tmp_path: Path) -> None:
    robots = tmp_path / "robots.txt"
    done = run("--update-robots", str(robots), "--sitemap-url", URL)
    assert done.returncode == 1
    assert done.stderr.startswith("sitemapconv: error: ") and "no such file" in done.stderr
    assert "Traceback" not in done.stderr
    assert not robots.exists()


def _limit_file_size() -> None:
    # A real write error for root too: files may not grow past 1 KiB, and the kernel answers
    # EFBIG instead of killing the process once SIGXFSZ is ignored.
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (1024, 1024))


def test_a_failed_write_leaves_the_file_untouched(tmp_path: Path) -> None:
    robots = tmp_path / "robots.txt"
    original = ROBOTS + b"\r\n" + b"Disallow: /a-long-rule/\r\n" * 200
    robots.write_bytes(original)
    done = run("--update-robots", str(robots), "--sitemap-url", URL, preexec_fn=_limit_file_size)
    assert done.returncode == 1
    assert "cannot write" in done.stderr and str(robots) in done.stderr
    assert robots.read_bytes() == original
    assert [p.name for p in tmp_path.iterdir()] == ["robots.txt"]  # temp file removed


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only directories")
def test_a_read_only_directory_leaves_the_file_untouched(tmp_path: Path) -> None:
    robots = tmp_path / "robots.txt"
    robots.write_bytes(ROBOTS)
    tmp_path.chmod(0o555)
    try:
        done = run("--update-robots", str(robots), "--sitemap-url", URL)
        assert done.returncode == 1
        assert "cannot write" in done.stderr
        assert robots.read_bytes() == ROBOTS
    finally:
        tmp_path.chmod(0o755)


# --- IndexNow ------------------------------------------------------------------------------


def _urls(tmp_path: Path, urls: list[str]) -> str:
    path = tmp_path / "urls.txt"
    path.write_text("".join(u + "\n" for u in urls), encoding="utf-8")
    return str(path)


@needs_txt_reader
def test_indexnow_submits_the_input(httpserver: HTTPServer, tmp_path: Path) -> None:
    httpserver.expect_request("/indexnow", method="POST").respond_with_data("", status=200)
    urls = ["https://a.example/1", "https://b.example/2", "https://a.example/3"]
    done = run(
        _urls(tmp_path, urls),
        "--indexnow",
        KEY,
        "--indexnow-endpoint",
        httpserver.url_for("/indexnow"),
        "--key-location",
        "https://a.example/key.txt",
    )
    assert done.returncode == 0, done.stderr
    assert [json.loads(r.get_data()) for r, _ in httpserver.log] == [
        {
            "host": "a.example",
            "key": KEY,
            "keyLocation": "https://a.example/key.txt",
            "urlList": [urls[0], urls[2]],
        },
        {
            "host": "b.example",
            "key": KEY,
            "keyLocation": "https://a.example/key.txt",
            "urlList": [urls[1]],
        },
    ]
    assert done.stdout.count("HTTP 200 OK: URLs submitted") == 2
    assert "key location https://a.example/key.txt is on another host" in done.stderr


@needs_txt_reader
def test_indexnow_refusal_exits_1(httpserver: HTTPServer, tmp_path: Path) -> None:
    httpserver.expect_request("/indexnow", method="POST").respond_with_data("", status=403)
    done = run(
        _urls(tmp_path, ["https://a.example/1"]),
        "--indexnow",
        KEY,
        "--indexnow-endpoint",
        httpserver.url_for("/indexnow"),
    )
    assert done.returncode == 1
    assert "HTTP 403 key not valid (key file not found or key does not match)" in done.stdout


@needs_txt_reader
def test_indexnow_retries_429(httpserver: HTTPServer, tmp_path: Path) -> None:
    httpserver.expect_oneshot_request("/indexnow").respond_with_data(
        "", status=429, headers={"Retry-After": "0"}
    )
    httpserver.expect_request("/indexnow").respond_with_data("", status=202)
    done = run(
        _urls(tmp_path, ["https://a.example/1"]),
        "--indexnow",
        KEY,
        "--indexnow-endpoint",
        httpserver.url_for("/indexnow"),
    )
    assert done.returncode == 0, done.stderr
    assert "HTTP 202" in done.stdout and "after 2 attempts" in done.stdout
    assert len(httpserver.log) == 2


@needs_txt_reader
def test_indexnow_dry_run_sends_nothing(httpserver: HTTPServer, tmp_path: Path) -> None:
    httpserver.expect_request("/indexnow").respond_with_data("", status=200)
    urls = [f"https://a.example/{n}" for n in range(12_345)]
    done = run(
        _urls(tmp_path, urls),
        "--indexnow",
        KEY,
        "--indexnow-endpoint",
        httpserver.url_for("/indexnow"),
        "--dry-run",
    )
    assert done.returncode == 0, done.stderr
    assert httpserver.log == []
    lines = done.stdout.splitlines()
    assert lines[0].startswith("dry run: would POST 10000 URLs for host a.example to http://")
    assert "JSON body" in lines[0]
    assert lines[1:5] == [
        "  https://a.example/0",
        "  https://a.example/1",
        "  https://a.example/2",
        "  ... and 9,997 more",
    ]
    assert "would POST 2345 URLs for host a.example" in lines[5]


def test_bad_key_is_a_usage_error(httpserver: HTTPServer, tmp_path: Path) -> None:
    done = run(
        _urls(tmp_path, ["https://a.example/1"]),
        "--indexnow",
        "bad key!",
        "--indexnow-endpoint",
        httpserver.url_for("/indexnow"),
    )
    assert done.returncode == 2
    assert "invalid IndexNow key" in done.stderr and "8 to 128" in done.stderr
    assert httpserver.log == []


def test_indexnow_needs_an_input() -> None:
    done = run("--indexnow", KEY)
    assert done.returncode == 2
    assert "INPUT" in done.stderr


def test_unreadable_input_exits_1(tmp_path: Path) -> None:
    done = run(str(tmp_path / "missing.txt"), "--indexnow", KEY)
    assert done.returncode == 1
    assert "missing.txt: no such file" in done.stderr


def test_notify_does_not_mix_with_conversion(tmp_path: Path) -> None:
    done = run("--robots-line", URL, "-o", str(tmp_path / "out.xml"))
    assert done.returncode == 2
    assert not (tmp_path / "out.xml").exists()


# --- ping ----------------------------------------------------------------------------------


def test_ping(httpserver: HTTPServer) -> None:
    httpserver.expect_request("/ping", method="GET").respond_with_data("ok")
    template = httpserver.url_for("/ping") + "?sitemap={}"
    done = run("--ping", template, "--sitemap-url", "https://example.com/s.xml?a=1&b=2")
    assert done.returncode == 0, done.stderr
    [(request, _)] = httpserver.log
    assert request.query_string == b"sitemap=https%3A%2F%2Fexample.com%2Fs.xml%3Fa%3D1%26b%3D2"


def test_ping_uses_a_url_input_as_the_sitemap_url(httpserver: HTTPServer) -> None:
    httpserver.expect_request("/ping").respond_with_data(
        "", status=500, headers={"Retry-After": "0"}
    )
    template = httpserver.url_for("/ping") + "?sitemap={}"
    done = run("https://example.com/sitemap.xml", "--ping", template)
    assert done.returncode == 1
    assert request_args(httpserver) == ["https://example.com/sitemap.xml"] * 4  # 1 + 3 retries
    assert "HTTP 500" in done.stdout


def request_args(httpserver: HTTPServer) -> list[str]:
    return [request.args["sitemap"] for request, _ in httpserver.log]


def test_ping_template_without_placeholder_is_a_usage_error() -> None:
    done = run("--ping", "https://engine.example/ping", "--sitemap-url", URL)
    assert done.returncode == 2
    assert "{}" in done.stderr


def test_help_shows_the_options() -> None:
    done = run("--help")
    for option in ("--robots-line", "--update-robots", "--indexnow", "--ping", "--dry-run"):
        assert option in done.stdout
