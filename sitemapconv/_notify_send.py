"""Sending a notification request: through the door, redirects hop by hop, body capped.

httpx is imported only when a request is actually sent.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import httpx

    from ._door import Door
    from ._options import ReadOptions


def send(
    client: httpx.Client,
    door: Door,
    method: str,
    url: str,
    *,
    content: bytes | None = None,
    headers: dict[str, str] | None = None,
    follow_redirects: bool = False,
) -> httpx.Response:
    """One request through the door (deadline, address check, header scoping), its
    redirects followed hop by hop when asked; the answer's body is read up to ``max_bytes``
    only (see :func:`capped`)."""
    from ._fetch import RequestChain

    chain = RequestChain(url, door.options, door)
    while True:
        extensions = chain.begin()
        request = client.build_request(
            method,
            chain.target,
            content=content,
            headers={**(headers or {}), **chain.headers()},
            extensions=extensions,
        )
        response = capped(client.send(request, stream=True), door.options.max_bytes)
        if follow_redirects and response.is_redirect:
            chain._redirect(response)
            method, content = "GET", None
            continue
        return response


def capped(response: httpx.Response, limit: int) -> httpx.Response:
    """``response`` with at most ``limit`` bytes of its (decoded) body read.

    An engine's answer is judged by its status; its body is only quoted (200 characters)
    when the status is an error. So a longer body is cut, not an error: an answer of 200
    still means the URLs were submitted, and a hostile endpoint cannot fill memory.
    """
    import httpx

    chunks: list[bytes] = []
    room = limit
    try:
        for chunk in response.iter_bytes():
            chunks.append(chunk[:room])
            room -= len(chunks[-1])
            if room <= 0:
                break
    finally:
        response.close()
    # The body is decoded already: the new response must not decode it a second time.
    encoded = ("content-encoding", "content-length", "transfer-encoding")
    capped = httpx.Response(
        response.status_code,
        headers=[(k, v) for k, v in response.headers.multi_items() if k.lower() not in encoded],
        content=b"".join(chunks),
        request=response.request,
        extensions=response.extensions,
    )
    capped.next_request = response.next_request  # where a redirect leads (httpx sets it)
    return capped


def client(options: ReadOptions, door: Door) -> httpx.Client:
    from ._door import make_client

    return make_client(options, door)


def snippet(response: httpx.Response) -> str:
    text = " ".join(response.text.split())
    return text[:200] + ("..." if len(text) > 200 else "")
