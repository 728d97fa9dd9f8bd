"""The studio's tests: :func:`studio_client` is a test client that holds the studio's token, as the page does."""

from __future__ import annotations

#: The token the tests' studios are started with, and the header the page sends it in.
TOKEN = "test-token-0123456789"
AUTH = {"Authorization": f"token {TOKEN}"}


def studio_client(file: str | None = None, *, app=None, token: bool = True, hosts: tuple[str, ...] = (), **options):
    """The one way the tests make a studio client: a Starlette test client of ``create_app(file, hosts=hosts)`` (or
    of ``app``, one a test caught being made) at a Host the studio answers to, sending the token unless ``token``
    is false; ``options`` go to the client (``base_url``, ``raise_server_exceptions``)."""
    from starlette.testclient import TestClient

    from flowgraph.studio.app import create_app

    options.setdefault("base_url", "http://localhost")
    return TestClient(app if app is not None else create_app(file, token=TOKEN, hosts=hosts),
                      headers=AUTH if token else {}, **options)


def live_studio(file: str | None = None, **options):
    """A context manager: a real studio (uvicorn on a free port, in a thread) of ``create_app(file, **options)``; its
    port."""
    import contextlib
    import socket
    import threading
    import time

    import uvicorn

    from flowgraph.studio.app import create_app

    @contextlib.contextmanager
    def running():
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        srv = uvicorn.Server(uvicorn.Config(create_app(file, token=TOKEN, **options), host="127.0.0.1", port=port,
                                            log_level="warning"))
        thread = threading.Thread(target=srv.run, daemon=True)
        thread.start()
        for _ in range(100):
            if srv.started:
                break
            time.sleep(0.05)
        try:
            yield port
        finally:
            srv.should_exit = True
            thread.join(5)

    return running()
