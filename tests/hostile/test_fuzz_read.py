"""No exception other than SitemapError escapes read() or the iteration of a Document.

Mutated valid sitemaps and feeds (see tests/hostile/mutations.py) go through every reader,
detected and forced. The normal suite runs a bounded, derandomized sample; the long-running
fuzzer in tests/fuzz/ explores the same space for as long as it is given.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.hostile.mutations import FORMATS, SEEDS, mutated, read_everything


def test_every_seed_reads_cleanly() -> None:
    for seed in SEEDS:
        assert read_everything(seed, None) > 0


@settings(
    max_examples=200,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(data=mutated(), format=st.sampled_from(FORMATS))
def test_mutated_input_raises_only_sitemap_error(data: bytes, format: str | None) -> None:
    read_everything(data, format)
