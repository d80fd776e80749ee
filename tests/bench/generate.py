"""Seeded generator for the benchmark inputs (tests/bench/README in the project README).

Every file is a pure function of the seed, so two runs on two machines measure the same
bytes. Files are written to ``tests/bench/out/`` (gitignored) and reused when present.
"""

from __future__ import annotations

import argparse
import gzip
import random
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path
from xml.sax.saxutils import escape

OUT = Path(__file__).parent / "out"
SM = "http://www.sitemaps.org/schemas/sitemap/0.9"
FREQS = ("always", "hourly", "daily", "weekly", "monthly", "yearly", "never")
WORDS = [
    "alpha",
    "beta",
    "gamma",
    "delta",
    "news",
    "sport",
    "world",
    "tech",
    "books",
    "garden",
    "travel",
    "food",
]


def _urls(rng: random.Random, n: int, host: str = "https://www.example.com") -> Iterator[str]:
    for i in range(n):
        path = "/".join(rng.choice(WORDS) for _ in range(rng.randint(2, 5)))
        yield f"{host}/{path}/item-{i}?ref={rng.randint(0, 99999)}&amp;lang=en"


def _when(rng: random.Random) -> datetime:
    base = datetime(2020, 1, 1, tzinfo=timezone.utc)
    return base + timedelta(seconds=rng.randint(0, 5 * 365 * 86400))


def urlset(path: Path, n: int, seed: int = 1) -> None:
    rng = random.Random(seed)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(f'<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="{SM}">\n')
        for url in _urls(rng, n):
            when = _when(rng).isoformat()
            fh.write(
                f"  <url>\n    <loc>{url}</loc>\n    <lastmod>{when}</lastmod>\n"
                f"    <changefreq>{rng.choice(FREQS)}</changefreq>\n"
                f"    <priority>{rng.randint(0, 10) / 10:.1f}</priority>\n  </url>\n"
            )
        fh.write("</urlset>\n")


def extensions(path: Path, n: int, seed: int = 2) -> None:
    rng = random.Random(seed)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(
            '<?xml version="1.0" encoding="UTF-8"?>\n'
            f'<urlset xmlns="{SM}"\n'
            '  xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"\n'
            '  xmlns:video="http://www.google.com/schemas/sitemap-video/1.1"\n'
            '  xmlns:news="http://www.google.com/schemas/sitemap-news/0.9"\n'
            '  xmlns:xhtml="http://www.w3.org/1999/xhtml">\n'
        )
        for i, url in enumerate(_urls(rng, n)):
            when = _when(rng).isoformat()
            fh.write(
                f"<url><loc>{url}</loc><lastmod>{when}</lastmod>"
                f"<image:image><image:loc>https://img.example.com/{i}.jpg</image:loc>"
                f"<image:caption>Picture {i} &amp; more</image:caption></image:image>"
                f"<video:video><video:thumbnail_loc>https://img.example.com/t{i}.jpg"
                f"</video:thumbnail_loc><video:title>Video {i}</video:title>"
                f"<video:description>About video {i}</video:description>"
                f"<video:content_loc>https://cdn.example.com/{i}.mp4</video:content_loc>"
                f"<video:duration>{rng.randint(1, 600)}</video:duration>"
                f"<video:tag>{rng.choice(WORDS)}</video:tag><video:tag>{rng.choice(WORDS)}"
                f"</video:tag></video:video>"
                f"<news:news><news:publication><news:name>Example Times</news:name>"
                f"<news:language>en</news:language></news:publication>"
                f"<news:publication_date>{when}</news:publication_date>"
                f"<news:title>Story {i}</news:title></news:news>"
                f'<xhtml:link rel="alternate" hreflang="de" href="{url}&amp;hl=de"/>'
                f'<xhtml:link rel="alternate" hreflang="en" href="{url}"/>'
                "</url>\n"
            )
        fh.write("</urlset>\n")


def rss(path: Path, n: int, seed: int = 3) -> None:
    rng = random.Random(seed)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(
            '<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0"><channel>\n'
            "<title>Bench feed</title><link>https://www.example.com/</link>"
            "<description>Generated</description>\n"
        )
        for i, url in enumerate(_urls(rng, n)):
            date = _when(rng).strftime("%a, %d %b %Y %H:%M:%S +0000")
            fh.write(
                f"<item><title>Item {i} &amp; co</title><link>{url}</link>"
                f'<guid isPermaLink="true">{url}</guid><pubDate>{date}</pubDate>'
                f"<description>{escape('<p>Summary ' + str(i) + '</p>')}</description></item>\n"
            )
        fh.write("</channel></rss>\n")


