"""The studio's tests: :func:`studio_client` is a test client that holds the studio's token, as the page does."""

from __future__ import annotations

#: The token the tests' studios are started with.
TOKEN = "test-token-0123456789"


def studio_client(file: str | None = None, **options):
    """A Starlette test client of ``create_app(file)`` that sends the token and a Host the studio answers to."""
    from starlette.testclient import TestClient

    from flowgraph.studio.app import create_app

    return TestClient(create_app(file, token=TOKEN), base_url="http://localhost",
                      headers={"Authorization": f"token {TOKEN}"}, **options)


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
