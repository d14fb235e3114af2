"""``cardworks serve``: a live preview of a deck for designers and translators.

A local web server shows every card of a deck as its real face (rendered by
the same code as the PDFs), with its facts and problems; a card page shows a
face large, in every locale, with its rulings and scenarios. When a data file
changes, only the faces that changed are rendered again and open pages update
themselves. The server reads the database and never writes to it.
"""

from __future__ import annotations

from ..errors import UsageError
from .app import create_app
from .preview import Preview
from .project import ServeOptions

__all__ = ["Preview", "ServeOptions", "allowed_hosts", "create_app", "listen", "run"]

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


def listen(host: str, port: int):
    """The listening socket, bound before anything is read or printed: a port in use is refused at once with
    what to do (a usage error, exit 2), never after the URL was printed."""
    import errno
    import socket

    try:
        infos = socket.getaddrinfo(host.strip("[]"), port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as exc:
        raise UsageError(f"--host {host!r} is not an address this machine has ({exc.strerror})") from None
    family, kind, protocol, _, address = infos[0]
    sock = socket.socket(family, kind, protocol)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn does: a port in TIME_WAIT is free
        sock.bind(address)
        sock.listen(128)
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            raise UsageError(f"port {port} on {host} is already in use (another server, or a cardworks serve still "
                             f"running?); stop it or choose another port with --port") from None
        raise UsageError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    sock.set_inheritable(True)
    return sock


def run(options: ServeOptions, host: str = "127.0.0.1", port: int = 8000, echo=print) -> None:
    """Take the port, read the deck, then serve it until interrupted (Ctrl-C); faces are drawn after the first
    page is served, and fill in as they are drawn."""
    import uvicorn

    sock = listen(host, port)
    try:
        preview = Preview(options, defer=True)  # options checked now; the data is checked once serving
    except KeyboardInterrupt:  # Ctrl-C before serving began: the same normal end as while serving
        sock.close()
        echo("cardworks serve: stopped")
        return
    except BaseException:
        sock.close()
        raise
    app = create_app(preview, allowed_hosts=allowed_hosts(host))
    shown = "127.0.0.1" if host in ("127.0.0.1", "localhost") else host
    echo(f"cardworks serve: {preview.snapshot.title}: http://{shown}:{port}/deck (Ctrl-C stops)")
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", timeout_graceful_shutdown=1,
                            lifespan="on")
    try:
        uvicorn.Server(config).run(sockets=[sock])
    except KeyboardInterrupt:  # uvicorn stops on Ctrl-C, then raises it again: for serve that is the normal end
        pass
    finally:
        sock.close()
    echo("cardworks serve: stopped")
