"""Long-running fuzzer for ``sitemapconv.read``: only SitemapError may escape, on any input.

Not collected by pytest (``norecursedirs`` holds ``fuzz``). Two engines:

- atheris (coverage-guided, ``pip install atheris``)::

      python tests/fuzz/fuzz_read.py -max_total_time=600 tests/fuzz/corpus

  The first byte of each input picks the format (detected, or one of the six forced, or txt);
  the rest is the document. The corpus folder is filled with the valid seeds on first use.
  A crash is written by libFuzzer as ``crash-<sha1>``; replay it with
  ``python tests/fuzz/fuzz_read.py crash-<sha1>``.

- hypothesis (no extra install), random mutations of the same seeds as the normal suite::

      python tests/fuzz/fuzz_read.py --hypothesis --examples 200000

Run from the repository root so ``tests`` is importable.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

FORMAT_COUNT = 7


def _split(data: bytes) -> tuple[bytes, str | None]:
    from tests.hostile.mutations import FORMATS

    if not data:
        return data, None
    return data[1:], FORMATS[data[0] % FORMAT_COUNT]


def _atheris(argv: list[str]) -> None:
    import atheris

    with atheris.instrument_imports():
        pass
    from tests.hostile.mutations import SEEDS, read_everything

    corpus = [a for a in argv[1:] if not a.startswith("-") and Path(a).is_dir()]
    for folder in corpus:
        if not any(Path(folder).iterdir()):
            for i, seed in enumerate(SEEDS):
                for f in range(FORMAT_COUNT):
                    (Path(folder) / f"seed-{i}-{f}").write_bytes(bytes([f]) + seed)

    def one_input(data: bytes) -> None:
        document, format = _split(data)
        read_everything(document, format)

    atheris.Setup(argv, one_input)
    atheris.Fuzz()


def _hypothesis(examples: int) -> None:
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    from tests.hostile.mutations import FORMATS, mutated, read_everything

    @settings(
        max_examples=examples,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(data=mutated(), format=st.sampled_from(FORMATS))
    def fuzz(data: bytes, format: str | None) -> None:
        read_everything(data, format)

    fuzz()
    print(f"{examples} examples, no exception other than SitemapError")


def main() -> None:
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--hypothesis", action="store_true")
    parser.add_argument("--examples", type=int, default=100_000)
    known, rest = parser.parse_known_args()
    if known.hypothesis:
        _hypothesis(known.examples)
    else:
        _atheris([sys.argv[0], *rest])


if __name__ == "__main__":
    main()
