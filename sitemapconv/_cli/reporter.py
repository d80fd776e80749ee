"""Where the command's messages go, and how library errors become exit codes.

Every mode reports through one :class:`Reporter` (stderr, one line per message, ``--quiet``
keeps only errors) and turns exceptions into exit codes with :func:`exit_codes`, so the
codes are the same in every mode: 2 for a usage error, 1 for a failure, 130 for Ctrl-C,
128+N for signal N (see :mod:`sitemapconv._termination`), 0 for a closed pipe.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager

import typer

from .. import _termination as termination
from ..errors import SitemapError, UsageError


class Reporter:
    """Where messages go: stderr, one line each; ``--quiet`` keeps only errors."""

    def __init__(self, quiet: bool) -> None:
        self.quiet = quiet
        self.warnings = 0

    def warning(self, message: str) -> None:
        self.warnings += 1
        if not self.quiet:
            print(f"sitemapconv: warning: {message}", file=sys.stderr)

    @staticmethod
    def error(message: str) -> None:
        print(f"sitemapconv: error: {message}", file=sys.stderr)

    def info(self, message: str) -> None:
        """A line shown unless ``--quiet`` (summaries)."""
        if not self.quiet:
            print(f"sitemapconv: {message}", file=sys.stderr)


@contextmanager
def exit_codes(reporter: Reporter, *, writes_output: bool = True) -> Iterator[None]:
    """Turn what the body raises into one error line and the CLI's exit code.

    ``writes_output``: a run that may leave temporary output files removes them when it is
    interrupted, and says that the output was not replaced.
    """
    try:
        with termination.terminating_signals():
            yield
    except UsageError as exc:  # unknown format, bad notify option...
        reporter.error(str(exc))
        raise typer.Exit(2) from None
    except SitemapError as exc:
        reporter.error(str(exc))
        raise typer.Exit(1) from None
    except KeyboardInterrupt:
        if writes_output:
            termination.remove_pending()
        reporter.error("interrupted")
        raise typer.Exit(130) from None
    except termination.Terminated as exc:
        if writes_output:
            termination.remove_pending()
            reporter.error(f"stopped by {exc}; the output was not replaced")
        else:
            reporter.error(f"stopped by {exc}")
        raise typer.Exit(exc.exit_code) from None
    except BrokenPipeError:
        if not writes_output:
            raise
        raise typer.Exit(0) from None
