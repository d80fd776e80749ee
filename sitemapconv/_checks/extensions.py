"""Rules for Google's sitemap extensions (Google Search Central's image, video and news
sitemap documentation), checked in code.

The Google extension schemas cannot be shipped (their licence does not allow it), and the
video rule "content_loc or player_loc" is beyond XSD anyway, so the required parts of each
extension are checked here. A namespace we do not know is reported once per file as an
"unknown extension" warning: the file is not invalid for that, it just has data we cannot
check.
"""

from __future__ import annotations

from lxml import etree

from .._problems import Collector
from .._xml import IMAGE_NS, MOBILE_NS, NEWS_NS, VIDEO_NS, XHTML_NS
from . import line_of
from .urls import check_url

KNOWN = frozenset((IMAGE_NS, VIDEO_NS, NEWS_NS, XHTML_NS, MOBILE_NS))

MAX_IMAGES = 1000


def _text(parent: etree._Element, ns: str, local: str) -> str | None:
    child = parent.find(f"{{{ns}}}{local}")
    if child is None:
        return None
    return (child.text or "").strip()


class ExtensionChecks:
    """Checks the foreign-namespace children of one ``<url>``; remembers reported namespaces."""

    def __init__(self, out: Collector) -> None:
        self.out = out
        self._unknown: set[str] = set()

    def unknown(self, ns: str, element: etree._Element) -> None:
        if ns in self._unknown:
            return
        self._unknown.add(ns)
        local = etree.QName(element).localname
        self.out.warning(
            "unknown-extension",
            f"unknown extension <{local}> in namespace {ns}: not checked (this does not make "
            "the sitemap invalid, but search engines may ignore it)",
            line=line_of(element),
        )

    def check(self, children: list[etree._Element], url: str | None) -> None:
        images = 0
        news = 0
        for el in children:
            qname = etree.QName(el)
            ns, local = qname.namespace or "", qname.localname
            if ns == IMAGE_NS and local == "image":
                images += 1
                self._image(el, url)
            elif ns == VIDEO_NS and local == "video":
                self._video(el, url)
            elif ns == NEWS_NS and local == "news":
                news += 1
                self._news(el, url)
            elif ns == XHTML_NS and local == "link":
                self._link(el, url)
            elif ns not in KNOWN:
                self.unknown(ns, el)
        where = {"line": children[0].sourceline if children else None, "url": url}
        if images > MAX_IMAGES:
            self.out.warning(
                "image-count", f"{images} images for one URL; Google reads at most 1,000", **where
            )
        if news > 1:
            self.out.error("news-count", "a <url> may have at most one <news:news>", **where)

    def _missing(self, el: etree._Element, url: str | None, what: str, names: str) -> None:
        self.out.error(
            "extension",
            f"<{what}> is missing {names}",
            line=line_of(el),
            url=url,
        )

    def _image(self, el: etree._Element, url: str | None) -> None:
        loc = _text(el, IMAGE_NS, "loc")
        if not loc:
            self._missing(el, url, "image:image", "<image:loc>, the image's URL (required)")
        else:
            check_url(self.out, loc, line=line_of(el), what="image URL")

    def _video(self, el: etree._Element, url: str | None) -> None:
        missing = [
            f"<video:{n}>"
            for n in ("thumbnail_loc", "title", "description")
            if not _text(el, VIDEO_NS, n)
        ]
        if missing:
            self._missing(el, url, "video:video", " and ".join(missing) + " (required)")
        if not _text(el, VIDEO_NS, "content_loc") and not _text(el, VIDEO_NS, "player_loc"):
            self._missing(el, url, "video:video", "<video:content_loc> or <video:player_loc>")
        for name, limit in (("title", 100), ("description", 2048)):
            value = _text(el, VIDEO_NS, name)
            if value and len(value) > limit:
                self.out.error(
                    "extension",
                    f"<video:{name}> is {len(value):,} characters; at most {limit:,} allowed",
                    line=line_of(el),
                    url=url,
                )

    def _news(self, el: etree._Element, url: str | None) -> None:
        missing: list[str] = []
        publication = el.find(f"{{{NEWS_NS}}}publication")
        if publication is None:
            missing.append("<news:publication>")
        else:
            missing += [
                f"<news:{n}>" for n in ("name", "language") if not _text(publication, NEWS_NS, n)
            ]
        missing += [
            f"<news:{n}>" for n in ("publication_date", "title") if not _text(el, NEWS_NS, n)
        ]
        if missing:
            self._missing(el, url, "news:news", ", ".join(missing) + " (required)")

    def _link(self, el: etree._Element, url: str | None) -> None:
        href = (el.get("href") or "").strip()
        rel = el.get("rel", "")
        if not href:
            self._missing(el, url, "xhtml:link", "the href attribute (the alternate URL)")
        else:
            check_url(self.out, href, line=line_of(el), what="alternate URL")
        if rel == "alternate" and not (el.get("hreflang") or "").strip():
            self._missing(el, url, "xhtml:link", "the hreflang attribute (e.g. de-CH or x-default)")
