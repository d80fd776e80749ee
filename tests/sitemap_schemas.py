"""XSD validation helpers for writer tests: the shipped schemas and the extension wrapper."""

from __future__ import annotations

from functools import cache
from importlib import resources
from pathlib import Path

from lxml import etree

DATA = Path(__file__).parent / "data"
SM = "{http://www.sitemaps.org/schemas/sitemap/0.9}"
NS = {
    "sm": "http://www.sitemaps.org/schemas/sitemap/0.9",
    "image": "http://www.google.com/schemas/sitemap-image/1.1",
    "video": "http://www.google.com/schemas/sitemap-video/1.1",
    "news": "http://www.google.com/schemas/sitemap-news/0.9",
    "xhtml": "http://www.w3.org/1999/xhtml",
    "mobile": "http://www.google.com/schemas/sitemap-mobile/1.0",
}
_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False)


@cache
def _schema(kind: str) -> etree.XMLSchema:
    if kind == "extensions":
        path = DATA / "schemas" / "sitemap-extensions.xsd"
        return etree.XMLSchema(etree.parse(str(path)))
    shipped = resources.files("sitemapconv") / "schemas" / f"{kind}.xsd"
    with resources.as_file(shipped) as path:
        return etree.XMLSchema(etree.parse(str(path)))


def parse(data: bytes) -> etree._Element:
    return etree.fromstring(data, _PARSER)


def assert_valid(data: bytes, kind: str = "sitemap") -> etree._Element:
    """Parse ``data`` and validate it: kind is ``sitemap``, ``siteindex`` or ``extensions``."""
    root = parse(data)
    schema = _schema(kind)
    assert schema.validate(root), str(schema.error_log)
    return root
