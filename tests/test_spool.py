"""The one spooling module: memory first, a temporary file once the body is big."""

from __future__ import annotations

import io

import pytest

from sitemapconv._spool import SpooledBody, new_spool, spool_copy


def test_spooled_body_counts_and_copies_in_order_past_the_memory_limit() -> None:
    out = io.BytesIO()
    with SpooledBody(max_memory=1024) as body:
        for i in range(2000):
            body.add(f"<url>{i}</url>\n".encode())
        body.add_text("<url>é</url>\n")
        body.add_many(b"<url>a</url>\n<url>b</url>\n", 2)
        assert body._file._rolled  # type: ignore[attr-defined]  # really on disk
        body.copy_to(out)
        assert body.count == 2003
        assert body.size == len(out.getvalue())
    lines = out.getvalue().decode().splitlines()
    assert lines[0] == "<url>0</url>" and lines[1999] == "<url>1999</url>"
    assert lines[2000:] == ["<url>é</url>", "<url>a</url>", "<url>b</url>"]


def test_spool_copy_rewinds_and_rolls_to_disk() -> None:
    data = bytes(range(256)) * 100
    spool = spool_copy(io.BytesIO(data), max_memory=1000)
    try:
        assert spool._rolled  # type: ignore[attr-defined]
        assert spool.read() == data
    finally:
        spool.close()


class _Broken(io.RawIOBase):
    def readable(self) -> bool:
        return True

    def readinto(self, b: bytearray) -> int:  # type: ignore[override]
        raise ConnectionResetError("peer went away")


def test_spool_copy_propagates_a_failed_read() -> None:
    with pytest.raises(ConnectionResetError):
        spool_copy(_Broken())  # type: ignore[arg-type]


def test_spool_copy_calls_close_whether_or_not_the_copy_works() -> None:
    closed: list[str] = []
    spool = spool_copy(io.BytesIO(b"body"), close=lambda: closed.append("ok"))
    try:
        assert spool.read() == b"body"
    finally:
        spool.close()
    with pytest.raises(ConnectionResetError):
        spool_copy(_Broken(), close=lambda: closed.append("broken"))  # type: ignore[arg-type]
    assert closed == ["ok", "broken"]


def test_new_spool_stays_in_memory_up_to_its_limit() -> None:
    spool = new_spool(max_memory=10)
    try:
        spool.write(b"0123456789")
        assert not spool._rolled  # type: ignore[attr-defined]
        spool.write(b"x")
        assert spool._rolled  # type: ignore[attr-defined]
    finally:
        spool.close()
