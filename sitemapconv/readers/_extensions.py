"""Reading Google's sitemap extensions inside a ``<url>`` (Google's image, video and
news sitemap documentation).

Image, video, news, ``xhtml:link`` alternates and the obsolete mobile flag. The urlset reader
calls these functions only for ``<url>`` elements that actually carry an extension element,
so the common path never pays for them.

Extensions are recognised by namespace on the element itself (``{ns}image``); their children
are matched by local name whatever their namespace, because generators often get the child
prefixes wrong. Values are stripped; an empty value is absent. A value of the wrong type (a
non-numeric duration, a yes/no that is neither) becomes None with a warning, and reading goes
on. Only an image without ``loc`` and a link without ``href`` are skipped, with a warning.

Values the XSD enumerates are read in the canonical form the writer writes (``allow_embed``
as ``yes``/``no``, relationships, id types and video types lower-cased), so that reading,
writing and reading again gives equal entries.
"""

from __future__ import annotations

from collections.abc import Callable

from lxml import etree

from .._dates import parse_w3c
from .._model import Alternate, Image, News, Video, VideoId, VideoPrice, VideoTvShow, When
from .._xml import IMAGE_NS, MOBILE_NS, NEWS_NS, VIDEO_NS, XHTML_NS

# Codes the urlset reader dispatches on (1-4 are the core sitemap children).
IMAGE, VIDEO, NEWS, LINK, MOBILE = 5, 6, 7, 8, 9

#: ``{namespace}local`` of each extension element, with its code. The https:// spelling of
#: each namespace occurs in the wild and is accepted too.
EXTENSION_TAGS: dict[str, int] = {
    f"{{{scheme}{ns.partition('://')[2]}}}{local}": code
    for ns, local, code in (
        (IMAGE_NS, "image", IMAGE),
        (VIDEO_NS, "video", VIDEO),
        (NEWS_NS, "news", NEWS),
        (XHTML_NS, "link", LINK),
        (MOBILE_NS, "mobile", MOBILE),
    )
    for scheme in ("http://", "https://")
}

Warn = Callable[[str], None]

_YES = frozenset(("yes", "true", "1"))
_NO = frozenset(("no", "false", "0"))


def _local(element: etree._Element) -> str:
    tag = element.tag
    if not isinstance(tag, str):
        return ""
    return tag.rpartition("}")[2]


def _text(element: etree._Element) -> str | None:
    text = element.text
    if text is None:
        return None
    return text.strip() or None


def _attr(element: etree._Element, name: str) -> str | None:
    value = element.get(name)
    if value is None:
        return None
    return value.strip() or None


def _int(value: str | None, what: str, warn: Warn) -> int | None:
    if value is None:
        return None
    try:
        return int(value)
    except ValueError:
        warn(f"invalid {what} {value!r} ignored (not an integer)")
        return None


def _float(value: str | None, what: str, warn: Warn) -> float | None:
    if value is None:
        return None
    try:
        return float(value.replace(",", "."))
    except ValueError:
        warn(f"invalid {what} {value!r} ignored (not a number)")
        return None


def _bool(value: str | None, what: str, warn: Warn) -> bool | None:
    if value is None:
        return None
    key = value.lower()
    if key in _YES:
        return True
    if key in _NO:
        return False
    warn(f"invalid {what} {value!r} ignored (not yes or no)")
    return None


def _yes_no(value: str | None, what: str, warn: Warn) -> str | None:
    """A yes/no attribute in the canonical lower-case form the XSD wants (the writer's too)."""
    flag = _bool(value, what, warn)
    return None if flag is None else ("yes" if flag else "no")


def _lower(value: str | None) -> str | None:
    """An enumerated value (relationship, id type, video type): the XSD's lists are
    lower-case, and the writer writes them so; reading them so keeps a round trip equal."""
    return None if value is None else value.lower()


def _date(value: str | None, what: str, warn: Warn) -> When | None:
    if value is None:
        return None
    parsed = parse_w3c(value)
    if parsed is None:
        warn(f"invalid {what} {value!r} ignored (not a W3C date)")
    return parsed


def read_image(element: etree._Element, warn: Warn) -> Image | None:
    """``image:image``: None (with a warning) when it has no ``image:loc``."""
    values: dict[str, str | None] = {}
    for child in element:
        values[_local(child)] = _text(child)
    loc = values.get("loc")
    if not loc:
        warn(f"line {element.sourceline}: <image:image> without <image:loc> skipped")
        return None
    return Image(
        loc=loc,
        caption=values.get("caption"),
        title=values.get("title"),
        geo_location=values.get("geo_location"),
        license=values.get("license"),
    )


