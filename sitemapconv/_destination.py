"""Where output bytes go, and how a file is replaced without ever destroying it.

An output path is one of:

* a **regular file**, existing or not: written to a temporary file in the same folder and
  renamed over it only when the whole write succeeded (POSIX ``rename`` is atomic within one
  file system), so a failed run leaves the old file as it was;
* a **symlink**: followed. Its final target is the file replaced, in the target's own folder,
  and the link stays a link (replacing the link itself would cut it from its target);
* a **character device, FIFO or socket** (``/dev/null``, ``/dev/stdout``, a named pipe): opened
  and written in place. Renaming a regular file over ``/dev/null`` would destroy the node.
  A path naming this process's own stdout or stderr is written through that descriptor, so
  ``-o /dev/stdout`` works whatever stdout is (a pipe, a socket, a terminal, a file);
* a **directory**, an empty path or a path with a NUL byte: refused with a
  :class:`~sitemapconv.errors.WriteError` before anything is created.

The temporary name starts with the target's name (``.sitemap.xml.k3j9x2ab.tmp``), shortened
so that it always fits the file system's name limit (``NAME_MAX``, 255 bytes on most): a
valid 246-character output name must not fail because of the name of its temporary file.
"""

from __future__ import annotations

import errno
import os
import secrets
import socket
import stat
import sys
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from typing import BinaryIO, cast

from . import _termination as termination
from .errors import WriteError

#: Bytes added around the target's name in a temporary name: "." + "." + 8 + ".tmp".
_TEMP_EXTRA = 1 + 1 + 8 + 4
_DEFAULT_NAME_MAX = 255


def describe(exc: OSError) -> str:
    """The plain-words part of an OSError (``No space left on device``)."""
    return exc.strerror or str(exc)


@dataclass(frozen=True, slots=True)
class Target:
    """A resolved output path: ``real`` is where the bytes end up."""

    path: str
    real: str
    #: ``"file"``: replaced atomically; ``"special"``: opened and written in place.
    kind: str
    #: The existing file's status, for keeping its mode and owner; ``None`` when new.
    existing: os.stat_result | None


def resolve(path: str) -> Target:
    """Classify an output path (see the module docstring); raise WriteError when unusable."""
    if not path:
        raise WriteError("the output path is empty", source="<empty path>")
    if "\x00" in path:
        raise WriteError("the output path contains a NUL character", source=repr(path))
    try:
        st = os.stat(path)
    except FileNotFoundError:
        st = None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise WriteError("too many levels of symbolic links", source=path) from None
        raise WriteError(f"cannot write ({describe(exc)})", source=path) from None
    if st is not None and stat.S_ISDIR(st.st_mode):
        raise WriteError("is a directory; give a file name", source=path)
    if st is not None and (not stat.S_ISREG(st.st_mode) or _own_stream(st) is not None):
        # A device, FIFO or socket; or the very file our stdout/stderr is (``-o /dev/stdout
        # >> log``): replacing that would drop what the shell meant to append to.
        return Target(path, path, "special", st)
    real = os.path.realpath(path)
    folder = os.path.dirname(real)
    if not os.path.isdir(folder):
        raise WriteError(f"cannot write: the folder {folder} does not exist", source=path)
    return Target(path, real, "file", st)


def _name_max(folder: str) -> int:
    try:
        return os.pathconf(folder, "PC_NAME_MAX")
    except (OSError, ValueError):
        return _DEFAULT_NAME_MAX


def temp_name(real: str) -> str:
    """A fresh hidden temporary path beside ``real`` that fits the folder's name limit."""
    folder, base = os.path.split(real)
    room = max(0, _name_max(folder or ".") - _TEMP_EXTRA)
    # NAME_MAX counts bytes: cut the encoded name, dropping a character split in two.
    stem = os.fsencode(base)[:room].decode("utf-8", "ignore")
    return os.path.join(folder, f".{stem}.{secrets.token_hex(4)}.tmp")


def create_temp(real: str, source: str) -> tuple[int, str]:
    """Create (``O_EXCL``) a temporary file beside ``real``; it is tracked until committed."""
    for _ in range(100):
        tmp = temp_name(real)
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600)
        except FileExistsError:
            continue
        except OSError as exc:
            raise WriteError(f"cannot write ({describe(exc)})", source=source) from None
        termination.pending.add(tmp)
        return fd, tmp
    raise WriteError("cannot create a temporary file", source=source)  # pragma: no cover


def new_mode() -> int:
    """The mode a plain ``open`` would give a new file under the current umask."""
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def prepare(tmp: str, existing: os.stat_result | None) -> None:
    """Give the temporary file the mode (and, as root, the owner) of the file it replaces."""
    if existing is None:
        os.chmod(tmp, new_mode())
        return
    os.chmod(tmp, stat.S_IMODE(existing.st_mode))
    if os.geteuid() == 0:
        with suppress(OSError):
            os.chown(tmp, existing.st_uid, existing.st_gid)


def commit(tmp: str, real: str) -> None:
    """Rename the temporary file over the target (atomic) and stop tracking it."""
    os.replace(tmp, real)
    termination.pending.discard(tmp)


def discard(tmp: str) -> None:
    """Remove a temporary file that will not be committed."""
    with suppress(FileNotFoundError):
        os.unlink(tmp)
    termination.pending.discard(tmp)


def _own_stream(st: os.stat_result) -> int | None:
    """The descriptor (1 or 2) that already is this file, if any."""
    for fd in (1, 2):
        with suppress(OSError):
            if os.path.samestat(st, os.fstat(fd)):
                return fd
    return None


def _open_special(target: Target) -> BinaryIO:
    assert target.existing is not None
    fd = _own_stream(target.existing)
    try:
        if fd is not None:
            return os.fdopen(os.dup(fd), "wb")
        if stat.S_ISSOCK(target.existing.st_mode):
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            try:
                sock.connect(target.path)
                return cast(BinaryIO, sock.makefile("wb"))
            finally:
                sock.close()  # the file object keeps its own reference
        return open(target.path, "wb")
    except OSError as exc:
        raise WriteError(f"cannot write ({describe(exc)})", source=target.path) from None


@contextmanager
def written(path: str) -> Iterator[BinaryIO]:
    """Yield a binary file for ``path``; on success the target holds exactly what was written.

    A regular file (or a link to one) is replaced atomically; a special file is written in
    place. On any failure, or a signal, the temporary file is removed and the old target
    stays as it was.
    """
    target = resolve(path)
    if target.kind == "special":
        fh = _open_special(target)
        try:
            yield fh
            fh.close()  # flushes: a full device (/dev/full) fails here, and must say so
        finally:
            with suppress(OSError):
                fh.close()
        return
    fd, tmp = create_temp(target.real, path)
    ok = False
    try:
        with os.fdopen(fd, "wb") as fh:
            yield fh
        prepare(tmp, target.existing)
        commit(tmp, target.real)
        ok = True
    finally:
        if not ok:
            discard(tmp)


def stdout_failed() -> None:
    """After a failed write to stdout, point descriptor 1 at /dev/null.

    Python flushes ``sys.stdout`` once more at exit; with the unwritable bytes still buffered
    it would print a second, traceback-like complaint after our one-line error.
    """
    with suppress(OSError, ValueError, AttributeError):
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)
