"""The feed pass (``_checks/feeds``): RSS 2.0 channels and items, Atom 1.0 entries."""

from __future__ import annotations

from .conftest import Check

URL = "https://example.com/a"


def rss(*lines: str, channel: str = "<title>T</title><link>https://example.com/</link>") -> str:
    """An RSS 2.0 document whose item lines start at line 5."""
    head = [
        '<?xml version="1.0"?>',
        '<rss version="2.0">',
        "<channel>",
        channel + "<description>d</description>",
    ]
    return "\n".join([*head, *lines, "</channel>", "</rss>", ""])


def atom(*lines: str) -> str:
    """An Atom 1.0 document whose entry lines start at line 4."""
    head = [
        '<?xml version="1.0"?>',
        '<feed xmlns="http://www.w3.org/2005/Atom">',
        "<title>T</title><id>urn:feed</id><updated>2024-01-01T00:00:00Z</updated>",
    ]
    return "\n".join([*head, *lines, "</feed>", ""])


def test_an_rss_item_without_a_link(check: Check) -> None:
    found = check("f.rss", rss("<item><title>t</title><description>d</description></item>"))
    assert found == [("rss-item-link", "error", 5, None)]


def test_an_rss_item_without_a_title_is_a_warning(check: Check) -> None:
    found = check("f.rss", rss(f"<item><link>{URL}</link></item>"))
    assert found == [("rss-item-title", "warning", 5, URL)]


def test_an_rss_date_that_is_not_rfc822(check: Check) -> None:
    found = check(
        "f.rss", rss(f"<item><title>t</title><link>{URL}</link><pubDate>yesterday</pubDate></item>")
    )
    assert found == [("feed-date", "error", 5, URL)]


def test_an_rss_channel_without_its_required_children(check: Check) -> None:
    text = rss(f"<item><title>t</title><link>{URL}</link></item>", channel="")
    assert check("f.rss", text) == [("rss-channel", "error", 3, None)]


def test_a_good_rss_item_finds_nothing(check: Check) -> None:
    date = "<pubDate>Mon, 01 Jan 2024 10:00:00 GMT</pubDate>"
    item = f"<item><title>t</title><link>{URL}</link>{date}</item>"
    assert check("f.rss", rss(item)) == []


def test_an_atom_entry_without_id_title_or_updated(check: Check) -> None:
    found = check("f.atom", atom(f'<entry><link href="{URL}"/></entry>'))
    assert found == [("atom-entry", "error", 4, URL)]


def test_an_atom_entry_without_a_link_is_a_warning(check: Check) -> None:
    entry = "<entry><title>t</title><id>urn:1</id><updated>2024-01-01T00:00:00Z</updated></entry>"
    assert check("f.atom", atom(entry)) == [("atom-entry-link", "warning", 4, None)]


def test_an_atom_date_without_a_time(check: Check) -> None:
    entry = (
        f'<entry><title>t</title><id>urn:1</id><link href="{URL}"/>'
        "<updated>2024-01-01</updated></entry>"
    )
    assert check("f.atom", atom(entry)) == [("feed-date", "error", 4, URL)]
