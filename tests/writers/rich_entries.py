"""Entries with every extension, shared by the table-writer tests."""

from __future__ import annotations

import datetime as dt

from sitemapconv._model import Alternate, Entry, Image, News, Video, VideoPrice, VideoTvShow

UTC = dt.timezone.utc


def sample_entries() -> list[Entry]:
    return [
        Entry(
            loc="https://example.com/a",
            lastmod=dt.datetime(2024, 5, 1, 12, 30, tzinfo=UTC),
            changefreq="daily",
            priority=0.8,
            title='Title, with "quotes"\nand a newline',
            summary="Résumé",
            id="urn:uuid:1",
            published=dt.date(2024, 4, 1),
            sitemap="https://example.com/sitemap.xml",
            images=[
                Image(loc="https://example.com/img 1.jpg", caption="cap"),
                Image(loc="https://example.com/img2.jpg"),
            ],
            videos=[
                Video(
                    thumbnail_loc="https://example.com/t.jpg",
                    title="V",
                    description="D",
                    content_loc="https://example.com/v.mp4",
                    duration=600,
                    content_segment_locs=[("https://example.com/seg1", 30)],
                    tags=["a", "b"],
                    prices=[VideoPrice(value="1.99", currency="EUR")],
                    tvshow=VideoTvShow(show_title="S", premier_date=dt.date(2020, 1, 2)),
                ),
                Video(player_loc="https://example.com/player?id=2"),
            ],
            news=News(
                publication_name="The Paper",
                publication_language="en",
                publication_date=dt.datetime(2024, 5, 1, 8, 0),
                title="Big news",
            ),
            alternates=[
                Alternate(href="https://example.com/de/a", hreflang="de"),
                Alternate(href="https://example.com/a", hreflang="x-default"),
                Alternate(href="https://example.com/amp/a", rel="amphtml"),
            ],
            mobile=True,
        ),
        Entry(loc="https://example.com/b"),
        Entry(loc="https://example.com/ü?q=1,2", lastmod=dt.date(2023, 1, 2), priority=0.0),
    ]
