"""Every remote option reaches the server, in every CLI mode that fetches.

A loopback server records the requests. For each mode one request is the *probe* (the
start document, a followed child, the IndexNow endpoint, the ping URL...); each option is
checked where it is observable on that probe:

* ``--user-agent`` and ``-H``: the probe request carries them;
* ``--retries 1``: a 503 probe is asked exactly twice (the default, 3, would make it 4;
  discovery caps its probes' retries at 1, so there ``--retries 0``: asked once, not twice);
* ``--timeout``: a probe that answers after 1.5 s fails (the default, 30 s, would wait);
* ``--max-bytes``: a 30 kB probe body is refused (the default is 100 MB);
* ``--allow-private``: a local index lists a loopback child. A local start has no address
  class of its own, so the door refuses the loopback child unless ``--allow-private``
  (a loopback *start* URL always admits loopback addresses: the "private start" rule).

Each case would fail if the option were dropped on its way to the library. The cases that
cannot be observed are listed in ``NOT_OBSERVABLE`` with the reason.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from pytest_httpserver import HTTPServer
from typer.testing import CliRunner
from werkzeug import Request, Response

from sitemapconv._cli.main import app

XML = "application/xml"
URLSET = (
    '<?xml version="1.0" encoding="UTF-8"?>\n'
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
    "<url><loc>http://127.0.0.1/{name}</loc></url>{padding}</urlset>\n"
)
KEY = "0123abcd4567ef89"


def urlset(name: str, padding: int = 0) -> str:
    return URLSET.format(name=name, padding=f"<!-- {'x' * padding} -->" if padding else "")


def index(*children: str) -> str:
    items = "".join(f"<sitemap><loc>{c}</loc></sitemap>" for c in children)
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">{items}'
        "</sitemapindex>\n"
    )


@dataclass
class Scenario:
    """One mode: its command line, the path of its probe request, what the probe serves."""

    args: list[str]
    probe: str
    body: str
    content_type: str = XML
    status: int = 200


def _scenario(mode: str, server: HTTPServer, tmp: Path, option: str) -> Scenario:
    # Paths are unique per test: a slow answer of an earlier test reaches the server's log
    # only when it is sent, possibly during this test.
    top = f"/{tmp.name}"
    base = f"http://127.0.0.1:{server.port}{top}"
    out = str(tmp / "out.txt")

    def serve(path: str, body: str, content_type: str = XML) -> None:
        server.expect_request(top + path).respond_with_data(body, content_type=content_type)

    if mode == "convert":
        return Scenario(
            [f"{base}/start.xml", "-t", "txt", "-o", out], f"{top}/start.xml", urlset("a")
        )
    if mode in ("follow", "validate-follow", "dask", "diff", "indexnow-follow"):
        # The index is local when --allow-private is checked: see the module docstring.
        if option == "allow_private":
            local = tmp / "index.xml"
            local.write_text(index(f"{base}/child.xml"), encoding="utf-8")
            start = str(local)
        else:
            serve("/index.xml", index(f"{base}/child.xml"))
            start = f"{base}/index.xml"
        args = {
            "follow": [start, "--follow", "-t", "txt", "-o", out],
            "validate-follow": ["--validate", start, "--follow"],
            "dask": [start, "--follow", "--dask", "--scheduler", "sync", "-t", "jsonl",
                     "-o", out],
            "diff": [start, "--follow", "--diff", str(_old(tmp)), "-t", "txt", "-o", out],
            "indexnow-follow": [start, "--follow", "--indexnow", KEY,
                                "--indexnow-endpoint", f"{base}/indexnow"],
        }[mode]  # fmt: skip
        if mode == "indexnow-follow":
            serve("/indexnow", "", "text/plain")
        return Scenario(args, f"{top}/child.xml", urlset("child"))
    if mode == "discover":
        server.expect_request("/robots.txt").respond_with_data(  # robots.txt is at the root
            f"Sitemap: {base}/found.xml\n", content_type="text/plain"
        )
        return Scenario(
            ["--discover", f"{base}/", "-t", "txt", "-o", out], f"{top}/found.xml", urlset("found")
        )
    if mode == "validate":
        return Scenario(["--validate", f"{base}/start.xml"], f"{top}/start.xml", urlset("a"))
    if mode == "indexnow":
        args = [f"{base}/start.xml", "--indexnow", KEY, "--indexnow-endpoint", f"{base}/indexnow"]
        if option == "max_bytes":  # the endpoint's answer is not a document: cap the INPUT
            serve("/indexnow", "", "text/plain")
            return Scenario(args, f"{top}/start.xml", urlset("a"))
        serve("/start.xml", urlset("a"))
        return Scenario(args, f"{top}/indexnow", "", "text/plain")
    if mode == "ping":
        ping = f"{base}/ping?u={{}}"
        return Scenario(
            ["--ping", ping, "--sitemap-url", "https://example.com/sitemap.xml"],
            f"{top}/ping",
            "ok",
            "text/plain",
        )
    raise AssertionError(mode)


def _old(tmp: Path) -> Path:
    old = tmp / "old.xml"
    old.write_text(urlset("old"), encoding="utf-8")
    return old


MODES = [
    "convert", "follow", "discover", "validate", "validate-follow",
    "indexnow", "indexnow-follow", "ping", "dask", "diff",
]  # fmt: skip

#: (mode, option): why the option has no effect that a loopback test can see there.
NOT_OBSERVABLE = {
    ("convert", "allow_private"): "only the start URL is fetched, and its own class is allowed",
    ("validate", "allow_private"): "only the start URL is fetched, and its own class is allowed",
    ("discover", "allow_private"): "INPUTs are sites (URLs): every loopback URL it reaches is "
    "of the start's own class, which the door always allows",
    ("indexnow", "allow_private"): "the endpoint and the INPUT are starts of their own",
    ("ping", "allow_private"): "the ping URL is the start of its own request",
    ("ping", "max_bytes"): "a ping reads no document: its answer is judged by the status, and "
    "its body is cut at --max-bytes without an error (tests/test_notify.py checks the cut)",
}


def _run(args: list[str]) -> tuple[int, str]:
    result = CliRunner().invoke(app, args)
    return result.exit_code, result.output


def _requests(server: HTTPServer, path: str) -> list[Request]:
    return [request for request, _ in server.log if request.path == path]


def _responder(
    scn: Scenario, *, delay: float = 0, status: int | None = None
) -> Callable[[Request], Response]:
    def respond(_: Request) -> Response:
        if delay:
            time.sleep(delay)
        # Retry-After: 0 spares the tests the back-off; the number of attempts is unchanged.
        headers = {"Retry-After": "0"} if status == 503 else {}
        return Response(
            scn.body, status=status or scn.status, content_type=scn.content_type, headers=headers
        )

    return respond


OPTIONS = ["user_agent", "header", "retries", "timeout", "max_bytes", "allow_private"]


@pytest.mark.parametrize("option", OPTIONS)
@pytest.mark.parametrize("mode", MODES)
def test_remote_option_reaches_the_server(
    mode: str, option: str, loopback: HTTPServer, tmp_path: Path
) -> None:
    if (mode, option) in NOT_OBSERVABLE:
        pytest.skip(NOT_OBSERVABLE[mode, option])
    if mode == "dask":
        pytest.importorskip("dask")
    scn = _scenario(mode, loopback, tmp_path, option)
    extra: list[str]
    if option == "user_agent":
        extra = ["--user-agent", "probe-agent/1.0"]
        loopback.expect_request(scn.probe).respond_with_handler(_responder(scn))
    elif option == "header":
        extra = ["-H", "X-Probe: yes"]
        loopback.expect_request(scn.probe).respond_with_handler(_responder(scn))
    elif option == "retries":
        # Discovery's probes cap retries at 1 (most well-known paths do not exist): there
        # --retries 0 is the value that differs from what the default gives.
        retries = 0 if mode == "discover" else 1
        extra = ["--retries", str(retries)]
        loopback.expect_request(scn.probe).respond_with_handler(_responder(scn, status=503))
    elif option == "timeout":
        extra = ["--timeout", "0.3", "--retries", "0"]
        loopback.expect_request(scn.probe).respond_with_handler(_responder(scn, delay=1.5))
    elif option == "max_bytes":
        extra = ["--max-bytes", "4000"]
        scn.body = urlset("big", padding=30_000)
        loopback.expect_request(scn.probe).respond_with_handler(_responder(scn))
    else:
        extra = ["--allow-private"]
        loopback.expect_request(scn.probe).respond_with_handler(_responder(scn))
    code, output = _run([*scn.args, *extra])
    probes = _requests(loopback, scn.probe)
    if option == "user_agent":
        assert probes, output
        assert all(r.headers.get("User-Agent") == "probe-agent/1.0" for r in probes), output
    elif option == "header":
        assert probes, output
        assert all(r.headers.get("X-Probe") == "yes" for r in probes), output
    elif option == "retries":
        assert len(probes) == retries + 1, output
    elif option == "timeout":
        # The server logs a request only once it has answered: the message says it all.
        assert code != 0, output
        # discover only says that the sitemap robots.txt lists was not readable
        assert ("not readable" if mode == "discover" else "timed out") in output, output
    elif option == "max_bytes":
        assert code != 0, output
        limit = "not readable" if mode == "discover" else "4,000"
        assert limit in output, output
    else:
        assert code == 0, output
        assert len(probes) == 1, output


@pytest.mark.parametrize("mode", ["follow", "validate-follow", "dask", "diff", "indexnow-follow"])
def test_without_allow_private_the_loopback_child_is_refused(
    mode: str, loopback: HTTPServer, tmp_path: Path
) -> None:
    """The control of the allow_private cases: the same run without the flag never asks."""
    if mode == "dask":
        pytest.importorskip("dask")
    scn = _scenario(mode, loopback, tmp_path, "allow_private")
    loopback.expect_request(scn.probe).respond_with_handler(_responder(scn))
    _, output = _run(scn.args)
    assert _requests(loopback, scn.probe) == []
    assert "allow-private" in output
