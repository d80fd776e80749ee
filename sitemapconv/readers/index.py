"""Minimal sitemapindex reader (placeholder; the full reader replaces it)."""

from __future__ import annotations

from .sitemap import SitemapReader


class IndexReader(SitemapReader):
    name = "index"
    aliases = ("sitemapindex",)
    root = "sitemapindex"
    item = "sitemap"
