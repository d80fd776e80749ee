"""The connection layer under the one HTTP client: check the address actually connected to.

An httpcore *network backend* resolves the host once (:func:`sitemapconv._addresses.resolve`),
asks the request's :class:`~sitemapconv._door.Door` about each address, and connects to the
address it checked, so there is no second lookup an attacker's DNS could answer differently
(DNS rebinding). A pooled connection is checked again against the policy of every request
that reuses it, on its first write.

The same streams enforce the per-attempt deadline: every connect, read and write gets at
most the time left before the deadline the request carries, so a body dripped a byte at a
time, headers that never end or an endless run of ``102 Processing`` answers (RFC 9110
§15.2) stop at ``timeout`` after the attempt began.

The policy and deadline travel in ``request.extensions`` (:data:`sitemapconv._door.POLICY_KEY`)
and are made visible to the backend through a context variable while the transport works on
that request, including while its body is read.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Iterable, Iterator
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any

import httpcore
import httpx

from . import _addresses as addresses
from ._door import POLICY_KEY, Door, Refused

if TYPE_CHECKING:
    from ._options import ReadOptions

Policy = tuple[Door, "float | None"]

_POLICY: ContextVar[Policy | None] = ContextVar("sitemapconv_policy", default=None)


def _left(timeout: float | None, error: type[Exception]) -> float | None:
    """``timeout`` cut to what is left of the current request's deadline."""
    policy = _POLICY.get()
    deadline = policy[1] if policy is not None else None
    if deadline is None:
        return timeout
    left = deadline - time.monotonic()
    if left <= 0:
        raise error("the request took longer than its timeout (connect to last byte)")
    return left if timeout is None else min(timeout, left)


def _door(default: Door) -> Door:
    policy = _POLICY.get()
    return policy[0] if policy is not None else default


def _policy(request: httpx.Request, default: Door) -> Policy:
    policy = request.extensions.get(POLICY_KEY)
    if isinstance(policy, tuple) and len(policy) == 2 and isinstance(policy[0], Door):
        return policy
    return (default, None)


# --- sync -----------------------------------------------------------------------------------


class _Stream(httpcore.NetworkStream):
    def __init__(self, inner: httpcore.NetworkStream, host: str, ip: str, door: Door) -> None:
        self._inner = inner
        self._host = host
        self._ip = ip
        self._default = door

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        return self._inner.read(max_bytes, _left(timeout, httpcore.ReadTimeout))

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        reason = _door(self._default).refuse_address(self._host, self._ip)
        if reason is not None:  # a pooled connection reused under a stricter policy
            raise Refused(f"request refused: {reason}")
        self._inner.write(buffer, _left(timeout, httpcore.WriteTimeout))

    def close(self) -> None:
        self._inner.close()

    def start_tls(
        self,
        ssl_context: Any,
        server_hostname: str | None = None,
        timeout: float | None = None,
    ) -> httpcore.NetworkStream:
        inner = self._inner.start_tls(
            ssl_context, server_hostname, _left(timeout, httpcore.ConnectTimeout)
        )
        return _Stream(inner, self._host, self._ip, self._default)

    def get_extra_info(self, info: str) -> Any:
        return self._inner.get_extra_info(info)


class GuardedBackend(httpcore.NetworkBackend):
    """Resolve once, check each address with the door, connect to a checked address."""

    def __init__(self, door: Door) -> None:
        self._door = door
        self._inner = httpcore.SyncBackend()

    def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[Any] | None = None,
    ) -> httpcore.NetworkStream:
        door = _door(self._door)
        ips = addresses.resolve(host, port)
        if not ips:
            raise httpcore.ConnectError(f"cannot resolve host name {host!r}")
        refused: str | None = None
        failure: Exception | None = None
        for ip in ips:
            reason = door.refuse_address(host, ip)
            if reason is not None:
                refused = reason
                continue
            try:
                stream = self._inner.connect_tcp(
                    ip,
                    port,
                    timeout=_left(timeout, httpcore.ConnectTimeout),
                    local_address=local_address,
                    socket_options=socket_options,
                )
            except (httpcore.ConnectError, httpcore.ConnectTimeout) as exc:
                failure = exc
                continue
            return _Stream(stream, host, ip, self._door)
        if failure is not None:
            raise failure
        raise Refused(f"refused: {refused}")

    def sleep(self, seconds: float) -> None:
        time.sleep(seconds)


class _DeadlineBody(httpx.SyncByteStream):
    """A response body read under its request's policy (deadline and door)."""

    def __init__(self, inner: httpx.SyncByteStream, policy: Policy) -> None:
        self._inner = inner
        self._policy = policy

    def __iter__(self) -> Iterator[bytes]:
        chunks = iter(self._inner)
        while True:
            token = _POLICY.set(self._policy)
            try:
                chunk = next(chunks, None)
            finally:
                _POLICY.reset(token)
            if chunk is None:
                return
            yield chunk

    def close(self) -> None:
        self._inner.close()


