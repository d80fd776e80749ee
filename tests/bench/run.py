"""Benchmark sitemapconv against the tools users would otherwise pick.

    .venv/bin/pip install -e '.[bench]'
    .venv/bin/python tests/bench/run.py [--repeat 5] [--big] [--only LABEL]

Generates the seeded inputs (generate.py), then runs every tool on every input in a fresh
process (tasks.py), interleaving the tools round by round so that machine noise hits them
alike, and prints a Markdown table of medians: wall time, CPU time, and the ratios against
the reference. Targets are judged on CPU time, which other processes on a shared machine
disturb far less than wall time. Not collected by pytest: speed targets live here, never in
timed tests.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import suppress
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
    validate: bool = False  # check written output against the XSD (reported in the table)
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
            validate=True,
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
                validate=True,
            )
        )
    return out


def run_task(task: str, path: Path, validate: bool = False) -> dict[str, float]:
    argv = [sys.executable, str(HERE / "tasks.py"), task, str(path)]
    proc = subprocess.run(
        [*argv, "--validate"] if validate else argv, capture_output=True, text=True, check=False
    )
    lines = proc.stdout.strip().splitlines()
    if not lines:
        return {"error": 1.0}
    data: dict[str, float] = json.loads(lines[-1])
    return data


def timed_process(argv: list[str]) -> tuple[float, float]:
    """Wall and CPU (user + system) seconds of one child process, start-up included."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    subprocess.run(argv, check=True, capture_output=True)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def end_to_end(files: dict[str, Path], repeat: int) -> list[str]:
    """`sitemapconv rss-50k.rss -t xml -o out.xml` as a process vs start + read + write.

    Each part is measured on its own, the same way: start is a process that only imports
    the CLI; read is reading the same RSS file; write is writing, to a file on disk, the
    very entries that the conversion writes (read from the same RSS file beforehand).
    """
    exe = Path(sys.executable).with_name("sitemapconv")
    rss = files["rss-50k"]
    whole: list[tuple[float, float]] = []
    start: list[tuple[float, float]] = []
    noop: list[tuple[float, float]] = []
    reads: list[dict[str, float]] = []
    writes: list[dict[str, float]] = []
    with tempfile.TemporaryDirectory(dir=rss.parent) as tmp:
        for _ in range(repeat):  # interleaved like the cases
            whole.append(timed_process([str(exe), str(rss), "-t", "xml", "-o", f"{tmp}/out.xml"]))
            start.append(timed_process([sys.executable, "-c", "import sitemapconv._cli.main"]))
            noop.append(timed_process([str(exe), "--version"]))
            reads.append(run_task("sitemapconv_read", rss))
            writes.append(run_task("sitemapconv_write", rss))

    def med(rows: list[tuple[float, float]], i: int) -> float:
        return statistics.median(r[i] for r in rows)

    def med_task(rows: list[dict[str, float]], key: str) -> float:
        return statistics.median(r.get(key, 0.0) for r in rows)

    lines = ["", "End to end, `sitemapconv rss-50k.rss -t xml -o out.xml`, medians:", ""]
    lines += ["| | process | start (import cli) | read | write | start + read + write | |"]
    lines += ["|---|---|---|---|---|---|---|"]
    for label, i, key in (("wall (s)", 0, "seconds"), ("CPU (s)", 1, "cpu_seconds")):
        w, s = med(whole, i), med(start, i)
        r, wr = med_task(reads, key), med_task(writes, key)
        budget = s + r + wr
        lines.append(
            f"| {label} | {w:.2f} | {s:.2f} | {r:.2f} | {wr:.2f} | {budget:.2f} | "
            f"{'OK' if w <= budget else 'OVER'} ({w / budget:.2f}×) |"
        )
    lines += [
        "",
        f"For comparison, `sitemapconv --version` (interpreter, imports and the CLI framework "
        f"doing nothing): {med(noop, 0):.2f} s wall, {med(noop, 1):.2f} s CPU.",
    ]
    return lines


