"""The simulated outside world of the security tests: which loopback address is "public".

No test may send traffic beyond loopback, yet the rules under test are about public starts
and internal targets. So the address classifier and the name resolver are replaced, the
same way for the library under test and for a CLI run in a subprocess (:data:`CLI`):

* ``127.0.0.1`` counts as a **public** address (the hostile "internet" server listens there);
* every other ``127.x.y.z`` stays **loopback** (the "internal" services, e.g. ``127.0.0.2``);
* names ending in ``.test`` resolve through :data:`NAMES` (``public.test`` -> 127.0.0.1,
  ``internal.test`` -> 127.0.0.2); ``rebind.test`` answers 127.0.0.1 the first time and
  127.0.0.2 afterwards (a DNS-rebinding attacker).

``socket.getaddrinfo`` itself is patched, so every resolver in the process (httpx's,
httpcore's, sitemapconv's) sees the same answers: nothing about HTTP is mocked.
"""

from __future__ import annotations

import socket
import threading
from collections.abc import Callable
from typing import Any

PUBLIC_IP = "127.0.0.1"
INTERNAL_IP = "127.0.0.2"

NAMES: dict[str, str] = {"public.test": PUBLIC_IP, "internal.test": INTERNAL_IP}

_real_getaddrinfo = socket.getaddrinfo
_lock = threading.Lock()
lookups: dict[str, int] = {}


def _answer(host: str) -> str | None:
    if host in NAMES:
        return NAMES[host]
    if host == "rebind.test":
        with _lock:
            n = lookups.get(host, 0)
        return PUBLIC_IP if n == 0 else INTERNAL_IP
    return None


def fake_getaddrinfo(host: Any, port: Any, *args: Any, **kwargs: Any) -> Any:
    name = host.decode() if isinstance(host, bytes) else host
    if isinstance(name, str) and name.endswith(".test"):
        ip = _answer(name)
        with _lock:
            lookups[name] = lookups.get(name, 0) + 1
        if ip is None:
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        return _real_getaddrinfo(ip, port, *args, **kwargs)
    return _real_getaddrinfo(host, port, *args, **kwargs)


def public_classifier(real: Callable[[str], str | None]) -> Callable[[str], str | None]:
    def classify(address: str) -> str | None:
        if address.split("%", 1)[0] in (PUBLIC_IP, f"::ffff:{PUBLIC_IP}"):
            return None
        return real(address)

    return classify


def install() -> Callable[[], None]:
    """Patch the process; returns the undo."""
    import sitemapconv._addresses as addresses

    real = addresses.address_class
    lookups.clear()
    socket.getaddrinfo = fake_getaddrinfo
    addresses.address_class = public_classifier(real)

    def undo() -> None:
        socket.getaddrinfo = _real_getaddrinfo
        addresses.address_class = real

    return undo


#: Run the CLI in a subprocess inside the simulated world: ``[sys.executable, "-c", CLI, ...]``.
CLI = (
    "import sys; from tests.security import world; world.install(); "
    "sys.argv[0] = 'sitemapconv'; from sitemapconv._cli.main import main; main()"
)
