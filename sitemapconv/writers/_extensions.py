"""Google's sitemap extensions as text: image, video, news, xhtml:link and mobile.

Elements come in the order of each XSD ``sequence``, attributes in a fixed order, so output
is deterministic and validates against Google's schemas. The rules those schemas cannot
express are checked here: an extension that lacks what it needs (a video without a content
or player URL, a news item without its publication) is dropped with a warning instead of
producing a file that search engines reject.

A video's two required texts may come from its entry: a video without a title takes the
entry's ``title``, one without a description the entry's ``summary``. Feeds (Media RSS,
enclosures) often give those only at the item level, and this is what makes a feed's videos
valid sitemap videos; a sitemap entry has neither, so xml -> xml is unchanged. Texts longer
than the XSD allows (title 100, description 2,048, category 256 characters) are shortened,
with one warning per run.

Each ``format_*`` method appends lines to a list and returns the namespace bits it used, so
the caller declares only the namespaces that really occur (sitemaps.org protocol,
"Extending the Sitemaps protocol").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from .._dates import format_w3c
from .._htmltext import html_to_text
from .._model import Alternate, Image, News, Video, VideoTvShow, When
from .._xml import IMAGE_NS, MOBILE_NS, NEWS_NS, VIDEO_NS, XHTML_NS
from ._formatting import ValueFormatter

IMAGE, VIDEO, NEWS, XHTML, MOBILE = 1, 2, 4, 8, 16

#: (bit, prefix, URI) in the fixed order namespaces are declared on the root element.
NAMESPACES: tuple[tuple[int, str, str], ...] = (
    (IMAGE, "image", IMAGE_NS),
    (VIDEO, "video", VIDEO_NS),
    (NEWS, "news", NEWS_NS),
    (XHTML, "xhtml", XHTML_NS),
    (MOBILE, "mobile", MOBILE_NS),
)

_YES_NO = {"yes": "yes", "no": "no", "true": "yes", "false": "no", "1": "yes", "0": "no"}
_RELATIONSHIPS = frozenset(("allow", "deny"))
_ID_TYPES = frozenset(
    ("tms:series", "tms:program", "rovi:series", "rovi:program", "freebase", "url")
)
_VIDEO_TYPES = frozenset(("full", "preview", "clip", "interview", "news", "other"))
_MAX_TAGS = 32
_MAX_DURATION = 28_800
#: maxLength of the video XSD's texts.
_MAX_TITLE, _MAX_DESCRIPTION, _MAX_CATEGORY = 100, 2048, 256


def _yes_no(value: bool) -> str:
    return "yes" if value else "no"


class ExtensionFormatter:
    """Formats the extension children of one ``<url>``; ``loc`` names it in warnings."""

    __slots__ = ("v",)

    def __init__(self, values: ValueFormatter) -> None:
        self.v = values

    def _el(self, out: list[str], indent: str, tag: str, text: str, attrs: str = "") -> None:
        out.append(f"{indent}<{tag}{attrs}>{text}</{tag}>\n")

    def _url_el(self, out: list[str], indent: str, tag: str, url: str, attrs: str = "") -> None:
        """An element holding a URL; left out (with the formatter's warning) when unparsable."""
        text = self.v.url(url, tag)
        if text is not None:
            self._el(out, indent, tag, text, attrs)

    def _attr(self, name: str, value: str | None) -> str:
        return "" if value is None else f' {name}="{self.v.text(value)}"'

    def _date(self, when: When) -> str:
        return format_w3c(when)

    def _limited(self, text: str, limit: int, what: str) -> str:
        """``text`` cut to the XSD's maxLength (in characters), warning once per run."""
        if len(text) <= limit:
            return text
        self.v.ctx.warn_once(
            f"long-{what}", f"shortened {what} texts to the {limit} characters the video XSD allows"
        )
        return text[:limit]

    # --- image -----------------------------------------------------------------------------
    def images(self, images: Sequence[Image], loc: str, out: list[str]) -> int:
        used = 0
        for img in images:
            if not img.loc or not img.loc.strip():
                self.v.ctx.warn(f"dropped an image without image:loc in {loc!r}")
                continue
            image_loc = self.v.url(img.loc, "image URL")
            if image_loc is None:
                continue
            used = IMAGE
            out.append("    <image:image>\n")
            self._el(out, "      ", "image:loc", image_loc)
            if img.caption is not None:
                self._el(out, "      ", "image:caption", self.v.text(img.caption))
            if img.geo_location is not None:
                self._el(out, "      ", "image:geo_location", self.v.text(img.geo_location))
            if img.title is not None:
                self._el(out, "      ", "image:title", self.v.text(img.title))
            if img.license is not None:
                self._url_el(out, "      ", "image:license", img.license)
            out.append("    </image:image>\n")
        return used

    # --- video -----------------------------------------------------------------------------
    def videos(
        self,
        videos: Sequence[Video],
        loc: str,
        out: list[str],
        title: str | None = None,
        summary: str | None = None,
    ) -> int:
        """``title``/``summary`` of the entry stand in for a video's missing title/description."""
        used = 0
        for video in videos:
            if (not video.title and title) or (not video.description and summary):
                video = replace(
                    video,
                    title=video.title or title,
                    # The entry's summary is HTML; a video description is plain text.
                    description=video.description or (html_to_text(summary) if summary else None),
                )
            missing = [
                name
                for name, value in (
                    ("thumbnail_loc", video.thumbnail_loc),
                    ("title", video.title),
                    ("description", video.description),
                )
                if not value
            ]
            if not video.content_loc and not video.player_loc:
                missing.append("content_loc or player_loc")
            if missing:
                self.v.ctx.warn(f"dropped a video in {loc!r}: it lacks {', '.join(missing)}")
                continue
            if any(
                self.v.plain_url(url, f"video:{name}") is None
                for name, url in (
                    ("thumbnail_loc", video.thumbnail_loc),
                    ("content_loc", video.content_loc),
                    ("player_loc", video.player_loc),
                )
                if url
            ):
                continue  # a URL the video needs cannot be written: the warning says which
            used = VIDEO
            out.append("    <video:video>\n")
            self._video(video, loc, out)
            out.append("    </video:video>\n")
        return used

    def _flag(self, value: str | None, what: str, loc: str) -> str | None:
        if value is None:
            return None
        flag = _YES_NO.get(value.strip().lower())
        if flag is None:
            self.v.ctx.warn(f"dropped {what}={value!r} in {loc!r}: not yes/no")
        return flag

    def _choice(
        self, value: str | None, allowed: frozenset[str], what: str, loc: str
    ) -> str | None:
        """A required enumerated attribute; None (with a warning) means drop the element."""
        norm = value.strip().lower() if value else ""
        if norm in allowed:
            return norm
        self.v.ctx.warn(
            f"dropped video:{what} in {loc!r}: attribute value {value!r} is not one of "
            f"{', '.join(sorted(allowed))}"
        )
        return None

    def _video(self, video: Video, loc: str, out: list[str]) -> None:
        v, ind = self.v, "      "
        assert video.thumbnail_loc and video.title and video.description
        self._url_el(out, ind, "video:thumbnail_loc", video.thumbnail_loc)
        title = self._limited(video.title, _MAX_TITLE, "video:title")
        self._el(out, ind, "video:title", v.text(title))
        description = self._limited(video.description, _MAX_DESCRIPTION, "video:description")
        self._el(out, ind, "video:description", v.text(description))
        if video.content_loc:
            self._url_el(out, ind, "video:content_loc", video.content_loc)
        if video.player_loc:
            embed = self._flag(video.player_allow_embed, "player_loc allow_embed", loc)
            attrs = self._attr("allow_embed", embed) + self._attr("autoplay", video.player_autoplay)
            self._url_el(out, ind, "video:player_loc", video.player_loc, attrs)
        if video.duration is not None:
            if 0 <= video.duration <= _MAX_DURATION:
                self._el(out, ind, "video:duration", str(int(video.duration)))
            else:
                v.ctx.warn(f"dropped video:duration {video.duration} in {loc!r}: not 0..28800")
        if video.expiration_date is not None:
            self._el(out, ind, "video:expiration_date", self._date(video.expiration_date))
        if video.rating is not None:
            rating = v.decimal(video.rating, 0.0, 5.0, "video:rating")
            if rating is not None:
                self._el(out, ind, "video:rating", rating)
        for seg_loc, seg_duration in video.content_segment_locs:
            attrs = "" if seg_duration is None else f' duration="{int(seg_duration)}"'
            self._url_el(out, ind, "video:content_segment_loc", seg_loc, attrs)
        if video.view_count is not None and video.view_count >= 0:
            self._el(out, ind, "video:view_count", str(int(video.view_count)))
        if video.publication_date is not None:
            self._el(out, ind, "video:publication_date", self._date(video.publication_date))
        tags = list(video.tags)
        if len(tags) > _MAX_TAGS:
            v.ctx.warn_once("video-tags", f"kept the first {_MAX_TAGS} video:tag of a video")
            tags = tags[:_MAX_TAGS]
        for tag in tags:
            self._el(out, ind, "video:tag", v.text(tag))
        if video.category is not None:
            category = self._limited(video.category, _MAX_CATEGORY, "video:category")
            self._el(out, ind, "video:category", v.text(category))
        if video.family_friendly is not None:
            self._el(out, ind, "video:family_friendly", _yes_no(video.family_friendly))
        if video.restriction is not None:
            rel = self._choice(video.restriction_relationship, _RELATIONSHIPS, "restriction", loc)
            if rel is not None:
                attrs = f' relationship="{rel}"'
                self._el(out, ind, "video:restriction", v.text(video.restriction.strip()), attrs)
        if video.gallery_loc:
            attrs = self._attr("title", video.gallery_title)
            self._url_el(out, ind, "video:gallery_loc", video.gallery_loc, attrs)
        for price in video.prices:
            attrs = (
                self._attr("currency", price.currency)
                + self._attr("type", price.type)
                + self._attr("resolution", price.resolution)
            )
            self._el(out, ind, "video:price", v.text(price.value), attrs)
        if video.requires_subscription is not None:
            self._el(out, ind, "video:requires_subscription", _yes_no(video.requires_subscription))
        if video.uploader is not None:
            info_url = v.url(video.uploader_info, "uploader info") if video.uploader_info else None
            info = "" if info_url is None else f' info="{info_url}"'
            self._el(out, ind, "video:uploader", v.text(video.uploader), info)
        if video.tvshow is not None:
            self._tvshow(video.tvshow, loc, out)
        if video.platform is not None:
            rel = self._choice(video.platform_relationship, _RELATIONSHIPS, "platform", loc)
            if rel is not None:
                attrs = f' relationship="{rel}"'
                self._el(out, ind, "video:platform", v.text(video.platform.strip()), attrs)
        if video.live is not None:
            self._el(out, ind, "video:live", _yes_no(video.live))
        for vid in video.ids:
            kind = self._choice(vid.type, _ID_TYPES, "id", loc)
            if kind is not None:
                self._el(out, ind, "video:id", v.text(vid.value), f' type="{kind}"')

    def _tvshow(self, show: VideoTvShow, loc: str, out: list[str]) -> None:
        kind = (show.video_type or "").strip().lower()
        if not show.show_title or kind not in _VIDEO_TYPES:
            self.v.ctx.warn(
                f"dropped video:tvshow in {loc!r}: it needs show_title and a video_type of "
                f"{', '.join(sorted(_VIDEO_TYPES))}"
            )
            return
        ind = "        "
        out.append("      <video:tvshow>\n")
        self._el(out, ind, "video:show_title", self.v.text(show.show_title))
        self._el(out, ind, "video:video_type", kind)
        if show.episode_title is not None:
            self._el(out, ind, "video:episode_title", self.v.text(show.episode_title))
        if show.season_number is not None:
            self._el(out, ind, "video:season_number", str(int(show.season_number)))
        if show.episode_number is not None:
            self._el(out, ind, "video:episode_number", str(int(show.episode_number)))
        if show.premier_date is not None:
            self._el(out, ind, "video:premier_date", self._date(show.premier_date))
        out.append("      </video:tvshow>\n")

    # --- news ------------------------------------------------------------------------------
    def news(self, news: News, loc: str, out: list[str]) -> int:
        missing = [
            name
            for name, value in (
                ("publication name", news.publication_name),
                ("publication language", news.publication_language),
                ("publication_date", news.publication_date),
                ("title", news.title),
            )
            if not value
        ]
        if missing:
            self.v.ctx.warn(f"dropped news:news in {loc!r}: it lacks {', '.join(missing)}")
            return 0
        assert news.publication_name and news.publication_language and news.publication_date
        assert news.title
        v, ind = self.v, "      "
        out.append("    <news:news>\n      <news:publication>\n")
        self._el(out, "        ", "news:name", v.text(news.publication_name))
        self._el(out, "        ", "news:language", v.text(news.publication_language.strip()))
        out.append("      </news:publication>\n")
        if news.access is not None:
            self._el(out, ind, "news:access", v.text(news.access.strip()))
        if news.genres is not None:
            self._el(out, ind, "news:genres", v.text(news.genres.strip()))
        self._el(out, ind, "news:publication_date", self._date(news.publication_date))
        self._el(out, ind, "news:title", v.text(news.title))
        if news.keywords is not None:
            self._el(out, ind, "news:keywords", v.text(news.keywords))
        if news.stock_tickers is not None:
            self._el(out, ind, "news:stock_tickers", v.text(news.stock_tickers.strip()))
        out.append("    </news:news>\n")
        return NEWS

    # --- xhtml:link and mobile -------------------------------------------------------------
    def alternates(self, links: Sequence[Alternate], loc: str, out: list[str]) -> int:
        used = 0
        for link in links:
            if not link.href or not link.href.strip():
                self.v.ctx.warn(f"dropped an xhtml:link without href in {loc!r}")
                continue
            href = self.v.url(link.href, "xhtml:link href")
            if href is None:
                continue
            used = XHTML
            attrs = (
                self._attr("rel", link.rel or "alternate")
                + self._attr("hreflang", link.hreflang)
                + self._attr("media", link.media)
            )
            out.append(f'    <xhtml:link{attrs} href="{href}"/>\n')
        return used

    @staticmethod
    def mobile(out: list[str]) -> int:
        out.append("    <mobile:mobile/>\n")
        return MOBILE
