"""XSD validation in batches (``_checks/schema``): errors point at the real line of the entry."""

from __future__ import annotations

from .conftest import Check, urlset


def good(n: int) -> str:
    return f"<url><loc>https://example.com/{n}</loc></url>"


def test_an_error_past_the_first_batch_points_at_its_own_line(check: Check) -> None:
    # 1,000 entries are validated per batch; entry 1,502 is in the second one.
    lines = [good(n) for n in range(1, 1502)]
    bad = "<url><loc>https://example.com/bad</loc><colour>red</colour></url>"
    found = check("s.xml", urlset(*lines, bad, good(1503)))
    assert found == [("schema", "error", 3 + 1501, "https://example.com/bad")]


def test_two_errors_in_one_batch_keep_their_entries_apart(check: Check) -> None:
    found = check(
        "s.xml",
        urlset(
            good(1),
            "<url><lastmod>2024-01-01</lastmod><loc>https://example.com/x</loc></url>",
            good(2),
            "<url><loc>https://example.com/y</loc><size>3</size></url>",
        ),
    )
    assert found == [
        ("schema", "error", 4, "https://example.com/x"),
        ("schema", "error", 6, "https://example.com/y"),
    ]


def test_a_value_rule_reported_in_code_is_not_repeated_by_the_xsd(check: Check) -> None:
    found = check(
        "s.xml", urlset("<url><loc>https://example.com/a</loc><priority>2</priority></url>")
    )
    assert found == [("priority", "error", 3, "https://example.com/a")]
