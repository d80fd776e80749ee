"""The JSON Feed pass (``_checks/jsonfeed``): version 1.1's required members, item by item."""

from __future__ import annotations

import json

from .conftest import Check

VERSION = "https://jsonfeed.org/version/1.1"


def feed(**members: object) -> str:
    return json.dumps({"version": VERSION, "title": "T", **members})


def test_a_good_feed_finds_nothing(check: Check) -> None:
    item = {"id": "1", "url": "https://example.com/a", "content_text": "x"}
    items = [{**item, "date_published": "2024-01-01T10:00:00Z"}]
    assert check("f.json", feed(items=items)) == []


def test_a_feed_without_items(check: Check) -> None:
    assert check("f.json", json.dumps({"version": VERSION, "title": "T"})) == [
        ("jsonfeed", "error", 1, None)
    ]


def test_broken_json_is_a_syntax_error(check: Check) -> None:
    text = '{"version": "' + VERSION + '", "items": ['
    assert check("f.json", text) == [("syntax", "error", 1, None)]


def test_an_item_without_an_id(check: Check) -> None:
    found = check("f.json", feed(items=[{"url": "https://example.com/b", "content_text": "x"}]))
    assert found == [("jsonfeed", "error", None, "https://example.com/b")]


def test_an_item_without_content(check: Check) -> None:
    found = check("f.json", feed(items=[{"id": "1", "url": "https://example.com/b"}]))
    assert found == [("jsonfeed", "error", None, "https://example.com/b")]


def test_a_date_that_is_not_rfc3339(check: Check) -> None:
    items = [{"id": "1", "url": "https://example.com/a", "date_published": "yesterday"}]
    found = check("f.json", feed(items=items))
    assert ("feed-date", "error", None, "https://example.com/a") in found


def test_a_relative_item_url_gets_the_url_rule(check: Check) -> None:
    found = check("f.json", feed(items=[{"id": "1", "url": "/relative"}]))
    assert ("url-relative", "error", None, "/relative") in found
