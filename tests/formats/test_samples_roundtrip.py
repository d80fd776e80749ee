"""The 7 × 7 matrix: read(write(read(x))) keeps the URLs, their order and their dates."""

from __future__ import annotations

import datetime as dt
import io

import pytest

import sitemapconv
from sitemapconv._model import When
from tests.conftest import SAMPLES

FORMATS = ["xml", "index", "rss", "atom", "atom03", "txt", "jsonfeed"]
SAMPLE_OF = {
    "xml": "sitemap.xml",
    "index": "sitemap-index.xml",
    "rss": "feed.rss",
    "atom": "feed.atom",
    "atom03": "feed.atom03",
    "txt": "urls.txt",
    "jsonfeed": "feed.json",
}
DATED = {"xml", "index", "rss", "atom", "atom03", "jsonfeed"}


def _same_instant(a: When, b: When) -> bool:
    """Equal instants; a date-only value is compared as its date."""
    a_is_date = not isinstance(a, dt.datetime)
    b_is_date = not isinstance(b, dt.datetime)
    if a_is_date or b_is_date:
        da = a if a_is_date else a.date()  # type: ignore[union-attr]
        db = b if b_is_date else b.date()  # type: ignore[union-attr]
        return bool(da == db)
    assert isinstance(a, dt.datetime) and isinstance(b, dt.datetime)
    if (a.tzinfo is None) != (b.tzinfo is None):
        return False
    return a == b


@pytest.mark.parametrize("target", FORMATS)
@pytest.mark.parametrize("source", FORMATS)
def test_roundtrip(source: str, target: str) -> None:
    original = list(sitemapconv.read(SAMPLES / SAMPLE_OF[source]))
    assert original, f"sample for {source} has no entries"
    buf = io.BytesIO()
    sitemapconv.write(original, buf, target, on_warning=lambda message: None)
    back = list(sitemapconv.read(buf.getvalue(), target))
    assert [e.loc for e in back] == [e.loc for e in original]
    if source in DATED and target in DATED:
        for before, after in zip(original, back, strict=True):
            if before.lastmod is not None:
                assert after.lastmod is not None, (before.loc, target)
                assert _same_instant(before.lastmod, after.lastmod), (
                    before.loc,
                    before.lastmod,
                    after.lastmod,
                )


def test_detected_format_of_each_sample() -> None:
    for fmt, name in SAMPLE_OF.items():
        with sitemapconv.read(SAMPLES / name) as doc:
            assert doc.format == fmt