def atom(path: Path, n: int, seed: int = 4) -> None:
    rng = random.Random(seed)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(
            '<?xml version="1.0" encoding="UTF-8"?>\n'
            '<feed xmlns="http://www.w3.org/2005/Atom"><title>Bench</title>'
            "<id>https://www.example.com/</id><updated>2024-01-01T00:00:00Z</updated>"
            "<author><name>bench</name></author>\n"
        )
        for i, url in enumerate(_urls(rng, n)):
            when = _when(rng).strftime("%Y-%m-%dT%H:%M:%SZ")
            fh.write(
                f'<entry><title>Entry {i}</title><link rel="alternate" href="{url}"/>'
                f"<id>{url}</id><updated>{when}</updated>"
                f"<summary>Summary {i}</summary></entry>\n"
            )
        fh.write("</feed>\n")


def atom03(path: Path, n: int, seed: int = 5) -> None:
    rng = random.Random(seed)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(
            '<?xml version="1.0" encoding="UTF-8"?>\n'
            '<feed version="0.3" xmlns="http://purl.org/atom/ns#"><title>Bench</title>'
            '<link rel="alternate" type="text/html" href="https://www.example.com/"/>'
            "<modified>2024-01-01T00:00:00Z</modified>\n"
        )
        for i, url in enumerate(_urls(rng, n)):
            when = _when(rng).strftime("%Y-%m-%dT%H:%M:%SZ")
            fh.write(
                f'<entry><title>Entry {i}</title><link rel="alternate" type="text/html" '
                f'href="{url}"/><id>{url}</id><modified>{when}</modified>'
                f"<issued>{when}</issued></entry>\n"
            )
        fh.write("</feed>\n")


def text(path: Path, n: int, seed: int = 6) -> None:
    rng = random.Random(seed)
    with open(path, "w", encoding="utf-8") as fh:
        for url in _urls(rng, n):
            fh.write(url.replace("&amp;", "&") + "\n")


def index(directory: Path, children: int, per_child: int, seed: int = 7) -> Path:
    """An index of ``children`` local urlsets, with relative child locations."""
    directory.mkdir(parents=True, exist_ok=True)
    with open(directory / "index.xml", "w", encoding="utf-8") as fh:
        fh.write(f'<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="{SM}">\n')
        for c in range(children):
            name = f"child-{c}.xml"
            urlset(directory / name, per_child, seed=seed + c)
            fh.write(f"  <sitemap><loc>{name}</loc></sitemap>\n")
        fh.write("</sitemapindex>\n")
    return directory / "index.xml"


def generate(out: Path = OUT, *, big: bool = False) -> dict[str, Path]:
    """Write every input once; return their paths by name."""
    out.mkdir(parents=True, exist_ok=True)
    files = {
        "urlset-50k": out / "urlset-50k.xml",
        "urlset-50k-gz": out / "urlset-50k.xml.gz",
        "extensions-10k": out / "extensions-10k.xml",
        "rss-50k": out / "rss-50k.rss",
        "atom-50k": out / "atom-50k.atom",
        "atom03-10k": out / "atom03-10k.atom03",
        "text-50k": out / "text-50k.txt",
        "urlset-300k": out / "urlset-300k.xml",
    }
    makers = {
        "urlset-50k": lambda p: urlset(p, 50_000),
        "extensions-10k": lambda p: extensions(p, 10_000),
        "rss-50k": lambda p: rss(p, 50_000),
        "atom-50k": lambda p: atom(p, 50_000),
        "atom03-10k": lambda p: atom03(p, 10_000),
        "text-50k": lambda p: text(p, 50_000),
        "urlset-300k": lambda p: urlset(p, 300_000, seed=11),
    }
    for name, maker in makers.items():
        if not files[name].exists():
            maker(files[name])
    if not files["urlset-50k-gz"].exists():
        files["urlset-50k-gz"].write_bytes(gzip.compress(files["urlset-50k"].read_bytes(), mtime=0))
    files["index-20"] = out / "index-20" / "index.xml"
    if not files["index-20"].exists():
        index(out / "index-20", 20, 2_500)
    if big:
        files["index-1m"] = out / "index-1m" / "index.xml"
        if not files["index-1m"].exists():
            index(out / "index-1m", 20, 50_000, seed=100)
    return files


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--big", action="store_true", help="also the 1,000,000-URL index")
    args = parser.parse_args()
    for name, path in generate(big=args.big).items():
        print(f"{name}: {path} ({path.stat().st_size:,} bytes)")
