"""The pass over a plain-text sitemap: UTF-8, one absolute URL per line, nothing else
(sitemaps.org protocol, "Text file")."""

from __future__ import annotations

from .._urls import is_http
from . import Counted, Pass
from .urls import check_url


def check_text(stream: Counted, p: Pass) -> None:
    out = p.out
    for number, raw in enumerate(iter(stream.read_line, b""), start=1):
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            out.error(
                "encoding",
                f"the line is not valid UTF-8 (byte 0x{raw[exc.start]:02X}); a text sitemap "
                "must be UTF-8",
                line=number,
            )
            line = raw.decode("utf-8", errors="replace")
        if number == 1:
            line = line.removeprefix("\ufeff")
        text = line.strip()
        if not text:
            continue
        p.counted(number)
        if not is_http(text) and "://" not in text:
            out.error(
                "text-line",
                "the line is not a URL: a text sitemap holds one absolute URL per line and "
                "nothing else (no comments, headers or relative paths)",
                line=number,
                url=text[:200],
            )
            continue
        url = check_url(out, text, line=number, scope=p.scope)
        if url:
            p.duplicates.add(url, number)
