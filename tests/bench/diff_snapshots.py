"""Compare two 1,000,000-URL sitemaps with ``--diff``: time and peak memory; run by hand.

    python tests/bench/diff_snapshots.py          # --n 200000 for a quicker run

Writes ``old.xml`` and ``new.xml`` into ``tests/bench/out/diff/`` (about 90 MB each, reused):
the new snapshot drops 1% of the old URLs, adds 1% new ones and changes the lastmod of 4%.
Then runs ``sitemapconv new.xml --diff old.xml -t jsonl -o changes.jsonl`` in a fresh
process and reports its wall and CPU time and peak RSS (``ru_maxrss`` of the child), and
checks the counts. What the comparison keeps in memory is one ~60-byte record per old URL
(see :mod:`sitemapconv._diff`); neither side is held as entries.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

OUT = Path(__file__).parent / "out" / "diff"
SM = "http://www.sitemaps.org/schemas/sitemap/0.9"
PAGE = "https://www.example.com/products/category-{}/item-{}.html"


def _write(path: Path, rows: list[tuple[int, int]]) -> None:
    with path.open("w", encoding="utf-8") as out:
        out.write(f'<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="{SM}">\n')
        for i, day in rows:
            out.write(
                f"<url><loc>{PAGE.format(i % 977, i)}</loc>"
                f"<lastmod>2024-{1 + day // 28:02d}-{1 + day % 28:02d}</lastmod></url>\n"
            )
        out.write("</urlset>\n")


def generate(n: int) -> None:
    rng = random.Random(20)
    old_rows = [(i, rng.randrange(300)) for i in range(n)]
    dropped = set(rng.sample(range(n), n // 100))
    changed = set(rng.sample(sorted(set(range(n)) - dropped), n * 4 // 100))
    new_rows = [(i, (day + 1) % 300 if i in changed else day) for i, day in old_rows]
    new_rows = [row for row in new_rows if row[0] not in dropped]
    new_rows += [(n + k, rng.randrange(300)) for k in range(n // 100)]
    rng.shuffle(new_rows)  # another order: matching must not depend on it
    expected = {
        "added": n // 100,
        "removed": len(dropped),
        "changed": len(changed),
        "unchanged": n - len(dropped) - len(changed),
    }
    OUT.mkdir(parents=True, exist_ok=True)
    _write(OUT / f"old-{n}.xml", old_rows)
    _write(OUT / f"new-{n}.xml", new_rows)
    (OUT / f"expected-{n}.json").write_text(json.dumps(expected))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1_000_000)
    parser.add_argument("--generate", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.generate:
        generate(args.n)
        return
    old, new = OUT / f"old-{args.n}.xml", OUT / f"new-{args.n}.xml"
    expected_file = OUT / f"expected-{args.n}.json"
    if not (old.exists() and new.exists() and expected_file.exists()):
        # In another process: a forked child's ru_maxrss starts from its parent's size, so
        # the measuring process must stay small.
        subprocess.run([sys.executable, __file__, "--n", str(args.n), "--generate"], check=True)
    expected = json.loads(expected_file.read_text())
    exe = Path(sys.executable).with_name("sitemapconv")
    out = OUT / "changes.jsonl"
    start = time.perf_counter()
    command = [str(exe), str(new), "--diff", str(old), "-t", "jsonl", "-o", str(out)]
    command += ["--max-bytes", str(10**9)]  # each file is over the default cap of 100 MB
    child = subprocess.Popen(
        command,
        stderr=subprocess.PIPE,
    )
    assert child.stderr is not None
    stderr = child.stderr.read().decode()
    _, status, usage = os.wait4(child.pid, 0)  # this child's own resource usage
    child.returncode = os.waitstatus_to_exitcode(status)
    wall = time.perf_counter() - start
    if child.returncode != 0:
        sys.exit(stderr)
    counts = {"added": 0, "removed": 0, "changed": 0}
    with out.open(encoding="utf-8") as lines:
        for line in lines:
            counts[json.loads(line)["change"]] += 1
    summary = stderr.strip().splitlines()[-1]
    assert all(counts[k] == expected[k] for k in counts), (counts, expected)
    assert f"{expected['unchanged']:,} unchanged" in summary, summary
    cpu = usage.ru_utime + usage.ru_stime
    print(
        f"{args.n:,} URLs each side ({old.stat().st_size / 1e6:.0f} MB + "
        f"{new.stat().st_size / 1e6:.0f} MB): wall {wall:.1f} s, CPU {cpu:.1f} s, "
        f"peak RSS {usage.ru_maxrss / 1024:.0f} MB; {summary}"
    )


if __name__ == "__main__":
    main()
