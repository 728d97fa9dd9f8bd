"""The studio's test fixtures: a test client (:func:`tests.studio.studio_client`, the one way they are made) and one
headless Chromium a module, for the browser tests."""

from __future__ import annotations

import pytest

from tests.studio import studio_client
from tests.studio.drive import ARGS, CHROMIUM, need


@pytest.fixture
def client():
    """A test client of a studio with no FILE, holding the token as the page does."""
    return studio_client()


@pytest.fixture(scope="module")
def browser():
    need(CHROMIUM is not None, "Debian's chromium is not installed (apt-get install -y chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        need(False, "playwright is not installed (pip install -e '.[test]')")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture(scope="session", autouse=True)
def search_built():
    """The search built once before the studio's tests: while it is built the studio answers with SAT alone (no
    replay, no technique in a hint; ``test_while_the_search_is_built_solve_and_hint_answer_with_sat_at_once``)."""
    from flowgraph.engines import get_engine

    get_engine("search").warm_up()
