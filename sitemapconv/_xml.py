"""The XML vocabulary: every namespace sitemapconv reads or writes, and the hardened parser.

One home for both, so that a namespace is spelled once and the parser settings that keep
XML external entities (XXE), DTD loading and network access out of every reader and the
validator cannot drift apart: every ``etree.iterparse`` and ``etree.XMLParser`` in the
package is built here (``tests/test_xml_vocabulary.py`` greps the source to hold that).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from lxml import etree

# --- namespaces ---------------------------------------------------------------------------

#: The sitemaps.org 0.9 namespace (https://www.sitemaps.org/protocol.html): the one writers use.
SITEMAP_NS = "http://www.sitemaps.org/schemas/sitemap/0.9"
#: Other namespaces real sitemaps carry: read as the sitemaps.org one, with a warning.
SITEMAP_HTTPS_NS = "https://www.sitemaps.org/schemas/sitemap/0.9"
GOOGLE_SITEMAP_084_NS = "http://www.google.com/schemas/sitemap/0.84"
GOOGLE_SITEMAP_09_NS = "http://www.google.com/schemas/sitemap/0.9"

# Google's sitemap extensions (https://developers.google.com/search/docs/crawling-indexing/
# sitemaps/image-sitemaps, .../video-sitemaps, .../news-sitemap) and hreflang links.
IMAGE_NS = "http://www.google.com/schemas/sitemap-image/1.1"
VIDEO_NS = "http://www.google.com/schemas/sitemap-video/1.1"
NEWS_NS = "http://www.google.com/schemas/sitemap-news/0.9"
MOBILE_NS = "http://www.google.com/schemas/sitemap-mobile/1.0"
XHTML_NS = "http://www.w3.org/1999/xhtml"

#: XML itself (``xml:base``, ``xml:lang``) and XML Schema instances (``xsi:schemaLocation``).
XML_NS = "http://www.w3.org/XML/1998/namespace"
XSI_NS = "http://www.w3.org/2001/XMLSchema-instance"

#: Atom 1.0 (RFC 4287) and the pre-standard Atom 0.3.
ATOM_NS = "http://www.w3.org/2005/Atom"
ATOM03_NS = "http://purl.org/atom/ns#"

#: RSS 1.0 (http://web.resource.org/rss/1.0/spec), RSS 0.90 and the RDF they are written in.
RDF_NS = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
RSS10_NS = "http://purl.org/rss/1.0/"
RSS090_NS = "http://my.netscape.com/rdf/simple/0.9/"

#: Dublin Core elements and terms (https://www.dublincore.org/specifications/dublin-core/).
DC_NS = "http://purl.org/dc/elements/1.1/"
DCTERMS_NS = "http://purl.org/dc/terms/"

#: Media RSS (https://www.rssboard.org/media-rss); readers also accept it without the slash.
MEDIA_NS = "http://search.yahoo.com/mrss/"


#: The declaration every XML writer starts with: UTF-8, as the sitemaps.org protocol requires.
XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n'


# --- the hardened parser ------------------------------------------------------------------


def _hardened(**extra: Any) -> dict[str, Any]:
    """Parser keywords: the caller's, then the hardening that no caller may override.

    No entity expansion (XXE, "billion laughs"), no network, no external DTD, and no
    ``huge_tree`` (libxml2 keeps its limits on text node size and nesting depth).
    """
    return dict(extra, resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False)


def parser(*, recover: bool = False) -> etree.XMLParser:
    """A hardened ``XMLParser`` for ``etree.fromstring`` / ``etree.parse``."""
    return etree.XMLParser(**_hardened(recover=recover))


def iterparse(
    source: Any,
    *,
    events: tuple[str, ...] = ("end",),
    tag: Iterable[str] | None = None,
    recover: bool = False,
    strip: bool = False,
) -> etree.iterparse:
    """A hardened streaming parse of ``source`` (a binary file object or a path).

    ``tag`` restricts the events to those elements; ``strip`` drops comments and processing
    instructions, so that text around them is merged again.
    """
    options = _hardened(recover=recover, remove_comments=strip, remove_pis=strip)
    if tag is not None:
        options["tag"] = tuple(tag)
    return etree.iterparse(source, events=events, **options)


__all__ = [
    "ATOM03_NS",
    "ATOM_NS",
    "DCTERMS_NS",
    "DC_NS",
    "GOOGLE_SITEMAP_084_NS",
    "GOOGLE_SITEMAP_09_NS",
    "IMAGE_NS",
    "MEDIA_NS",
    "MOBILE_NS",
    "NEWS_NS",
    "RDF_NS",
    "RSS090_NS",
    "RSS10_NS",
    "SITEMAP_HTTPS_NS",
    "SITEMAP_NS",
    "VIDEO_NS",
    "XHTML_NS",
    "XML_DECLARATION",
    "XML_NS",
    "XSI_NS",
    "iterparse",
    "parser",
]
