"""JSON Feed on the command line (the library side is tests/formats/test_jsonfeed.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import SAMPLES, Run
from tests.formats.test_jsonfeed import check_spec, read


def test_cli_round_trip_sitemap_to_jsonfeed_and_back(cli: Run, tmp_path: Path) -> None:
    sample = SAMPLES / "sitemap.xml"
    as_json = tmp_path / "out.json"
    done = cli(str(sample), "-o", str(as_json), "-q")  # .json means jsonfeed
    assert done.returncode == 0, done.stderr
    check_spec(json.loads(as_json.read_bytes()))
    back = cli(str(as_json), "-t", "xml", "-q")
    assert back.returncode == 0, back.stderr
    original, _ = read(sample)
    again, _ = read(back.stdout)
    assert [(e.loc, e.lastmod, e.changefreq, e.priority) for e in again] == [
        (e.loc, e.lastmod, e.changefreq, e.priority) for e in original
    ]
    stdout = cli(str(sample), "-t", "jsonfeed", "-q")
    assert stdout.returncode == 0 and json.loads(stdout.stdout)["items"]


def test_cli_feed_json_to_xml(cli: Run) -> None:
    done = cli(str(SAMPLES / "feed.json"), "-t", "xml")
    assert done.returncode == 0, done.stderr
    assert b"<loc>https://blog.example.org/posts/streaming-xml</loc>" in done.stdout


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b'{"version": "https://jsonfeed.org/version/1.1", "items": [', "not valid JSON"),
        (b'{"version": "https://jsonfeed.org/version/1.1", "items": 3}', "'items' is not a list"),
    ],
)
def test_cli_bad_json_is_one_line(cli: Run, tmp_path: Path, content: bytes, message: str) -> None:
    path = tmp_path / "feed.json"
    path.write_bytes(content)
    done = cli(str(path), "-t", "xml")
    assert done.returncode == 1
    err = done.stderr.decode().strip()
    assert len(err.splitlines()) == 1, err
    assert str(path) in err and message in err and "Traceback" not in err
