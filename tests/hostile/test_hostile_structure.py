"""Deep nesting, huge attribute and text values, and a 20 MB line, against every reader.

libxml2 without ``huge_tree`` refuses depth past 256 and single values past 10 MB; in recover
mode that ends parsing, so the readers give the entries completed before the hostile part, with
a warning. Each case must stay within the time and memory bounds.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from .documents import DECLARATION, KINDS, Kind
from .measure import measure
from .payloads import nested

DEPTH = 100_000
BIG = 20 * 1024 * 1024


def inside_item(kind: Kind, slug: str, extra: str) -> str:
    """The item for ``slug`` with ``extra`` placed just before its closing tag."""
    item = kind.entry(slug)
    close = item.rindex("</")
    return item[:close] + extra + item[close:]


@pytest.mark.slow
@pytest.mark.parametrize("where", ["container", "item", "item-start"])
@pytest.mark.parametrize("kind", KINDS, ids=[k.name for k in KINDS])
def test_deep_nesting_inside_a_document(kind: Kind, where: str, tmp_path: Path) -> None:
    deep = nested(DEPTH)
    if where == "container":  # between two items of the urlset, channel or feed
        body = kind.start() + kind.entry("a") + deep + kind.entry("b") + kind.tail
    elif where == "item":  # inside the second item (an <url>, an RSS <item>, an <entry>)
        body = kind.start() + kind.entry("a") + inside_item(kind, "b", deep) + kind.tail
    else:  # inside the first item: nothing before it
        body = kind.start() + inside_item(kind, "a", deep) + kind.entry("b") + kind.tail
    path = tmp_path / "deep.xml"
    path.write_text(DECLARATION + body)
    result = measure(f"nesting {DEPTH:,} deep, {where}, {kind.name}", path)
    result.check_bounds()
    assert result.outcome == "ok", result.message
    assert result.warned("depth") or result.warned("Excessive"), result.warnings
    if where != "item-start":
        assert result.locs[0] == kind.url("a")


@pytest.mark.slow
@pytest.mark.parametrize(
    "format", [None, "xml", "index", "rss", "atom", "atom03", "txt", "feedparser", "jsonfeed"]
)
def test_deep_nesting_as_the_document_root(format: str | None, tmp_path: Path) -> None:
    path = tmp_path / "deep.xml"
    path.write_text(DECLARATION + nested(DEPTH))
    result = measure(f"nesting {DEPTH:,} deep as the root", path, format)
    result.check_bounds()
    assert result.count == 0
    if result.outcome == "error":
        assert result.error_type in ("FormatError", "ParseError"), result.message


@pytest.mark.slow
@pytest.mark.parametrize("kind", KINDS, ids=[k.name for k in KINDS])
def test_huge_attribute_on_an_item(kind: Kind, tmp_path: Path) -> None:
    item = kind.entry("a")
    end = item.index(">")
    hostile = item[:end] + f' junk="{"h" * BIG}"' + item[end:]
    path = tmp_path / "attr.xml"
    path.write_text(DECLARATION + kind.start() + hostile + kind.entry("b") + kind.tail)
    result = measure(f"20 MB attribute on the item, {kind.name}", path)
    result.check_bounds()
    assert result.outcome == "ok", result.message
    assert kind.url("b") in result.locs


@pytest.mark.slow
@pytest.mark.parametrize("kind", KINDS, ids=[k.name for k in KINDS])
def test_huge_attribute_on_the_root(kind: Kind, tmp_path: Path) -> None:
    """A root tag longer than the detection head once took minutes to sniff (detect.py)."""
    start = kind.start()
    end = start.index(">")
    path = tmp_path / "root.xml"
    hostile = start[:end] + f' junk="{"h" * BIG}"' + start[end:]
    path.write_text(DECLARATION + hostile + kind.entry("a") + kind.entry("b") + kind.tail)
    for format in (None, kind.format):
        result = measure(f"20 MB attribute on the root, {kind.name}", path, format)
        result.check_bounds()
        if result.outcome == "error":  # the root's namespace is past the head: not detected
            assert format is None and result.error_type == "FormatError", result.message
        else:
            assert result.outcome == "ok", result.message


@pytest.mark.slow
@pytest.mark.parametrize("kind", KINDS, ids=[k.name for k in KINDS])
def test_huge_url(kind: Kind, tmp_path: Path) -> None:
    """20 MB in the URL slot: an element's text, or an attribute (Atom href, RDF about)."""
    path = tmp_path / "url.xml"
    path.write_bytes(kind.document("a", "h" * BIG, "c"))
    result = measure(f"20 MB URL, {kind.name}", path)
    result.check_bounds()
    assert result.outcome == "ok", result.message
    assert result.locs[:1] == [kind.url("a")]
    assert all(len(loc) < 1000 for loc in result.locs)


@pytest.mark.slow
@pytest.mark.parametrize("kind", [k for k in KINDS if k.titled], ids=lambda k: k.name)
def test_huge_title(kind: Kind, tmp_path: Path) -> None:
    path = tmp_path / "title.xml"
    path.write_bytes(kind.document("a", "b", title="t" * BIG))
    result = measure(f"20 MB feed title, {kind.name}", path)
    result.check_bounds()


def test_huge_line_in_a_text_list(tmp_path: Path) -> None:
    path = tmp_path / "list.txt"
    with path.open("w") as f:
        f.write("https://e.com/a\n")
        f.write("https://e.com/" + "h" * BIG + "\n")
        f.write("https://e.com/b\n")
    result = measure("20 MB single line, txt", path)
    result.check_bounds()
    assert result.outcome == "ok"
    assert result.locs == ["https://e.com/a", "https://e.com/b"]
    assert result.warned("line 2: longer than")


def test_huge_line_without_newline_in_a_text_list(tmp_path: Path) -> None:
    path = tmp_path / "list.txt"
    path.write_text("https://e.com/a\nhttps://e.com/" + "h" * BIG)
    result = measure("20 MB last line without newline, txt", path)
    result.check_bounds()
    assert result.locs == ["https://e.com/a"]
