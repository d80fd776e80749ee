"""The streaming pass over RSS (2.0, and 0.9x/1.0 RDF) and Atom (1.0 and 0.3) feeds.

Only what a feed needs to be usable, and well-formed as its own spec, is checked (sitemaps.org
protocol, "Syndication feed"; the RSS 2.0 specification; RFC 4287; Atom 0.3): required
channel/feed/entry children, a URL for each item, and the date forms.
Items are checked when their end tag is parsed and then dropped.
"""

from __future__ import annotations

import re
from urllib.parse import urljoin

from lxml import etree

from .._dates import parse_rfc822, parse_w3c
from .._model import When
from .._urls import is_http
from . import Counted, Pass, iterparse, line_of, root_of
from .sitemap import split_tag
from .urls import check_url
from .values import check_future, check_lastmod, lastmod_form

_RFC3339 = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$")

#: Required children: kind -> (feed level, entry level, date element of an entry).
_ATOM_RULES = {
    "atom": (("id", "title", "updated"), ("id", "title", "updated"), "updated"),
    "atom03": (("title", "modified"), ("id", "title", "modified", "issued"), "modified"),
}


def _child(el: etree._Element, ns: str, local: str) -> etree._Element | None:
    return el.find(f"{{{ns}}}{local}" if ns else local)


