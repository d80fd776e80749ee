"""``validate`` (with and without ``follow``) goes through the same door as ``read``."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from pytest_httpserver import HTTPServer

import sitemapconv
from sitemapconv._validate import validate

from ..remote.bodies import index, urlset


def _secret_file(tmp_path: Path) -> Path:
    secret = tmp_path / "passwd.xml"
    secret.write_bytes(urlset(["https://secret.example/root-password"]))
    return secret


def test_a_fetched_index_cannot_open_local_files(server: HTTPServer, tmp_path: Path) -> None:
    secret = _secret_file(tmp_path)
    server.expect_request("/index.xml").respond_with_data(
        index([secret.as_uri(), "file:///etc/passwd"])
    )
    report = validate(server.url_for("/index.xml"), follow=True)
    text = report.to_json()
    assert "root-password" not in text
    assert "root:" not in text
    refused = [p for p in report.problems if p.rule == "child-fetch"]
    assert len(refused) == 2
    assert all("only http(s)" in p.message for p in refused)
    assert str(secret) not in report.sources


def test_validate_cli_does_not_print_local_files(
    server: HTTPServer, tmp_path: Path, public_cli: Callable[..., Any]
) -> None:
    secret = _secret_file(tmp_path)
    server.expect_request("/index.xml").respond_with_data(index([secret.as_uri()]))
    done = public_cli("--validate", server.url_for("/index.xml"), "--follow")
    assert "root-password" not in done.stdout + done.stderr
    assert "only http(s)" in done.stdout
    assert done.returncode == 1


def test_validate_children_and_hops_are_address_checked(
    server: HTTPServer, internal: HTTPServer
) -> None:
    internal.expect_request("/child.xml").respond_with_data(urlset(["https://intranet/x"]))
    server.expect_request("/index.xml").respond_with_data(
        index([internal.url_for("/child.xml"), "/hop.xml"])
    )
    server.expect_request("/hop.xml").respond_with_data(
        "", status=302, headers={"Location": internal.url_for("/child.xml")}
    )
    report = validate(
        server.url_for("/index.xml"), follow=True, options=sitemapconv.ReadOptions(retries=0)
    )
    fetch = [p for p in report.problems if p.rule == "child-fetch"]
    assert len(fetch) == 2 and all("refused" in p.message for p in fetch)
    assert internal.log == []


def test_validate_start_redirect_inward_is_refused(
    server: HTTPServer, internal: HTTPServer
) -> None:
    internal.expect_request("/child.xml").respond_with_data(urlset(["https://intranet/x"]))
    server.expect_request("/sitemap.xml").respond_with_data(
        "", status=302, headers={"Location": internal.url_for("/child.xml")}
    )
    report = validate(server.url_for("/sitemap.xml"))
    assert [p.rule for p in report.problems] == ["open"]
    assert "refused" in report.problems[0].message
    assert internal.log == []
