"""The pass over a JSON Feed (https://www.jsonfeed.org/version/1.1/).

The document is parsed whole, as the JSON Feed reader does (its size is bounded by the
source's ``max_bytes``). Rules from the specification: ``version``, ``title`` and ``items``
are required at the top level; every item needs an ``id`` (a string) and ``content_html`` or
``content_text``; URLs follow the validator's URL rules; dates are RFC 3339. JSON carries no
line numbers for its members, so problems name the item (and its URL) instead.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from .._dates import parse_w3c
from . import Counted, Pass
from .urls import check_url

VERSION_PREFIX = "https://jsonfeed.org/version/"
_RFC3339 = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$")
_URL_MEMBERS = ("home_page_url", "feed_url")
_ITEM_URLS = ("url", "external_url", "image", "banner_image")


def check_jsonfeed(stream: Counted, p: Pass) -> None:
    out = p.out
    data = stream.read()
    try:
        feed = json.loads(data.decode("utf-8-sig"))
    except UnicodeDecodeError:
        out.error("encoding", "the file is not valid UTF-8; a JSON Feed must be UTF-8", line=1)
        return
    except json.JSONDecodeError as exc:
        out.error("syntax", f"not well-formed JSON: {exc.msg}", line=exc.lineno, column=exc.colno)
        return
    if not isinstance(feed, dict):
        out.error("jsonfeed", "the top level of a JSON Feed must be an object", line=1)
        return
    version = feed.get("version")
    if not (isinstance(version, str) and version.startswith(VERSION_PREFIX)):
        out.error(
            "jsonfeed",
            f"'version' must be the JSON Feed version URL ({VERSION_PREFIX}1.1)",
            line=1,
        )
    if not _text(feed, "title"):
        out.error("jsonfeed", "the feed has no 'title' (required)", line=1)
    for name in _URL_MEMBERS:
        value = feed.get(name)
        if value is not None:
            _url(p, value, f"feed's '{name}'", None)
    items = feed.get("items")
    if not isinstance(items, list):
        out.error("jsonfeed", "the feed has no 'items' array (required)", line=1)
        return
    seen: dict[str, int] = {}
    for number, item in enumerate(items, start=1):
        _item(p, number, item, seen)


def _item(p: Pass, number: int, item: object, seen: dict[str, int]) -> None:
    out = p.out
    if not isinstance(item, dict):
        out.error("jsonfeed", f"item {number} is not an object")
        return
    p.counted(None)
    url_value = item.get("url")
    shown = url_value if isinstance(url_value, str) else None
    ident = item.get("id")
    if ident is None or ident == "":
        out.error("jsonfeed", f"item {number} has no 'id' (required)", url=shown)
    elif not isinstance(ident, str):
        out.warning("jsonfeed", f"item {number}: 'id' should be a string, not {ident!r}", url=shown)
    if not _text(item, "content_html") and not _text(item, "content_text"):
        out.error(
            "jsonfeed",
            f"item {number} has neither 'content_html' nor 'content_text' (one is required)",
            url=shown,
        )
    for name in _ITEM_URLS:
        value = item.get(name)
        if value is not None:
            url = _url(p, value, f"'{name}' of item {number}", shown)
            if name == "url" and url:
                first = seen.setdefault(url, number)
                if first != number:
                    out.warning(
                        "duplicate",
                        f"item {number} repeats the URL of item {first}; list each once",
                        url=url,
                    )
    for name in ("date_published", "date_modified"):
        value = item.get(name)
        if value is None:
            continue
        text = value.strip() if isinstance(value, str) else ""
        if not text:
            out.error("empty-tag", f"item {number}'s '{name}' is empty", url=shown)
        elif not _RFC3339.match(text) or parse_w3c(text) is None:
            out.error(
                "feed-date",
                f"item {number}'s '{name}' must be an RFC 3339 date-time such as "
                f"2024-05-01T10:30:00Z; found {text!r}",
                url=shown,
            )


def _url(p: Pass, value: object, what: str, shown: str | None) -> str | None:
    if not isinstance(value, str):
        p.out.error("jsonfeed", f"{what} must be a string URL, not {value!r}", url=shown)
        return None
    return check_url(p.out, value, line=None, what=what, scope=p.scope)


def _text(obj: Mapping[str, Any], name: str) -> str | None:
    value = obj.get(name)
    return value.strip() or None if isinstance(value, str) else None
