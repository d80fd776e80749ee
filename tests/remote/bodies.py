"""Sample bodies for the remote-sitemap tests, built in code so each test shows its input."""

from __future__ import annotations

import gzip
import subprocess
from collections.abc import Callable, Sequence

from pytest_httpserver import HTTPServer

NS = "http://www.sitemaps.org/schemas/sitemap/0.9"


def urlset(locs: Sequence[str]) -> bytes:
    """A small XML sitemap listing ``locs``."""
    urls = "".join(f"<url><loc>{loc}</loc></url>" for loc in locs)
    return (
        f'<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="{NS}">{urls}</urlset>\n'.encode()
    )


def index(locs: Sequence[str]) -> bytes:
    """A sitemap index listing ``locs``."""
    items = "".join(f"<sitemap><loc>{loc}</loc></sitemap>" for loc in locs)
    return (
        f'<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="{NS}">{items}'
        "</sitemapindex>\n"
    ).encode()


def gz(data: bytes) -> bytes:
    return gzip.compress(data, mtime=0)


HTML = b"<!DOCTYPE html>\n<html><head><title>Not found</title></head><body>Oops</body></html>\n"


def paths_requested(server: HTTPServer) -> list[str]:
    return [request.path for request, _ in server.log]


#: The ``run_cli`` fixture: runs the console script with these arguments.
Run = Callable[..., "subprocess.CompletedProcess[str]"]
