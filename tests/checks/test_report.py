"""sitemapconv._report: the text rendering, with and without colour."""

from __future__ import annotations

import io

from sitemapconv._problems import Collector, Report
from sitemapconv._report import render_text, summary


def sample() -> Report:
    report = Report(sources=["a.xml"], urls=3)
    out = Collector(report, "a.xml", max_per_rule=1)
    out.error("priority", "<priority> must be a decimal", line=7, url="https://e.com/x")
    out.error("priority", "<priority> must be a decimal", line=8, url="https://e.com/y")
    out.warning("bom", "the file starts with a BOM", line=1)
    out.error("syntax", "not well-formed", line=9, column=4)
    return report


def test_plain_text() -> None:
    buf = io.StringIO()
    render_text(sample(), buf)
    assert buf.getvalue().splitlines() == [
        "a.xml:7: error: <priority> must be a decimal [priority]",
        "    https://e.com/x",
        "a.xml:1: warning: the file starts with a BOM [bom]",
        "a.xml:9:4: error: not well-formed [syntax]",
        "INVALID: 3 errors, 1 warning in 1 file (3 URLs checked); "
        "1 more of the same kinds not shown",
    ]


def test_colour_only_when_asked_or_on_a_terminal() -> None:
    buf = io.StringIO()
    render_text(sample(), buf, color=True)
    text = buf.getvalue()
    assert "\x1b[" in text and "a.xml" in text and "[priority]" in text


def test_summary_counts() -> None:
    assert summary(Report(sources=["x", "x"], urls=1)) == (
        "0 errors, 0 warnings in 1 file (1 URL checked)"
    )
