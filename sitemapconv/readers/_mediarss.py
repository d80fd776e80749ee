"""Media RSS and enclosures, read into images and videos.

Media RSS is ``http://search.yahoo.com/mrss/``, or the same without the final slash.

The mapping is deliberately small; what it does not cover is dropped, not guessed:

- ``media:content`` is an **image** when ``medium="image"`` or its ``type`` is ``image/*``,
  and a **video** when ``medium="video"``, ``type`` is ``video/*``, or ``type`` is
  ``application/x-shockwave-flash`` (an embeddable player, as YouTube publishes it). Audio,
  documents and untyped content are ignored.
- An image becomes ``Image(loc=url, title=media:title, caption=media:description)``.
- A video becomes ``Video(content_loc=url, thumbnail_loc=media:thumbnail, title=media:title,
  description=media:description, player_loc=media:player, duration=@duration)``. A Flash
  URL, or a URL equal to the ``media:player`` URL, is the player itself: it goes to
  ``player_loc`` and ``content_loc`` stays empty (this is how the feed writers write a video
  that has only a player, :mod:`sitemapconv.writers._mediarss`). ``duration`` is whole seconds.
- ``media:title``, ``media:description``, ``media:thumbnail`` and ``media:player`` apply at
  three levels, the nearest winning: inside the ``media:content``, inside its
  ``media:group``, or directly in the item/entry.
- ``media:thumbnail`` elements of an item (or group) that has no video become images: news
  feeds use them for the article picture.
- An RSS ``<enclosure>`` (or an Atom ``link rel="enclosure"``) with an ``image/*`` or
  ``video/*`` type becomes an image or a video the same way.

The same URL is never listed twice in one entry.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .._model import Image, Video
from .._xml import MEDIA_NS
from ._feedxml import Element, resolve, text_of

_M = f"{{{MEDIA_NS}}}"
_CONTENT = _M + "content"
_GROUP = _M + "group"
_TITLE = _M + "title"
_DESCRIPTION = _M + "description"
_THUMBNAIL = _M + "thumbnail"
_PLAYER = _M + "player"
FLASH = "application/x-shockwave-flash"

#: Media RSS before version 1.1.2 had no trailing slash in its namespace, and real feeds still
#: use it: ``{http://search.yahoo.com/mrss}content`` is read as ``media:content``.
_OLD_M = "{" + MEDIA_NS.rstrip("/") + "}"
#: What an element's tag starts with when it may be Media RSS (either namespace).
MEDIA_PREFIX = _OLD_M[:-1]


def _tag(el: Element) -> object:
    """The element's tag, with the old Media RSS namespace made the current one."""
    tag = el.tag
    if isinstance(tag, str) and tag.startswith(_OLD_M):
        return _M + tag[len(_OLD_M) :]
    return tag


class _Scope:
    """The title, description, thumbnails and player given at one level (content, group, item)."""

    __slots__ = ("description", "player", "thumbnails", "title")

    def __init__(self, parent: _Scope | None = None) -> None:
        self.title: str | None = parent.title if parent else None
        self.description: str | None = parent.description if parent else None
        self.player: str | None = parent.player if parent else None
        self.thumbnails: list[str] = []

    def take(self, el: Element) -> bool:
        """Record ``el`` when it is a scope element; False when it is something else."""
        tag = _tag(el)
        if tag == _TITLE:
            self.title = text_of(el) or self.title
        elif tag == _DESCRIPTION:
            self.description = text_of(el) or self.description
        elif tag == _THUMBNAIL:
            url = (el.get("url") or "").strip()
            if url:
                self.thumbnails.append(url)
        elif tag == _PLAYER:
            self.player = (el.get("url") or "").strip() or self.player
        else:
            return False
        return True


def _seconds(value: str | None) -> int | None:
    """Media RSS ``duration`` (seconds, sometimes fractional) as whole seconds; else None."""
    if value is None:
        return None
    try:
        seconds = float(value.strip())
    except ValueError:
        return None
    return int(seconds) if 0 <= seconds < 1e9 else None


def media_kind(medium: str | None, mime: str | None) -> str | None:
    """``image`` or ``video`` from a ``medium`` attribute, else from a MIME type; or None."""
    if medium:
        medium = medium.strip().lower()
        return medium if medium in ("image", "video") else None
    mime = (mime or "").strip().lower()
    if mime.startswith("image/"):
        return "image"
    if mime.startswith("video/") or mime == FLASH:
        return "video"
    return None


class _Collector:
    def __init__(self) -> None:
        self.images: list[Image] = []
        self.videos: list[Video] = []
        self.seen: set[str] = set()

    def add(
        self,
        kind: str | None,
        url: str,
        mime: str | None,
        scope: _Scope,
        thumbnail: str | None,
        duration: str | None = None,
    ) -> None:
        if kind is None or not url or url in self.seen:
            return
        self.seen.add(url)
        if kind == "image":
            self.images.append(Image(loc=url, title=scope.title, caption=scope.description))
            return
        player = url if (mime or "").strip().lower() == FLASH else scope.player
        self.videos.append(
            Video(
                thumbnail_loc=thumbnail,
                title=scope.title,
                description=scope.description,
                content_loc=None if url == player else url,
                player_loc=player,
                duration=_seconds(duration),
            )
        )


def _contents(
    elements: Iterable[Element], scope: _Scope, out: _Collector, groups: list[_Scope]
) -> None:
    """Collect the media:content (and groups) of one level once its scope is complete."""
    for el in elements:
        tag = _tag(el)
        if tag == _CONTENT:
            url = (el.get("url") or "").strip()
            mime = el.get("type")
            own = _Scope(scope)
            for child in el:
                own.take(child)
            thumbs = own.thumbnails or scope.thumbnails
            kind = media_kind(el.get("medium"), mime)
            thumb = thumbs[0] if thumbs else None
            out.add(kind, url, mime, own, thumb, el.get("duration"))
        elif tag == _GROUP:
            group = _Scope(scope)
            for child in el:
                group.take(child)
            if not group.thumbnails:
                group.thumbnails = scope.thumbnails
            groups.append(group)
            _contents(el, group, out, groups)


def read_media(
    elements: Sequence[Element],
    enclosures: Sequence[tuple[str, str | None]] = (),
    base: str | None = None,
) -> tuple[list[Image], list[Video]]:
    """Images and videos of one item from its Media RSS children and its enclosures.

    Relative URLs (``url`` attributes, thumbnails, players, enclosures) are resolved against
    ``base``, the item's ``xml:base`` or the feed's URL, like the item's own link.
    """
    item = _Scope()
    for el in elements:
        item.take(el)
    out = _Collector()
    groups: list[_Scope] = []
    _contents(elements, item, out, groups)
    thumb = item.thumbnails[0] if item.thumbnails else None
    for url, mime in enclosures:
        out.add(media_kind(None, mime), url.strip(), mime, item, thumb)
    if not out.videos:
        for scope in (item, *groups):
            for url in scope.thumbnails:
                out.add("image", url, None, scope, None)
    if base is not None:
        for image in out.images:
            image.loc = resolve(image.loc, base)
        for video in out.videos:
            video.content_loc = video.content_loc and resolve(video.content_loc, base)
            video.player_loc = video.player_loc and resolve(video.player_loc, base)
            video.thumbnail_loc = video.thumbnail_loc and resolve(video.thumbnail_loc, base)
    return out.images, out.videos
