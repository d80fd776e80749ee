"""Every exception sitemapconv defines lives in the one tree of ``sitemapconv.errors``.

Old homes keep their names as aliases (``sitemapconv.notify.NotifyUsageError``,
``sitemapconv._door.Refused``...), so the classes are defined once and caught as one.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import sitemapconv
from sitemapconv import errors

#: Exceptions that are deliberately not SitemapErrors, with the reason.
OUTSIDE_THE_TREE = {
    # A signal turned into an exception: BaseException, so that no ``except Exception``
    # in a reader or writer can swallow it (like KeyboardInterrupt).
    "sitemapconv._termination.Terminated",
    # click's own usage-error type, formatted without "Invalid value for": the command
    # line's presentation of a missing -t, never raised by the library.
    "sitemapconv._cli.args.MissingValue",
}


def _modules() -> list[str]:
    names = [sitemapconv.__name__]
    for info in pkgutil.walk_packages(sitemapconv.__path__, prefix="sitemapconv."):
        if info.name.endswith(".__main__"):
            continue  # runs the command when imported
        names.append(info.name)
    return names


def test_every_exception_class_is_defined_in_errors() -> None:
    strays = []
    for name in _modules():
        module = importlib.import_module(name)
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if not issubclass(cls, BaseException) or not cls.__module__.startswith("sitemapconv"):
                continue
            where = f"{cls.__module__}.{cls.__qualname__}"
            if cls.__module__ != "sitemapconv.errors" and where not in OUTSIDE_THE_TREE:
                strays.append(where)
    assert sorted(set(strays)) == []


def test_usage_errors_are_one_class_under_sitemap_error() -> None:
    from sitemapconv import notify
    from sitemapconv._cli import notify_mode
    from sitemapconv._door import Refused
    from sitemapconv._registry import UnknownFormat
    from sitemapconv._robots import SitemapUrlError

    assert notify.NotifyUsageError is errors.UsageError
    assert notify_mode.UsageError is errors.UsageError
    assert issubclass(errors.UsageError, errors.SitemapError)
    assert issubclass(errors.UsageError, ValueError)  # as the twins were
    assert UnknownFormat is errors.UnknownFormat
    assert SitemapUrlError is errors.SitemapUrlError
    assert issubclass(UnknownFormat, errors.UsageError)
    assert issubclass(SitemapUrlError, errors.UsageError)
    assert Refused is errors.RefusedFetch
    assert issubclass(Refused, errors.FetchError)
