"""What validation finds: :class:`Problem`, the :class:`Report` that holds them, and the
per-file :class:`Collector` the checks write into.

A site owner acts on each problem, so each one carries the file, the line, the URL concerned,
a stable rule id (for machines and grepping) and a message that states the rule in plain
words. A broken 50,000-URL sitemap can break one rule 50,000 times; the collector keeps the
first ``max_per_rule`` of each rule per file and only counts the rest, so memory stays bounded
while the totals stay exact.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

Severity = Literal["error", "warning"]

#: How many problems of one rule are kept per file; the rest are counted, not stored.
DEFAULT_MAX_PER_RULE = 100


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with a sitemap or feed."""

    severity: Severity
    source: str
    line: int | None
    url: str | None
    rule: str
    message: str
    column: int | None = None


@dataclass(slots=True)
class Report:
    """The outcome of validating one or more sources (a followed index adds its children)."""

    problems: list[Problem] = field(default_factory=list)
    errors: int = 0
    warnings: int = 0
    #: Problems counted in ``errors``/``warnings`` but not stored (over ``max_per_rule``).
    suppressed: int = 0
    #: Every source looked at, in order.
    sources: list[str] = field(default_factory=list)
    #: URLs (entries, child sitemaps, feed items, text lines) checked over all sources.
    urls: int = 0

    @property
    def ok(self) -> bool:
        """True when there is no error (warnings allowed): exit code 0."""
        return self.errors == 0

    def merge(self, other: Report) -> None:
        self.problems.extend(other.problems)
        self.errors += other.errors
        self.warnings += other.warnings
        self.suppressed += other.suppressed
        self.sources.extend(other.sources)
        self.urls += other.urls

    def as_dict(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "errors": self.errors,
            "warnings": self.warnings,
            "suppressed": self.suppressed,
            "urls": self.urls,
            "sources": list(self.sources),
            "problems": [asdict(p) for p in self.problems],
        }

    def to_json(self, *, indent: int | None = 2) -> str:
        return json.dumps(self.as_dict(), indent=indent, ensure_ascii=False)


class Collector:
    """Where the checks of one source report; knows the source name and the per-rule cap."""

    def __init__(self, report: Report, source: str, max_per_rule: int) -> None:
        self.report = report
        self.source = source
        self.max_per_rule = max_per_rule
        self._per_rule: Counter[str] = Counter()

    def add(
        self,
        severity: Severity,
        rule: str,
        message: str,
        *,
        line: int | None = None,
        url: str | None = None,
        column: int | None = None,
    ) -> None:
        report = self.report
        if severity == "error":
            report.errors += 1
        else:
            report.warnings += 1
        self._per_rule[rule] += 1
        if self._per_rule[rule] > self.max_per_rule:
            report.suppressed += 1
            return
        report.problems.append(Problem(severity, self.source, line, url, rule, message, column))

    def error(self, rule: str, message: str, **where: Any) -> None:
        self.add("error", rule, message, **where)

    def warning(self, rule: str, message: str, **where: Any) -> None:
        self.add("warning", rule, message, **where)