class FeedPass:
    """Validates one RSS or Atom file; ``kind`` is ``rss``, ``atom`` or ``atom03``."""

    def __init__(self, kind: str, state: Pass) -> None:
        self.kind = kind
        self.p = state
        self.out = state.out
        self.channels = 0

    def run(self, stream: Counted) -> None:
        root: etree._Element | None = None
        for _, el in iterparse(stream):
            parent = el.getparent()
            tag = el.tag
            if not isinstance(tag, str):
                if parent is not None:
                    parent.remove(el)  # comments and PIs: dropped as they come
                continue
            if root is None:
                root = root_of(el)
            ns, local = split_tag(tag)
            if parent is None:
                self._root(el, ns, local)
                continue  # parse to the end (see SitemapPass.run)
            if self.kind == "rss":
                if local == "item" and split_tag(str(parent.tag))[1] in ("channel", "RDF"):
                    self._rss_item(el, ns)
                    parent.remove(el)
                elif local == "channel" and parent is root:
                    self._rss_channel(el, ns)
            elif local == "entry" and parent is root:
                self._atom_entry(el, ns)
                parent.remove(el)

    def _missing(self, rule: str, el: etree._Element, what: str, names: list[str]) -> None:
        tags = ", ".join(f"<{n}>" for n in names)
        self.out.error(rule, f"{what} is missing {tags} (required)", line=line_of(el))

    # --- RSS -------------------------------------------------------------------------------

    def _rss_channel(self, el: etree._Element, ns: str) -> None:
        self.channels += 1
        missing = [n for n in ("title", "link", "description") if _child(el, ns, n) is None]
        if missing:
            self._missing("rss-channel", el, "the RSS <channel>", missing)

    def _rss_item(self, el: etree._Element, ns: str) -> None:
        line = line_of(el)
        self.p.counted(line)
        url: str | None = None
        link = _child(el, ns, "link")
        guid = _child(el, ns, "guid")
        if link is not None and (link.text or "").strip():
            url = check_url(self.out, link.text or "", line=line_of(link), scope=self.p.scope)
        elif (
            guid is not None
            and guid.get("isPermaLink", "true").strip().lower() != "false"
            and is_http((guid.text or "").strip())
        ):
            url = check_url(self.out, guid.text or "", line=line_of(guid), scope=self.p.scope)
        else:
            self.out.error(
                "rss-item-link",
                "the <item> has neither a <link> nor a permalink <guid>: it gives no URL "
                "for the sitemap",
                line=line,
            )
        if url:
            self.p.duplicates.add(url, line)
        if _child(el, ns, "title") is None and _child(el, ns, "description") is None:
            self.out.warning(
                "rss-item-title",
                "the <item> has neither <title> nor <description>; RSS requires one",
                line=line,
                url=url,
            )
        date = _child(el, ns, "pubDate")
        if date is not None:
            text = (date.text or "").strip()
            value = parse_rfc822(text) if text else None
            if not text:  # said as for an empty <lastmod/>
                self.out.error(
                    "empty-tag",
                    "<pubDate> is empty: give a date or remove the tag",
                    line=line_of(date),
                    url=url,
                )
            elif value is None:
                self.out.error(
                    "feed-date",
                    "<pubDate> must be an RFC 822 date such as 'Sat, 07 Sep 2002 00:00:01 GMT'"
                    f"; found '{text}'",
                    line=line_of(date),
                    url=url,
                )
            else:
                self._future(value, text, date, url)

    # --- Atom ------------------------------------------------------------------------------

    def _atom_entry(self, el: etree._Element, ns: str) -> None:
        line = line_of(el)
        self.p.counted(line)
        _, required, date_tag = _ATOM_RULES[self.kind]
        url = self._atom_link(el, ns)
        if url:
            url = check_url(self.out, url, line=line, scope=self.p.scope)
            if url:
                self.p.duplicates.add(url, line)
        else:
            self.out.warning(
                "atom-entry-link",
                '<entry> has no <link rel="alternate" href="...">: it gives no URL for the sitemap',
                line=line,
            )
        missing = [n for n in required if _child(el, ns, n) is None]
        if missing:
            self.out.error(
                "atom-entry",
                f"<entry> is missing {', '.join(f'<{n}>' for n in missing)} (required)",
                line=line,
                url=url,
            )
        date = _child(el, ns, date_tag)
        if date is not None:
            self._atom_date(date, date_tag, url)

    def _atom_link(self, el: etree._Element, ns: str) -> str | None:
        for link in el.iterfind(f"{{{ns}}}link"):
            rel = link.get("rel", "alternate")
            href = (link.get("href") or "").strip()
            if rel == "alternate" and href:
                base = link.base
                if base and is_http(base):
                    return urljoin(base, href)
                return href
        return None

    def _atom_date(self, date: etree._Element, tag: str, url: str | None) -> None:
        text = (date.text or "").strip()
        if not text:  # said as for an empty <lastmod/>
            self.out.error(
                "empty-tag",
                f"<{tag}> is empty: give a date or remove the tag",
                line=line_of(date),
                url=url,
            )
            return
        if self.kind == "atom":
            ok = bool(_RFC3339.match(text)) and parse_w3c(text) is not None
            if not ok:
                self.out.error(
                    "feed-date",
                    f"<{tag}> must be an RFC 3339 date-time such as 2024-05-01T10:30:00Z; "
                    f"'{text}' is {lastmod_form(text) if text else 'empty'}",
                    line=line_of(date),
                    url=url,
                )
                return
            value = parse_w3c(text)
            if value is not None:
                self._future(value, text, date, url)
        else:
            check_lastmod(self.out, text, line=line_of(date), url=url, now=self.p.now, tag=tag)

    def _future(self, value: When, text: str, date: etree._Element, url: str | None) -> None:
        check_future(
            self.out,
            value,
            text,
            line=line_of(date),
            url=url,
            now=self.p.now,
            tag=split_tag(str(date.tag))[1],
        )

    # --- both ------------------------------------------------------------------------------

    def _root(self, root: etree._Element, ns: str, local: str) -> None:
        if self.kind == "rss":
            if self.channels == 0:
                self.out.error("rss-channel", "the feed has no <channel>", line=line_of(root))
            return
        required = _ATOM_RULES[self.kind][0]
        missing = [n for n in required if _child(root, ns, n) is None]
        if missing:
            self._missing("atom-feed", root, "the Atom <feed>", missing)
        if self.kind == "atom03" and root.get("version") != "0.3":
            self.out.error(
                "atom-feed", 'an Atom 0.3 <feed> needs version="0.3"', line=line_of(root)
            )
