"""Media RSS (``http://search.yahoo.com/mrss/``) output for the sitemap image and video data.

Feeds have no image or video sitemap extension, but Media RSS is the extension feed readers
know (YouTube's Atom feeds use it), and it is allowed both in RSS 2.0 items and, as a
foreign-namespace extension element, in Atom entries. The mapping:

- ``Image`` -> ``<media:content url=loc medium="image">`` with ``media:title`` (title) and
  ``media:description`` (caption) inside. ``geo_location`` and ``license`` are dropped.
- ``Video`` -> one ``<media:group>`` per video holding
  ``<media:content url=(content_loc or player_loc) medium="video" duration=...>``,
  ``<media:player url=player_loc>`` when there is a player URL, ``<media:thumbnail>``,
  ``<media:title>`` and ``<media:description>``. A video with neither ``content_loc`` nor
  ``player_loc`` has no URL to give and is dropped. Every other video field is dropped.

Dropped fields are recorded in :class:`~sitemapconv.writers._losses.Losses` for the one
summary warning.
"""

from __future__ import annotations

from .._model import Entry, Image, Video
from ._feedspool import FeedSpool
from ._losses import Losses

PREFIX = "media"

#: Video fields this mapping carries; any other field that is set is reported as dropped.
_VIDEO_KEPT = frozenset(
    ("thumbnail_loc", "title", "description", "content_loc", "player_loc", "duration")
)
_VIDEO_FIELDS = tuple(name for name in Video.__dataclass_fields__ if name not in _VIDEO_KEPT)


def _image(image: Image, spool: FeedSpool, losses: Losses, pad: str) -> str:
    if image.geo_location is not None:
        losses.add("image.geo_location")
    if image.license is not None:
        losses.add("image.license")
    url = spool.url(image.loc, "image URL")
    if url is None:
        return ""
    start = f'{pad}<media:content url="{url}" medium="image"'
    inner = []
    if image.title is not None:
        inner.append(f"{pad}  <media:title>{spool.text(image.title)}</media:title>\n")
    if image.caption is not None:
        inner.append(f"{pad}  <media:description>{spool.text(image.caption)}</media:description>\n")
    if not inner:
        return start + "/>\n"
    return f"{start}>\n{''.join(inner)}{pad}</media:content>\n"


def _video(video: Video, spool: FeedSpool, losses: Losses, pad: str) -> str:
    for name in _VIDEO_FIELDS:
        value = getattr(video, name)
        if value is not None and value != ():
            losses.add(f"video.{name}")
    url = video.content_loc or video.player_loc
    if url is None:
        losses.add("video (without content_loc or player_loc)")
        return ""
    content = spool.url(url, "video URL")
    if content is None:
        return ""
    inner = f"{pad}  "
    parts = [f'{pad}<media:group>\n{inner}<media:content url="{content}" medium="video"']
    if video.duration is not None:
        parts.append(f' duration="{video.duration}"')
    parts.append("/>\n")
    player = spool.url(video.player_loc, "player URL") if video.player_loc is not None else None
    if player is not None:
        parts.append(f'{inner}<media:player url="{player}"/>\n')
    thumb = spool.url(video.thumbnail_loc, "thumbnail URL") if video.thumbnail_loc else None
    if thumb is not None:
        parts.append(f'{inner}<media:thumbnail url="{thumb}"/>\n')
    if video.title is not None:
        parts.append(f"{inner}<media:title>{spool.text(video.title)}</media:title>\n")
    if video.description is not None:
        parts.append(
            f"{inner}<media:description>{spool.text(video.description)}</media:description>\n"
        )
    parts.append(f"{pad}</media:group>\n")
    return "".join(parts)


def media_xml(entry: Entry, spool: FeedSpool, losses: Losses, pad: str) -> str:
    """The Media RSS elements for an entry's images and videos ("" when it has none).

    ``pad`` is the indentation of the item's children. Marks the ``media`` prefix as used.
    """
    if not entry.images and not entry.videos:
        return ""
    parts = [_image(image, spool, losses, pad) for image in entry.images]
    parts.extend(_video(video, spool, losses, pad) for video in entry.videos)
    text = "".join(parts)
    if text:
        spool.use(PREFIX)
    return text
