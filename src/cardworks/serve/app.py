"""The web application: a deck page, a card page, face images, and a stream of change events.

It serves nothing but these: there is no static-file route, images are looked
up by the hash of what they show in the in-memory cache, and card ids must
name a card of the deck, so no request can reach a file on disk.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
from collections.abc import AsyncIterator
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, RedirectResponse, Response, StreamingResponse
from starlette.routing import Route

from . import adapter
from .preview import Preview
from .watcher import watch

FACE_KEY = re.compile(r"[0-9a-f]{64}")
HEARTBEAT_S = 15.0
"""A comment line on idle event streams, so proxies and browsers keep them open."""


class Broadcaster:
    """Hands each new snapshot version to every open event stream."""

    def __init__(self) -> None:
        self.queues: set[asyncio.Queue[int]] = set()
        self.closed = asyncio.Event()

    def publish(self, version: int) -> None:
        for queue in self.queues:
            queue.put_nowait(version)

    async def stream(self, request: Request, version: int) -> AsyncIterator[str]:
        queue: asyncio.Queue[int] = asyncio.Queue()
        self.queues.add(queue)
        try:
            yield f"event: hello\ndata: {json.dumps({'version': version})}\n\n"
            while not self.closed.is_set():
                try:
                    latest = await asyncio.wait_for(queue.get(), HEARTBEAT_S)
                except asyncio.TimeoutError:
                    if await request.is_disconnected():
                        return
                    yield ": still here\n\n"
                    continue
                yield f"data: {json.dumps({'version': latest})}\n\n"
        finally:
            self.queues.discard(queue)


def _page(name: str, **context: Any) -> HTMLResponse:
    html = adapter.environment().get_template(f"serve/{name}.html.j2").render(**context)
    return HTMLResponse(html, headers={"Cache-Control": "no-store"})


def create_app(preview: Preview, *, watching: bool = True, allowed_hosts: list[str] | None = None) -> Starlette:
    """The ASGI application for ``preview``; with ``watching``, edits on disk reach open pages."""
    broadcaster = Broadcaster()

    async def deck(request: Request) -> Response:
        params = request.query_params
        locale = preview.locale_or_default(params.get("locale"))
        tiles = await run_in_threadpool(preview.tiles, locale)
        chosen = {"set": params.get("set", ""), "type": params.get("type", ""), "problems": params.get("problems") == "1"}
        shown = [t for t in tiles
                 if (not chosen["set"] or t.card.set_id == chosen["set"])
                 and (not chosen["type"] or chosen["type"] in t.card.types)
                 and (not chosen["problems"] or t.has_problems)]
        return _page("deck", snapshot=preview.snapshot, tiles=shown, total=len(tiles), locale=locale, chosen=chosen,
                     timing=preview.last_refresh)

    async def card(request: Request) -> Response:
        card_id = request.path_params["card_id"]
        locale = preview.locale_or_default(request.query_params.get("locale"))
        info = preview.snapshot.card(card_id)
        if info is None:
            return PlainTextResponse(f"no card {card_id!r} in this deck", status_code=404)
        views = await run_in_threadpool(preview.locale_views, card_id)
        scenarios = await run_in_threadpool(preview.scenarios, card_id)
        main = next((v for v in views if v.locale == locale), views[0] if views else None)
        return _page("card", snapshot=preview.snapshot, card=info, views=views, main=main, locale=locale,
                     rulings=preview.rulings(card_id, locale), scenarios=scenarios)

    async def face(request: Request) -> Response:
        key = request.path_params["key"]
        image = preview.image(key) if FACE_KEY.fullmatch(key) else None
        if image is None:
            return PlainTextResponse("no such face", status_code=404)
        # The URL is the hash of what the face shows: the same URL never shows another picture.
        return Response(image.png, media_type="image/png", headers={"Cache-Control": "public, max-age=31536000, immutable"})

    async def events(request: Request) -> Response:
        return StreamingResponse(broadcaster.stream(request, preview.snapshot.version), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})

    async def home(request: Request) -> Response:
        return RedirectResponse("/deck")

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        tasks = []
        stop = asyncio.Event()
        if watching:
            async def changed() -> None:
                broadcaster.publish(await run_in_threadpool(preview.refresh))

            tasks.append(asyncio.create_task(watch(preview.watched(), changed, stop)))
        tasks.append(asyncio.create_task(run_in_threadpool(preview.ensure, preview.snapshot.default_locale)))
        try:
            yield
        finally:
            broadcaster.closed.set()
            for queue in list(broadcaster.queues):
                queue.put_nowait(preview.snapshot.version)
            stop.set()
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            preview.close()

    routes = [
        Route("/", home),
        Route("/deck", deck),
        Route("/card/{card_id}", card),
        Route("/faces/{key}.png", face),
        Route("/events", events),
    ]
    middleware = [Middleware(TrustedHostMiddleware, allowed_hosts=allowed_hosts or ["127.0.0.1", "localhost"])]
    return Starlette(routes=routes, middleware=middleware, lifespan=lifespan)
