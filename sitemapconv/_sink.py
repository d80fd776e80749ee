"""Output destinations: paths (atomic), ``-`` (stdout) and binary files, optionally gzipped.

A path is written to a temporary file in the same directory and renamed over the target
only when the whole write succeeded, so a failed run never leaves a partial file and never
clobbers an existing one; links, devices and pipes are handled by
:mod:`sitemapconv._destination`.
"""

from __future__ import annotations

import gzip
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import BinaryIO, Union

from . import _destination as destination
from .errors import WriteError

Dest = Union[str, "os.PathLike[str]", BinaryIO]


def dest_name(dest: Dest) -> str:
    if isinstance(dest, (str, os.PathLike)):
        text = os.fspath(dest)
        return "<stdout>" if text == "-" else text
    name = getattr(dest, "name", None)
    return name if isinstance(name, str) else "<stream>"


@contextmanager
def atomic_path(path: str) -> Iterator[BinaryIO]:
    """Yield a file for ``path``: a temp file beside the real target, renamed over it only on
    success; a device, FIFO or socket is written in place (see :mod:`sitemapconv._destination`).
    """
    with destination.written(path) as fh:
        yield fh


@contextmanager
def gzipped(out: BinaryIO, enabled: bool) -> Iterator[BinaryIO]:
    """Wrap ``out`` in a deterministic gzip stream (mtime 0) when enabled."""
    if not enabled:
        yield out
        return
    with gzip.GzipFile(fileobj=out, mode="wb", mtime=0, filename="") as gz:
        yield gz  # type: ignore[misc]


@contextmanager
def open_dest(dest: Dest, *, gzip_output: bool = False) -> Iterator[BinaryIO]:
    """Open any destination for binary writing, atomically for paths.

    A failure to write (a full disk, ``/dev/full``, an I/O error) becomes a
    :class:`~sitemapconv.errors.WriteError` naming the destination; a closed pipe stays a
    ``BrokenPipeError`` (the reader went away, as with ``| head``).
    """
    name = dest_name(dest)
    try:
        if isinstance(dest, (str, os.PathLike)):
            path = os.fspath(dest)
            if path == "-":
                if sys.stdout is None:
                    raise WriteError("stdout is closed", source=name)
                out = sys.stdout.buffer
                try:
                    with gzipped(out, gzip_output) as fh:
                        yield fh
                    out.flush()
                except OSError as exc:
                    if not isinstance(exc, BrokenPipeError):
                        destination.stdout_failed()
                    raise
                return
            with atomic_path(path) as raw, gzipped(raw, gzip_output) as fh:
                yield fh
            return
        with gzipped(dest, gzip_output) as fh:
            yield fh
    except BrokenPipeError:
        raise
    except OSError as exc:
        raise WriteError(f"cannot write ({destination.describe(exc)})", source=name) from None