class GuardedTransport(httpx.HTTPTransport):
    """httpx's transport over :class:`GuardedBackend` (no environment proxies: the check
    must see the address connected to)."""

    def __init__(self, options: ReadOptions, door: Door, limits: httpx.Limits) -> None:
        ssl_context = httpx.create_ssl_context()  # SSL_CERT_FILE / SSL_CERT_DIR honoured
        super().__init__(verify=ssl_context, limits=limits, trust_env=False)
        self._door = door
        self._pool = httpcore.ConnectionPool(
            ssl_context=ssl_context,
            max_connections=limits.max_connections,
            max_keepalive_connections=limits.max_keepalive_connections,
            keepalive_expiry=limits.keepalive_expiry,
            network_backend=GuardedBackend(door),
        )

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        policy = _policy(request, self._door)
        token = _POLICY.set(policy)
        try:
            response = super().handle_request(request)
        finally:
            _POLICY.reset(token)
        assert isinstance(response.stream, httpx.SyncByteStream)
        response.stream = _DeadlineBody(response.stream, policy)
        return response


# --- async ----------------------------------------------------------------------------------


class _AsyncStream(httpcore.AsyncNetworkStream):
    def __init__(self, inner: httpcore.AsyncNetworkStream, host: str, ip: str, door: Door) -> None:
        self._inner = inner
        self._host = host
        self._ip = ip
        self._default = door

    async def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        return await self._inner.read(max_bytes, _left(timeout, httpcore.ReadTimeout))

    async def write(self, buffer: bytes, timeout: float | None = None) -> None:
        reason = _door(self._default).refuse_address(self._host, self._ip)
        if reason is not None:
            raise Refused(f"request refused: {reason}")
        await self._inner.write(buffer, _left(timeout, httpcore.WriteTimeout))

    async def aclose(self) -> None:
        await self._inner.aclose()

    async def start_tls(
        self,
        ssl_context: Any,
        server_hostname: str | None = None,
        timeout: float | None = None,
    ) -> httpcore.AsyncNetworkStream:
        inner = await self._inner.start_tls(
            ssl_context, server_hostname, _left(timeout, httpcore.ConnectTimeout)
        )
        return _AsyncStream(inner, self._host, self._ip, self._default)

    def get_extra_info(self, info: str) -> Any:
        return self._inner.get_extra_info(info)


class AsyncGuardedBackend(httpcore.AsyncNetworkBackend):
    """The async twin of :class:`GuardedBackend` (name lookup in a worker thread)."""

    def __init__(self, door: Door) -> None:
        self._door = door
        self._inner = httpcore.AnyIOBackend()

    async def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[Any] | None = None,
    ) -> httpcore.AsyncNetworkStream:
        import anyio.to_thread

        door = _door(self._door)
        ips = await anyio.to_thread.run_sync(addresses.resolve, host, port)
        if not ips:
            raise httpcore.ConnectError(f"cannot resolve host name {host!r}")
        refused: str | None = None
        failure: Exception | None = None
        for ip in ips:
            reason = door.refuse_address(host, ip)
            if reason is not None:
                refused = reason
                continue
            try:
                stream = await self._inner.connect_tcp(
                    ip,
                    port,
                    timeout=_left(timeout, httpcore.ConnectTimeout),
                    local_address=local_address,
                    socket_options=socket_options,
                )
            except (httpcore.ConnectError, httpcore.ConnectTimeout) as exc:
                failure = exc
                continue
            return _AsyncStream(stream, host, ip, self._door)
        if failure is not None:
            raise failure
        raise Refused(f"refused: {refused}")

    async def sleep(self, seconds: float) -> None:
        await self._inner.sleep(seconds)


class _AsyncDeadlineBody(httpx.AsyncByteStream):
    def __init__(self, inner: httpx.AsyncByteStream, policy: Policy) -> None:
        self._inner = inner
        self._policy = policy

    async def __aiter__(self) -> AsyncIterator[bytes]:
        chunks = self._inner.__aiter__()
        while True:
            token = _POLICY.set(self._policy)
            try:
                chunk = await chunks.__anext__()
            except StopAsyncIteration:
                return
            finally:
                _POLICY.reset(token)
            yield chunk

    async def aclose(self) -> None:
        await self._inner.aclose()


class AsyncGuardedTransport(httpx.AsyncHTTPTransport):
    """The async twin of :class:`GuardedTransport`."""

    def __init__(self, options: ReadOptions, door: Door, limits: httpx.Limits) -> None:
        ssl_context = httpx.create_ssl_context()  # SSL_CERT_FILE / SSL_CERT_DIR honoured
        super().__init__(verify=ssl_context, limits=limits, trust_env=False)
        self._door = door
        self._pool = httpcore.AsyncConnectionPool(
            ssl_context=ssl_context,
            max_connections=limits.max_connections,
            max_keepalive_connections=limits.max_keepalive_connections,
            keepalive_expiry=limits.keepalive_expiry,
            network_backend=AsyncGuardedBackend(door),
        )

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        policy = _policy(request, self._door)
        token = _POLICY.set(policy)
        try:
            response = await super().handle_async_request(request)
        finally:
            _POLICY.reset(token)
        assert isinstance(response.stream, httpx.AsyncByteStream)
        response.stream = _AsyncDeadlineBody(response.stream, policy)
        return response
