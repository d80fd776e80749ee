"""Small valid documents of every XML kind, built so hostile parts can be put anywhere in them.

Each :class:`Kind` knows its document start (``head``, with a ``{title}`` slot for the feed
title, or nothing for sitemaps), one item (``item``, with a ``{x}`` slot that ends up in the
entry's URL and, for feeds, in its title), and the end. The tests insert entity references,
deep nesting or huge values into those slots, or around an item, and check what came out.
"""

from __future__ import annotations

from dataclasses import dataclass

SITEMAP_NS = "http://www.sitemaps.org/schemas/sitemap/0.9"
DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n'


@dataclass(frozen=True)
class Kind:
    """One kind of XML document and the format name its reader has."""

    name: str
    format: str
    head: str
    item: str
    tail: str
    #: Whether entries carry a title and the document a title in its metadata.
    titled: bool = True

    def entry(self, x: str) -> str:
        return self.item.replace("{x}", x)

    def start(self, title: str = "T") -> str:
        return self.head.replace("{title}", title)

    def document(
        self,
        *slugs: str,
        title: str = "T",
        prolog: str = DECLARATION,
        between: str = "",
    ) -> bytes:
        """A document with one item per slug; ``between`` goes after the first item."""
        items = [self.entry(s) for s in slugs]
        if between and items:
            items.insert(1, between)
        return (prolog + self.start(title) + "\n".join(items) + self.tail).encode("utf-8")

    def url(self, slug: str) -> str:
        return f"https://e.com/{slug}"


KINDS: tuple[Kind, ...] = (
    Kind(
        "xml",
        "xml",
        f'<urlset xmlns="{SITEMAP_NS}">',
        "<url><loc>https://e.com/{x}</loc><lastmod>2024-01-02</lastmod></url>",
        "</urlset>",
        titled=False,
    ),
    Kind(
        "index",
        "index",
        f'<sitemapindex xmlns="{SITEMAP_NS}">',
        "<sitemap><loc>https://e.com/{x}</loc></sitemap>",
        "</sitemapindex>",
        titled=False,
    ),
    Kind(
        "rss",
        "rss",
        '<rss version="2.0"><channel><title>{title}</title><link>https://e.com/</link>',
        "<item><title>{x}</title><link>https://e.com/{x}</link></item>",
        "</channel></rss>",
    ),
    Kind(
        "rdf",
        "rss",
        '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" '
        'xmlns="http://purl.org/rss/1.0/"><channel rdf:about="https://e.com/">'
        "<title>{title}</title></channel>",
        '<item rdf:about="https://e.com/{x}"><title>{x}</title><link>https://e.com/{x}</link>'
        "</item>",
        "</rdf:RDF>",
    ),
    Kind(
        "atom",
        "atom",
        '<feed xmlns="http://www.w3.org/2005/Atom"><title>{title}</title><id>urn:f</id>',
        '<entry><title>{x}</title><link href="https://e.com/{x}"/><id>urn:e</id>'
        "<updated>2024-01-02T00:00:00Z</updated></entry>",
        "</feed>",
    ),
    Kind(
        "atom03",
        "atom03",
        '<feed version="0.3" xmlns="http://purl.org/atom/ns#"><title>{title}</title>',
        '<entry><title>{x}</title><link rel="alternate" href="https://e.com/{x}"/>'
        "<modified>2024-01-02T00:00:00Z</modified></entry>",
        "</feed>",
    ),
)

KIND_NAMES = [k.name for k in KINDS]
BY_NAME = {k.name: k for k in KINDS}
