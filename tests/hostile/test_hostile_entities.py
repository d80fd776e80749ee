"""External entities and entity-expansion bombs, against every XML reader.

Every attack is tried in UTF-8 (where the readers' ampersand repair turns ``&xxe;`` into text
before lxml sees it) and in UTF-16 (which the repair passes through untouched, so lxml's own
hardening is what is tested). Nothing of the secret file may reach an entry, the metadata, a
warning or an error message, and the loopback server must get no request at all.
"""

from __future__ import annotations

import secrets
from pathlib import Path

import pytest
from pytest_httpserver import HTTPServer

from .documents import DECLARATION, KINDS, Kind
from .measure import measure

ENCODINGS = ("utf-8", "utf-16")


def encode(kind: Kind, doctype: str, x: str, encoding: str, title: str = "T") -> bytes:
    body = kind.document(x, "ok", title=title, prolog=DECLARATION + doctype + "\n")
    if encoding == "utf-8":
        return body
    return body.decode("utf-8").replace('encoding="UTF-8"', 'encoding="UTF-16"').encode(encoding)


@pytest.fixture
def secret(tmp_path: Path) -> tuple[str, Path, Path]:
    """A secret file, and a DTD that would define ``xxe`` as the secret if it were loaded."""
    value = f"TOPSECRET-{secrets.token_hex(8)}"
    secret_file = tmp_path / "secret.txt"
    secret_file.write_text(value)
    dtd = tmp_path / "evil.dtd"
    dtd.write_text(f'<!ENTITY xxe "{value}">\n<!ENTITY % leak "{value}">\n')
    return value, secret_file, dtd


ATTACKS = {
    # A general entity whose replacement text is a local file.
    "file-entity": '<!DOCTYPE r [<!ENTITY xxe SYSTEM "{secret}">]>',
    # A parameter entity pulling in a DTD that defines xxe.
    "file-parameter-entity": '<!DOCTYPE r [<!ENTITY % p SYSTEM "{dtd}"> %p;]>',
    # An external DTD subset that defines xxe.
    "file-external-dtd": '<!DOCTYPE r SYSTEM "{dtd}">',
    "http-entity": '<!DOCTYPE r [<!ENTITY xxe SYSTEM "{http}/secret">]>',
    "http-parameter-entity": '<!DOCTYPE r [<!ENTITY % p SYSTEM "{http}/evil.dtd"> %p;]>',
    "http-external-dtd": '<!DOCTYPE r SYSTEM "{http}/evil.dtd">',
}


@pytest.mark.slow
@pytest.mark.parametrize("encoding", ENCODINGS)
@pytest.mark.parametrize("attack", list(ATTACKS))
@pytest.mark.parametrize("kind", KINDS, ids=[k.name for k in KINDS])
def test_external_entities_are_never_loaded(
    kind: Kind,
    attack: str,
    encoding: str,
    secret: tuple[str, Path, Path],
    loopback: HTTPServer,
    tmp_path: Path,
) -> None:
    value, secret_file, dtd = secret
    loopback.expect_request("/secret").respond_with_data(value)
    loopback.expect_request("/evil.dtd").respond_with_data(dtd.read_text())
    doctype = ATTACKS[attack].format(
        secret=secret_file.as_uri(), dtd=dtd.as_uri(), http=loopback.url_for("").rstrip("/")
    )
    path = tmp_path / f"{kind.name}.xml"
    path.write_bytes(encode(kind, doctype, "a&xxe;", encoding, title="T&xxe;"))

    for format in (None, kind.format):
        result = measure(f"{attack} ({encoding}) {kind.name}", path, format, secret=value)
        result.check_bounds()
        assert result.leaks == [], f"the secret reached: {result.leaks}"
        assert result.outcome == "ok", result.message
        # The entry after the attack is always read; the one holding the reference is read
        # too, with the reference kept as text (UTF-8) or dropped (UTF-16).
        assert kind.url("ok") in result.locs
        assert result.count == 2
    assert loopback.log == [], "the parser contacted the network"


def laughs(levels: int = 9) -> str:
    """The billion laughs: 10**levels "lol"s if expanded (three billion bytes for 9)."""
    decls = ['<!ENTITY l0 "lol">']
    decls += [f'<!ENTITY l{i} "{f"&l{i - 1};" * 10}">' for i in range(1, levels + 1)]
    decls.append(f'<!ENTITY xxe "{f"&l{levels};" * 10}">')
    return "<!DOCTYPE r [" + "".join(decls) + "]>"


def quadratic(size: int = 100_000) -> str:
    """One 100 KB entity; used 10,000 times it would expand to 1 GB."""
    return f'<!DOCTYPE r [<!ENTITY xxe "{"x" * size}">]>'


BOMBS = {"billion-laughs": (laughs(), "&xxe;"), "quadratic-blowup": (quadratic(), "&xxe;" * 10_000)}


@pytest.mark.slow
@pytest.mark.parametrize("encoding", ENCODINGS)
@pytest.mark.parametrize("bomb", list(BOMBS))
@pytest.mark.parametrize("kind", KINDS, ids=[k.name for k in KINDS])
def test_entity_bombs_are_not_expanded(
    kind: Kind, bomb: str, encoding: str, tmp_path: Path
) -> None:
    doctype, use = BOMBS[bomb]
    path = tmp_path / f"{kind.name}.xml"
    path.write_bytes(encode(kind, doctype, use, encoding, title="T" + use))
    # Forced format too: a UTF-16 DOCTYPE longer than the detection head hides the root.
    for format in (None, kind.format):
        result = measure(f"{bomb} ({encoding}) {kind.name}", path, format)
        result.check_bounds()
        if result.outcome == "error":
            # Only detection may give up: a DOCTYPE longer than the 64 KiB head hides the root.
            assert format is None and result.error_type == "FormatError", result.message
            continue
        assert all(len(loc) < 100_000 for loc in result.locs), "an entity was expanded"
        if encoding == "utf-8":  # the references stay text; both entries are read
            assert result.count == 2
            assert kind.url("ok") in result.locs
