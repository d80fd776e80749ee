"""The URL-list pass (``_checks/text``): one URL per line, UTF-8, each URL checked."""

from __future__ import annotations

from .conftest import Check


def test_a_line_that_is_not_a_url(check: Check) -> None:
    found = check("urls.txt", "https://example.com/a\nnot a url\nhttps://example.com/b\n")
    assert found == [("text-line", "error", 2, "not a url")]


def test_bytes_that_are_not_utf8_name_their_line(check: Check) -> None:
    found = check("urls.txt", b"https://example.com/a\nhttps://example.com/\xff\n")
    rule, severity, line, _url = found[0]
    assert (rule, severity, line) == ("encoding", "error", 2)


def test_the_url_rules_apply_to_each_line(check: Check) -> None:
    found = check(
        "urls.txt",
        "https://example.com/a\nhttps://example.com/a#x\nhttps://example.com/a\n",
    )
    assert sorted(found) == [
        ("duplicate", "warning", 1, "https://example.com/a"),
        ("url-fragment", "warning", 2, "https://example.com/a#x"),
    ]


def test_a_clean_list_finds_nothing(check: Check) -> None:
    assert check("urls.txt", "https://example.com/a\nhttps://example.com/b\n") == []
