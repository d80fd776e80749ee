"""Benchmark sitemapconv against the tools users would otherwise pick.

    python tests/bench/run.py [--repeat 3] [--big] [--only NAME]

Generates the seeded inputs (generate.py), then runs every tool on every input in a fresh
process (tasks.py), interleaving the tools round by round so that machine noise hits them
alike, and prints a Markdown table of medians and ratios against the reference. Not
collected by pytest: speed targets live here, never in timed tests.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))

from generate import generate  # noqa: E402


@dataclass
class Case:
    label: str
    input: str
    tools: list[tuple[str, str]]  # (display name, task)
    reference: str  # display name of the tool the ratio is taken against
    target: str = ""
    check: str = ""  # "le:1.3" ratio <= 1.3, "ge:10" reference/ours >= 10
    results: dict[str, list[dict[str, float]]] = field(default_factory=dict)


def cases(files: dict[str, Path], big: bool) -> list[Case]:
    sc = ("sitemapconv", "sitemapconv_read")
    out = [
        Case(
            "urlset 50k",
            "urlset-50k",
            [sc, ("raw lxml", "raw_lxml_urlset"), ("ultimate-sitemap-parser", "usp")],
            "raw lxml",
            "≤ 1.3× raw lxml",
            "le:1.3",
        ),
        Case("urlset 50k .gz", "urlset-50k-gz", [sc, ("raw lxml", "raw_lxml_urlset")], "raw lxml"),
        Case("extensions 10k", "extensions-10k", [sc, ("raw lxml", "raw_lxml_urlset")], "raw lxml"),
        Case(
            "rss 50k",
            "rss-50k",
            [sc, ("raw lxml", "raw_lxml_feed"), ("feedparser", "feedparser")],
            "feedparser",
            "≥ 10× faster than feedparser",
            "ge:10",
        ),
        Case(
            "atom 50k",
            "atom-50k",
            [sc, ("raw lxml", "raw_lxml_feed"), ("feedparser", "feedparser")],
            "feedparser",
            "≥ 10× faster than feedparser",
            "ge:10",
        ),
        Case(
            "atom03 10k",
            "atom03-10k",
            [sc, ("raw lxml", "raw_lxml_feed"), ("feedparser", "feedparser")],
            "feedparser",
            "≥ 10× faster than feedparser",
            "ge:10",
        ),
        Case("text 50k", "text-50k", [sc], "sitemapconv"),
        Case(
            "index, 20 children (follow)",
            "index-20",
            [("sitemapconv", "sitemapconv_follow")],
            "sitemapconv",
        ),
        Case(
            "write xml 50k",
            "urlset-50k",
            [("sitemapconv", "sitemapconv_write"), ("string formatting", "plain_write")],
            "string formatting",
            "≤ 2× string formatting",
            "le:2",
        ),
        Case(
            "stream urlset 300k (peak RSS)",
            "urlset-300k",
            [sc],
            "sitemapconv",
            "peak RSS ≤ 60 MB",
            "rss:60",
        ),
    ]
    if big:
        out.append(
            Case(
                "1,000,000 URLs: follow + split (peak RSS)",
                "index-1m",
                [("sitemapconv", "sitemapconv_split")],
                "sitemapconv",
                "peak RSS < 150 MB",
                "rss:150",
            )
        )
    return out


def run_task(task: str, path: Path) -> dict[str, float]:
    proc = subprocess.run(
        [sys.executable, str(HERE / "tasks.py"), task, str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    lines = proc.stdout.strip().splitlines()
    if not lines:
        return {"error": 1.0}
    data: dict[str, float] = json.loads(lines[-1])
    return data


def end_to_end(files: dict[str, Path], repeat: int) -> list[str]:
    """`sitemapconv big.rss -t xml -o out.xml` as a process vs start + read + write."""
    exe = Path(sys.executable).with_name("sitemapconv")
    rss = files["rss-50k"]
    whole, start = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(repeat):
            t = time.perf_counter()
            subprocess.run(
                [str(exe), str(rss), "-t", "xml", "-o", f"{tmp}/out.xml"],
                check=True,
                capture_output=True,
            )
            whole.append(time.perf_counter() - t)
            t = time.perf_counter()
            subprocess.run([sys.executable, "-c", "import sitemapconv.cli"], check=True)
            start.append(time.perf_counter() - t)
        xml_out = Path(tmp) / "out.xml"
        read_t = statistics.median(
            run_task("sitemapconv_read", rss).get("seconds", 0) for _ in range(repeat)
        )
        write_t = statistics.median(
            run_task("sitemapconv_write", xml_out).get("seconds", 0) for _ in range(repeat)
        )
    w, s = statistics.median(whole), statistics.median(start)
    budget = s + read_t + write_t
    return [
        "",
        "End to end, `sitemapconv rss-50k.rss -t xml -o out.xml`:",
        f"{w:.2f} s for the process; interpreter start + import {s:.2f} s, "
        f"read {read_t:.2f} s, write {write_t:.2f} s (sum {budget:.2f} s): "
        f"{'OK' if w <= budget * 1.05 else 'OVER'}",
    ]


def import_cost() -> list[str]:
    code = (
        "import sys, time; t=time.perf_counter(); import sitemapconv; "
        "d=time.perf_counter()-t; heavy=[m for m in ('httpx','rich','feedparser','typer')"
        " if m in sys.modules]; print(f'{d*1000:.0f} ms; heavy modules loaded: "
        '{heavy or "none"}\')'
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    return ["", f"`import sitemapconv`: {out.stdout.strip() or out.stderr.strip()}"]


def verdict(case: Case, medians: dict[str, dict[str, float]]) -> str:
    if not case.check:
        return ""
    kind, _, value = case.check.partition(":")
    limit = float(value)
    ours = medians.get("sitemapconv", {})
    ref = medians.get(case.reference, {})
    if kind == "rss":
        return "OK" if ours.get("peak_rss_mb", 1e9) <= limit else "MISSED"
    if not ours.get("seconds") or not ref.get("seconds"):
        return "n/a"
    ratio = ours["seconds"] / ref["seconds"]
    if kind == "le":
        return "OK" if ratio <= limit else "MISSED"
    return "OK" if 1 / ratio >= limit else "MISSED"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--big", action="store_true", help="also the 1,000,000-URL follow + split run"
    )
    parser.add_argument("--only", help="run only cases whose label contains this")
    args = parser.parse_args()
    files = generate(big=args.big)
    todo = [c for c in cases(files, args.big) if not args.only or args.only in c.label]
    for _ in range(args.repeat):  # rounds: every tool once per round, interleaved
        for case in todo:
            for name, task in case.tools:
                case.results.setdefault(name, []).append(run_task(task, files[case.input]))
    lines = [
        f"Machine: {platform.machine()}, {platform.processor() or 'cpu'}, "
        f"Python {platform.python_version()}, {args.repeat} runs each, medians.",
        "",
        "| input | tool | time (s) | entries/s | peak RSS (MB) | ratio | target | |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for case in todo:
        medians: dict[str, dict[str, float]] = {}
        for name, runs in case.results.items():
            ok = [r for r in runs if "error" not in r]
            if not ok:
                medians[name] = {}
                continue
            medians[name] = {
                k: statistics.median(r[k] for r in ok)
                for k in ("seconds", "entries", "peak_rss_mb")
            }
        ref = medians.get(case.reference, {}).get("seconds")
        first = True
        for name, _task in case.tools:
            m = medians.get(name) or {}
            if not m:
                err = next((r for r in case.results[name] if "error" in r), {})
                lines.append(
                    f"| {case.label if first else ''} | {name} | failed: "
                    f"{err.get('error')} | | | | | |"
                )
                first = False
                continue
            ratio = f"{m['seconds'] / ref:.2f}×" if ref else ""
            lines.append(
                f"| {case.label if first else ''} | {name} | {m['seconds']:.3f} | "
                f"{m['entries'] / m['seconds']:,.0f} | {m['peak_rss_mb']:.0f} | {ratio} | "
                f"{case.target if first else ''} | {verdict(case, medians) if first else ''} |"
            )
            first = False
    if not args.only:
        lines += end_to_end(files, args.repeat)
    lines += import_cost()
    print("\n".join(lines))


if __name__ == "__main__":
    main()
