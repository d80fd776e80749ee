"""``--validate``: check the INPUTs against the protocol and print the report."""

from __future__ import annotations

from dataclasses import replace

import typer

from .options import CliOptions


def run_validate(opts: CliOptions) -> None:
    """Validate with the command line's read options (User-Agent, headers, timeout,
    retries, ``--max-bytes``, ``--allow-private``), print the report, then exit."""
    from .._report import FORMATS, run

    assert opts.validate is not None
    if opts.validate.report not in FORMATS:
        raise typer.BadParameter("use text or json", param_hint="--report")
    raise typer.Exit(
        run(
            list(opts.inputs),
            report_format=opts.validate.report,
            location=opts.filters.base_url,
            follow=opts.read.follow,
            options=replace(opts.read, follow=False),
        )
    )
