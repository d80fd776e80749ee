"""The types that the verbs hand back, for annotations: statistics, results, the cache.

They are public but live apart from the verbs in :mod:`sitemapconv`, as httpx keeps its
verbs and its response types in one short list: ``import sitemapconv`` gives what a caller
calls and catches; ``sitemapconv.types`` what a caller may want to name in a signature.
Names whose modules pull in threads or hishel are imported on first use.
"""

from typing import TYPE_CHECKING, Any

from ._diff import Comparison, DiffStats
from ._discover import Found
from ._filters import FilterStats

if TYPE_CHECKING:
    from ._cache import HttpCache
    from ._follow.results import FollowStats

_LAZY = {"FollowStats": "._follow.results", "HttpCache": "._cache"}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name], "sitemapconv"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["Comparison", "DiffStats", "FilterStats", "FollowStats", "Found", "HttpCache"]
