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
