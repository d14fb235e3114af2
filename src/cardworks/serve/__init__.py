"""``cardworks serve``: a live preview of a deck for designers and translators.

A local web server shows every card of a deck as its real face (rendered by
the same code as the PDFs), with its facts and problems; a card page shows a
face large, in every locale, with its rulings and scenarios. When a data file
changes, only the faces that changed are rendered again and open pages update
themselves. The server reads the database and never writes to it.
"""

from __future__ import annotations

from .app import create_app
from .preview import Preview
from .project import ServeOptions

__all__ = ["Preview", "ServeOptions", "allowed_hosts", "create_app", "run"]

LOCAL_HOSTS = ["127.0.0.1", "localhost"]


def allowed_hosts(host: str) -> list[str]:
    """The ``Host:`` headers answered when listening on ``host``: on any loopback address only that address
    and ``localhost`` (so a web page elsewhere cannot reach the preview by DNS rebinding); on another
    address, any (the user chose to share it)."""
    import ipaddress

    if host in LOCAL_HOSTS:
        return list(LOCAL_HOSTS)
    try:
        loopback = ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:  # a host name: loopback only if it is localhost
        loopback = host.lower().rstrip(".") == "localhost"
    return [host, "localhost"] if loopback else ["*"]


def run(options: ServeOptions, host: str = "127.0.0.1", port: int = 8000, echo=print) -> None:
    """Load the deck, then serve it until interrupted (Ctrl-C)."""
    import uvicorn

    preview = Preview(options)
    app = create_app(preview, allowed_hosts=allowed_hosts(host))
    shown = "127.0.0.1" if host in ("127.0.0.1", "localhost") else host
    echo(f"cardworks serve: {preview.snapshot.title}, deck {preview.snapshot.deck.label if preview.snapshot.deck else '?'}: "
         f"http://{shown}:{port}/deck (Ctrl-C stops)")
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", timeout_graceful_shutdown=1,
                            lifespan="on")
    try:
        uvicorn.Server(config).run()
    except KeyboardInterrupt:  # uvicorn stops on Ctrl-C, then raises it again: for serve that is the normal end
        pass
    echo("cardworks serve: stopped")