def import_cost() -> list[str]:
    code = (
        "import sys, time; t=time.perf_counter(); import sitemapconv; "
        "d=time.perf_counter()-t; heavy=[m for m in ('httpx','rich','feedparser','typer')"
        " if m in sys.modules]; print(f'{d*1000:.0f} ms; heavy modules loaded: "
        '{heavy or "none"}\')'
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    return ["", f"`import sitemapconv`: {out.stdout.strip() or out.stderr.strip()}"]


def machine() -> str:
    model = "unknown CPU"
    with suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    return (
        f"{platform.system()} {platform.machine()}, {model}, {os.cpu_count()} CPUs "
        f"(nproc {len(os.sched_getaffinity(0))}), load average {load}, "
        f"Python {platform.python_version()}"
    )


def verdict(case: Case, medians: dict[str, dict[str, float]]) -> str:
    """Judged on CPU seconds (steadier than wall time on a shared machine)."""
    if not case.check:
        return ""
    kind, _, value = case.check.partition(":")
    limit = float(value)
    ours = medians.get("sitemapconv", {})
    ref = medians.get(case.reference, {})
    if kind == "rss":
        peak = ours.get("peak_rss_mb", 1e9)
        return f"{'OK' if peak <= limit else 'MISSED'} ({peak:.0f} MB)"
    if not ours.get("cpu_seconds") or not ref.get("cpu_seconds"):
        return "n/a"
    ratio = ours["cpu_seconds"] / ref["cpu_seconds"]
    if kind == "le":
        return f"{'OK' if ratio <= limit else 'MISSED'} ({ratio:.2f}×)"
    return f"{'OK' if 1 / ratio >= limit else 'MISSED'} ({1 / ratio:.1f}× faster)"


KEYS = ("seconds", "cpu_seconds", "entries", "peak_rss_mb")


def table(todo: list[Case]) -> list[str]:
    lines = [
        "| input | tool | wall (s) | CPU (s) | entries/s (CPU) | peak RSS (MB) "
        "| ratio wall | ratio CPU | target | |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for case in todo:
        medians: dict[str, dict[str, float]] = {}
        valid: dict[str, bool] = {}
        for name, runs in case.results.items():
            ok = [r for r in runs if "error" not in r]
            medians[name] = {k: statistics.median(r[k] for r in ok) for k in KEYS} if ok else {}
            if any("xsd_valid" in r for r in ok):
                valid[name] = all(r.get("xsd_valid") for r in ok)
        ref = medians.get(case.reference, {})
        first = True
        for name, _task in case.tools:
            m = medians.get(name) or {}
            label = case.label if first else ""
            if not m:
                err = next((r for r in case.results[name] if "error" in r), {})
                lines.append(f"| {label} | {name} | failed: {err.get('error')} |||||||")
                first = False
                continue
            ratio_wall = f"{m['seconds'] / ref['seconds']:.2f}×" if ref else ""
            ratio_cpu = f"{m['cpu_seconds'] / ref['cpu_seconds']:.2f}×" if ref else ""
            target = case.target if first else ""
            if name in valid:
                target += f"{'; ' if target else ''}XSD-valid: {'yes' if valid[name] else 'NO'}"
            lines.append(
                f"| {label} | {name} | {m['seconds']:.3f} | {m['cpu_seconds']:.3f} | "
                f"{m['entries'] / m['cpu_seconds']:,.0f} | {m['peak_rss_mb']:.0f} | "
                f"{ratio_wall} | {ratio_cpu} | {target} | "
                f"{verdict(case, medians) if first else ''} |"
            )
            first = False
    return lines


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
                result = run_task(task, files[case.input], case.validate)
                case.results.setdefault(name, []).append(result)
    lines = [
        f"Machine: {machine()}.",
        f"{args.repeat} runs of each tool, interleaved; medians. Targets judged on CPU time.",
        "",
        *table(todo),
    ]
    if not args.only:
        lines += end_to_end(files, args.repeat)
    lines += import_cost()
    print("\n".join(lines))


if __name__ == "__main__":
    main()
