"""robots.txt ``Sitemap:`` lines: read them, print one, and add one to a file in place.

Parsing follows RFC 9309 habits and the sitemaps.org protocol's ``Sitemap:`` line: the
field name is matched
case-insensitively, whitespace around name and value is trimmed, a ``#`` starts a comment,
and the line may sit anywhere in the file, outside any ``User-agent`` group. URLs are returned
exactly as written so discovery code can report what the site said.

Updating works on bytes, not text: every line we do not change keeps its bytes (BOM, line
endings, invalid UTF-8, a missing final newline), and the file is replaced atomically so a
failed update leaves it as it was; behind a symlink, the link's target is the file updated.
A UTF-16 file (with a byte order mark) is edited in UTF-16; one that cannot be edited
without mixing encodings is refused, never corrupted.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from urllib.parse import urlsplit

from ._sink import atomic_path
from ._urls import is_http_scheme, same_url
from .errors import SitemapError
from .errors import SitemapUrlError as SitemapUrlError  # raised here; imported from here too

_BOM = "\ufeff"
_BOM_BYTES = b"\xef\xbb\xbf"
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_BYTE_LINES = re.compile(rb"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+")
# Controls, C1 controls (U+0085 NEL among them), every Unicode space and line break
# (U+2028, U+2029, VT, FF: str.splitlines() and Python's robotparser split lines there),
# and '#', which starts a comment.
_FORBIDDEN = re.compile(r"[\x00-\x20\x7f-\x9f#\u2028\u2029]|\s")
_UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")
_UTF32_BOMS = (b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff")


def _sitemap_value(line: str) -> str | None:
    """The value of a ``Sitemap:`` line (comment and whitespace removed), else ``None``."""
    content = line.split("#", 1)[0]
    name, colon, value = content.partition(":")
    if not colon or name.strip().lower() != "sitemap":
        return None
    value = value.strip()
    return value or None


def sitemaps_from_robots(text: str | bytes) -> list[str]:
    """Every ``Sitemap:`` URL in a robots.txt, in file order, exactly as written.

    Bytes are decoded as UTF-8 (RFC 9309), undecodable bytes replaced; a leading BOM is
    skipped. Duplicates are kept: the caller decides whether they matter.
    """
    if isinstance(text, bytes):
        encoding = "utf-16" if text.startswith(_UTF16_BOMS) else "utf-8"
        text = text.decode(encoding, errors="replace")
    text = text.removeprefix(_BOM)
    found: list[str] = []
    for line in _LINE_BREAK.split(text):
        value = _sitemap_value(line)
        if value is not None:
            found.append(value)
    return found


def check_sitemap_url(url: str) -> str:
    """Return ``url`` if it can go on a ``Sitemap:`` line, else raise :class:`SitemapUrlError`.

    It must be an absolute http(s) URL without whitespace, control characters or ``#`` (a
    robots.txt parser would cut the line at a ``#``; a line break would inject a new line).
    """
    bad = _FORBIDDEN.search(url)
    if bad is not None:
        char = bad.group()
        what = "'#'" if char == "#" else f"character {char!r}"
        if len(f"a{char}b".splitlines()) > 1:
            what += " (a line break)"
        shown = url if char in "# " else ascii(url)  # never print the line break itself
        raise SitemapUrlError(
            f"a robots.txt Sitemap: URL cannot contain {what}", source=shown or "<empty URL>"
        )
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - raises ValueError for a bad port
    except ValueError as exc:
        raise SitemapUrlError(f"not a valid URL ({exc})", source=url) from None
    if not is_http_scheme(parts.scheme) or not parts.hostname:
        raise SitemapUrlError(
            "a sitemap URL must be an absolute http(s) URL", source=url or "<empty URL>"
        )
    return url


def sitemap_line(url: str) -> str:
    """The robots.txt line for ``url``: ``Sitemap: URL`` (no line break)."""
    return f"Sitemap: {check_sitemap_url(url)}"


@dataclass(frozen=True, slots=True)
class RobotsUpdate:
    """What :func:`update_robots` did: ``"unchanged"``, ``"replaced"`` or ``"added"``."""

    path: str
    action: str
    line: str

    @property
    def changed(self) -> bool:
        return self.action != "unchanged"


def updated_robots(data: bytes, url: str) -> tuple[bytes, str]:
    """The new robots.txt bytes with a ``Sitemap:`` line for ``url``, and the action taken.

    - A line already giving exactly ``url``: nothing changes (idempotent).
    - A line giving the same URL spelt differently (``HTTP://Example.COM:443/...``): that
      line's content becomes ``Sitemap: url``; its line ending and a trailing comment stay.
    - Otherwise ``Sitemap: url`` is appended. It ends with the file's own line ending (the
      first one found, else ``\\n``); a file without a final line break keeps having none.
    """
    line = sitemap_line(url)
    if data.startswith(_UTF32_BOMS):
        raise SitemapError(
            "robots.txt is UTF-32; RFC 9309 wants UTF-8 (convert it, then run again)"
        )
    if data.startswith(_UTF16_BOMS):
        return _updated_utf16(data, url)
    if b"\x00" in data:
        raise SitemapError(
            "robots.txt holds NUL bytes (UTF-16 without a byte order mark?); RFC 9309 "
            "wants UTF-8, so it is left as it is"
        )
    if not line.isascii():
        try:
            data.decode("utf-8")
        except UnicodeDecodeError:
            raise SitemapError(
                "robots.txt is not UTF-8, so a non-ASCII Sitemap: line cannot be added to "
                "it without mixing encodings"
            ) from None
    chunks = _BYTE_LINES.findall(data)
    texts = [chunk.decode("utf-8", errors="replace") for chunk in chunks]
    if texts:
        texts[0] = texts[0].removeprefix(_BOM)
    values = [_sitemap_value(text.rstrip("\r\n")) for text in texts]
    if url in values:
        return data, "unchanged"
    for i, value in enumerate(values):
        if value is not None and same_url(value, url):
            body = chunks[i].rstrip(b"\r\n")
            ending = chunks[i][len(body) :]
            bom = _BOM_BYTES if i == 0 and body.startswith(_BOM_BYTES) else b""
            comment = body.partition(b"#")[2]
            new = bom + line.encode("utf-8")
            if b"#" in body:
                new += b" #" + comment
            chunks[i] = new + ending
            return b"".join(chunks), "replaced"
    eol = next((c[len(c.rstrip(b"\r\n")) :] for c in chunks if c.endswith((b"\r", b"\n"))), b"")
    encoded = line.encode("utf-8")
    if not data or data == _BOM_BYTES:
        return data + encoded + (eol or b"\n"), "added"
    if data.endswith((b"\r", b"\n")):
        return data + encoded + eol, "added"
    return data + (eol or b"\n") + encoded, "added"


def _updated_utf16(data: bytes, url: str) -> tuple[bytes, str]:
    """Edit a UTF-16 robots.txt (with a byte order mark) in its own encoding.

    The text is edited as UTF-8 and encoded back with the same byte order and mark, so
    every unchanged line keeps its exact bytes; undecodable UTF-16 is refused untouched.
    """
    codec = "utf-16-le" if data.startswith(b"\xff\xfe") else "utf-16-be"
    try:
        text = data[2:].decode(codec)
    except UnicodeDecodeError:
        raise SitemapError(
            "robots.txt starts with a UTF-16 byte order mark but is not valid UTF-16; "
            "it is left as it is"
        ) from None
    new, action = updated_robots(text.encode("utf-8", "surrogatepass"), url)
    if action == "unchanged":
        return data, action
    return data[:2] + new.decode("utf-8", "surrogatepass").encode(codec, "surrogatepass"), action


def read_robots(path: str | os.PathLike[str]) -> bytes:
    """The bytes of an existing robots.txt, or a :class:`SitemapError` naming the file."""
    name = os.fspath(path)
    try:
        with open(name, "rb") as fh:
            return fh.read()
    except FileNotFoundError:
        raise SitemapError(
            "no such file (robots.txt must exist to be updated)", source=name
        ) from None
    except IsADirectoryError:
        raise SitemapError("is a directory, not a file", source=name) from None
    except OSError as exc:
        raise SitemapError(f"cannot read ({exc.strerror or exc})", source=name) from None


def update_robots(path: str | os.PathLike[str], url: str, *, dry_run: bool = False) -> RobotsUpdate:
    """Make the robots.txt at ``path`` point at ``url``; see :func:`updated_robots`.

    The file must exist (a typo in the path should not create a stray file). It is replaced
    atomically and only when something changes; on any failure it is left untouched and a
    :class:`~sitemapconv.errors.SitemapError` naming the file is raised. ``dry_run`` reports
    the action without writing.
    """
    name = os.fspath(path)
    data = read_robots(name)
    try:
        new, action = updated_robots(data, url)
    except SitemapUrlError:
        raise
    except SitemapError as exc:
        raise SitemapError(exc.reason, source=name) from None
    line = sitemap_line(url)
    if new == data or dry_run:
        return RobotsUpdate(name, action, line)
    try:
        with atomic_path(name) as out:
            out.write(new)
    except OSError as exc:
        raise SitemapError(f"cannot write ({exc.strerror or exc})", source=name) from None
    return RobotsUpdate(name, action, line)
