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
from starlette.background import BackgroundTask
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
FIRST_PAGE_GRACE_S = 1.0
"""How long checking the data and drawing the faces wait for the first page to be answered: the
first page needs neither, and on a busy machine they would slow it down; with no page asked for, they begin
after this anyway."""


class Broadcaster:
    """Hands each new state of the pages (``Preview.tag``: a new snapshot, or more faces drawn) to every open
    event stream."""

    def __init__(self) -> None:
        self.queues: set[asyncio.Queue[str]] = set()
        self.closed = asyncio.Event()

    def publish(self, version: str) -> None:
        for queue in self.queues:
            queue.put_nowait(version)

    async def stream(self, request: Request, version: str) -> AsyncIterator[str]:
        queue: asyncio.Queue[str] = asyncio.Queue()
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


def _page(name: str, background: BackgroundTask | None = None, **context: Any) -> HTMLResponse:
    html = adapter.environment().get_template(f"serve/{name}.html.j2").render(**context)
    return HTMLResponse(html, headers={"Cache-Control": "no-store"}, background=background)


def create_app(preview: Preview, *, watching: bool = True, allowed_hosts: list[str] | None = None,
               first_page_grace: float = FIRST_PAGE_GRACE_S) -> Starlette:
    """The ASGI application for ``preview``; with ``watching``, edits on disk reach open pages. Checking the data
    and drawing faces begin once the first deck page is sent, or after ``first_page_grace`` seconds."""
    broadcaster = Broadcaster()
    first_page = asyncio.Event()
    """Set once the first deck page was sent: the start-up's other work waits for it (``FIRST_PAGE_GRACE_S``)."""

    async def sent() -> None:
        first_page.set()

    async def deck(request: Request) -> Response:
        params = request.query_params
        locale = preview.locale_or_default(params.get("locale"))
        tiles = await run_in_threadpool(preview.tiles, locale)
        if any(t.waiting for t in tiles):  # the page is answered now; its faces follow as they are drawn
            preview.draw_in_background(locale)
        chosen = {"set": params.get("set", ""), "type": params.get("type", ""), "problems": params.get("problems") == "1"}
        shown = [t for t in tiles
                 if (not chosen["set"] or t.card.set_id == chosen["set"])
                 and (not chosen["type"] or chosen["type"] in t.card.types)
                 and (not chosen["problems"] or t.has_problems)]
        drawn, drawable = preview.drawn(tiles)
        return _page("deck", BackgroundTask(sent), snapshot=preview.snapshot, tiles=shown, total=len(tiles),
                     locale=locale, chosen=chosen, timing=preview.last_refresh, drawn=drawn, drawable=drawable,
                     tag=preview.tag())

    async def card(request: Request) -> Response:
        card_id = request.path_params["card_id"]
        locale = preview.locale_or_default(request.query_params.get("locale"))
        await run_in_threadpool(preview.ready.wait, 300)  # a card page only once the data is checked
        info = preview.snapshot.card(card_id)
        if info is None:
            return PlainTextResponse(f"no card {card_id!r} in this deck", status_code=404)
        views = await run_in_threadpool(preview.locale_views, card_id)
        scenarios = await run_in_threadpool(preview.scenarios, card_id)
        main = next((v for v in views if v.locale == locale), views[0] if views else None)
        return _page("card", snapshot=preview.snapshot, card=info, views=views, main=main, locale=locale,
                     rulings=preview.rulings(card_id, locale), scenarios=scenarios, tag=preview.tag())

    async def face(request: Request) -> Response:
        key = request.path_params["key"]
        image = preview.image(key) if FACE_KEY.fullmatch(key) else None
        if image is None:
            return PlainTextResponse("no such face", status_code=404)
        # The URL is the hash of what the face shows: the same URL never shows another picture.
        return Response(image.png, media_type="image/png", headers={"Cache-Control": "public, max-age=31536000, immutable"})

    async def events(request: Request) -> Response:
        return StreamingResponse(broadcaster.stream(request, preview.tag()), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})

    async def home(request: Request) -> Response:
        return RedirectResponse("/deck")

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        tasks = []
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()

        def progress() -> None:  # from a drawing thread: each batch drawn reaches open pages
            with contextlib.suppress(RuntimeError):  # the loop closed: the server is stopping
                loop.call_soon_threadsafe(broadcaster.publish, preview.tag())

        preview.progress = progress
        if watching:
            async def changed() -> None:
                await run_in_threadpool(preview.refresh)
                broadcaster.publish(preview.tag())

            tasks.append(asyncio.create_task(watch(preview.watched(), changed, stop)))

        async def begin() -> None:  # the first page first: then the data checked (if that waits), the faces drawn
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(first_page.wait(), first_page_grace)
            preview.start()  # in the event loop's thread, the main one: the rendering process starts from it

        preview.warm()  # before the first page: see Preview.warm
        tasks.append(asyncio.create_task(begin()))
        try:
            yield
        finally:
            broadcaster.closed.set()
            preview.progress = None
            for queue in list(broadcaster.queues):
                queue.put_nowait(preview.tag())
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