def _read_tvshow(element: etree._Element, warn: Warn) -> VideoTvShow:
    values = {_local(child): _text(child) for child in element}
    return VideoTvShow(
        show_title=values.get("show_title"),
        video_type=_lower(values.get("video_type")),
        episode_title=values.get("episode_title"),
        season_number=_int(values.get("season_number"), "video:season_number", warn),
        episode_number=_int(values.get("episode_number"), "video:episode_number", warn),
        premier_date=_date(values.get("premier_date"), "video:premier_date", warn),
    )


def read_video(element: etree._Element, warn: Warn) -> Video:
    """``video:video`` with every element of Google's video sitemap XSD, attributes included."""
    video = Video()
    tags: list[str] = []
    segments: list[tuple[str, int | None]] = []
    prices: list[VideoPrice] = []
    ids: list[VideoId] = []
    for child in element:
        local = _local(child)
        text = _text(child)
        if local in ("thumbnail_loc", "title", "description", "content_loc", "category"):
            setattr(video, local, text)
        elif local == "player_loc":
            video.player_loc = text
            video.player_allow_embed = _yes_no(
                _attr(child, "allow_embed"), "video:player_loc allow_embed", warn
            )
            video.player_autoplay = _attr(child, "autoplay")
        elif local == "duration":
            video.duration = _int(text, "video:duration", warn)
        elif local == "expiration_date":
            video.expiration_date = _date(text, "video:expiration_date", warn)
        elif local == "rating":
            video.rating = _float(text, "video:rating", warn)
        elif local == "content_segment_loc" and text:
            duration = _int(_attr(child, "duration"), "content_segment_loc duration", warn)
            segments.append((text, duration))
        elif local == "view_count":
            video.view_count = _int(text, "video:view_count", warn)
        elif local == "publication_date":
            video.publication_date = _date(text, "video:publication_date", warn)
        elif local == "tag" and text:
            tags.append(text)
        elif local == "family_friendly":
            video.family_friendly = _bool(text, "video:family_friendly", warn)
        elif local == "restriction":
            video.restriction = text
            video.restriction_relationship = _lower(_attr(child, "relationship"))
        elif local == "gallery_loc":
            video.gallery_loc = text
            video.gallery_title = _attr(child, "title")
        elif local == "price":
            if text is None:
                warn(f"line {child.sourceline}: <video:price> without a value")
            prices.append(
                VideoPrice(
                    value=text or "",
                    currency=_attr(child, "currency"),
                    type=_attr(child, "type"),
                    resolution=_attr(child, "resolution"),
                )
            )
        elif local == "requires_subscription":
            video.requires_subscription = _bool(text, "video:requires_subscription", warn)
        elif local == "uploader":
            video.uploader = text
            video.uploader_info = _attr(child, "info")
        elif local == "tvshow":
            video.tvshow = _read_tvshow(child, warn)
        elif local == "platform":
            video.platform = text
            video.platform_relationship = _lower(_attr(child, "relationship"))
        elif local == "live":
            video.live = _bool(text, "video:live", warn)
        elif local == "id" and text:
            ids.append(VideoId(value=text, type=_lower(_attr(child, "type"))))
    if tags:
        video.tags = tags
    if segments:
        video.content_segment_locs = segments
    if prices:
        video.prices = prices
    if ids:
        video.ids = ids
    return video


def read_news(element: etree._Element, warn: Warn) -> News:
    """``news:news``; ``news:publication`` holds the name and language."""
    news = News()
    for child in element:
        local = _local(child)
        if local == "publication":
            for part in child:
                name = _local(part)
                if name == "name":
                    news.publication_name = _text(part)
                elif name == "language":
                    news.publication_language = _text(part)
        elif local == "publication_date":
            news.publication_date = _date(_text(child), "news:publication_date", warn)
        elif local in ("title", "access", "genres", "keywords", "stock_tickers"):
            setattr(news, local, _text(child))
    return news


def read_link(element: etree._Element, warn: Warn) -> Alternate | None:
    """``xhtml:link``: None (with a warning) when it has no ``href``."""
    href = _attr(element, "href")
    if href is None:
        warn(f"line {element.sourceline}: <xhtml:link> without href skipped")
        return None
    return Alternate(
        href=href,
        hreflang=_attr(element, "hreflang"),
        rel=_attr(element, "rel") or "alternate",
        media=_attr(element, "media"),
    )
