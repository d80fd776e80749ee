"""The hardened parser settings live in one place, and every XML parse goes through them.

A grep over the package source: one careless ``etree.iterparse(...)`` written out by hand
would reopen XML external entities (XXE) or network access, so the test fails on any parser
built outside :mod:`sitemapconv._xml`.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from lxml import etree

import sitemapconv
from sitemapconv import _xml

PACKAGE = Path(sitemapconv.__file__).parent
SOURCES = sorted(PACKAGE.rglob("*.py"))
FACTORY = PACKAGE / "_xml.py"
#: A parser built by hand: lxml's constructors (``etree.iterparse(``, a bare ``XMLParser(``).
_LXML_PARSER = re.compile(
    r"\betree\.(?:XMLParser|iterparse|XMLPullParser)\(|\bXML(?:Pull)?Parser\("
)
#: ``etree.fromstring(data)`` / ``etree.parse(src)`` without a parser argument.
_DEFAULT_PARSER = re.compile(r"\betree\.(?:fromstring|parse|XML)\(")


def _code(path: Path) -> list[tuple[int, str]]:
    """The lines of ``path`` without comments (docstrings mention the calls too)."""
    lines = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        code = line.split("#", 1)[0]
        if code.strip():
            lines.append((number, code))
    return lines


def test_resolve_entities_is_written_once_in_the_factory() -> None:
    places = [
        f"{path.relative_to(PACKAGE)}:{n}"
        for path in SOURCES
        for n, code in _code(path)
        if "resolve_entities" in code
    ]
    assert len(places) == 1, places
    assert places[0].startswith("_xml.py:")


def test_every_parser_is_built_by_the_factory() -> None:
    """No lxml parser constructor outside the factory (the package's own ``iterparse``
    helpers are the factory's), and no parse with lxml's default, unhardened parser."""
    offenders = [
        f"{path.relative_to(PACKAGE)}:{n}: {code.strip()}"
        for path in SOURCES
        if path != FACTORY
        for n, code in _code(path)
        if _LXML_PARSER.search(code) or (_DEFAULT_PARSER.search(code) and "parser()" not in code)
    ]
    assert offenders == []


def test_the_factory_refuses_entities_and_external_dtds(tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP SECRET")
    doc = (
        f'<!DOCTYPE r [<!ENTITY x SYSTEM "file://{secret}">]>'
        "<urlset><url><loc>&x;</loc></url></urlset>"
    ).encode()
    root = etree.fromstring(doc, _xml.parser(recover=True))
    assert "TOP SECRET" not in etree.tostring(root, encoding="unicode")
    source = tmp_path / "doc.xml"
    source.write_bytes(doc)
    texts = [el.text or "" for _, el in _xml.iterparse(str(source), recover=True)]
    assert all("TOP SECRET" not in text for text in texts)


@pytest.mark.parametrize(
    "name",
    [n for n in _xml.__all__ if n.endswith("_NS")],
)
def test_each_namespace_is_spelled_once(name: str) -> None:
    uri = getattr(_xml, name)
    spelled = [
        f"{path.relative_to(PACKAGE)}:{n}"
        for path in SOURCES
        if path != FACTORY
        for n, code in _code(path)
        if f'"{uri}"' in code
    ]
    assert spelled == []
