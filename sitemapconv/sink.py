"""Output destinations: paths (atomic), ``-`` (stdout) and binary files, optionally gzipped.

A path is written to a temporary file in the same directory and renamed over the target
only when the whole write succeeded, so a failed run never leaves a partial file and never
clobbers an existing one.
"""

from __future__ import annotations

import gzip
import os
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from typing import BinaryIO, Union

from .errors import SitemapError

Dest = Union[str, "os.PathLike[str]", BinaryIO]


def dest_name(dest: Dest) -> str:
    if isinstance(dest, (str, os.PathLike)):
        text = os.fspath(dest)
        return "<stdout>" if text == "-" else text
    name = getattr(dest, "name", None)
    return name if isinstance(name, str) else "<stream>"


@contextmanager
def atomic_path(path: str) -> Iterator[BinaryIO]:
    """Yield a temp file beside ``path``; rename it over ``path`` only on success."""
    directory = os.path.dirname(os.path.abspath(path))
    try:
        fd, tmp = tempfile.mkstemp(
            prefix=f".{os.path.basename(path)}.", suffix=".tmp", dir=directory
        )
    except OSError as exc:
        raise SitemapError(f"cannot write ({exc.strerror or exc})", source=path) from None
    ok = False
    try:
        with os.fdopen(fd, "wb") as fh:
            yield fh
        try:
            mode = os.stat(path).st_mode & 0o777
        except FileNotFoundError:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        os.chmod(tmp, mode)
        os.replace(tmp, path)
        ok = True
    finally:
        if not ok:
            with suppress(FileNotFoundError):
                os.unlink(tmp)


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
    """Open any destination for binary writing, atomically for paths."""
    if isinstance(dest, (str, os.PathLike)):
        path = os.fspath(dest)
        if path == "-":
            out = sys.stdout.buffer
            with gzipped(out, gzip_output) as fh:
                yield fh
            out.flush()
            return
        with atomic_path(path) as raw, gzipped(raw, gzip_output) as fh:
            yield fh
        return
    with gzipped(dest, gzip_output) as fh:
        yield fh
