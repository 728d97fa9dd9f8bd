"""The studio never answers 500: mutated bodies for every endpoint (:mod:`tests.studio.fuzz_bodies`).

CI runs the "ci" Hypothesis profile (150 requests); ``HYPOTHESIS_PROFILE=fuzz
FUZZ_EXAMPLES=50000 pytest tests/studio/test_fuzz_api.py`` runs the long one;
``python bench/fuzz_studio.py`` sends them to a live server and measures its
memory and how long a request waits behind the others.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.studio import studio_client
from tests.studio.fuzz_bodies import SMALL, body

ALLOWED = {200, 202, 400, 404, 409, 413, 422}


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    target = tmp_path_factory.mktemp("studio") / "board.txt"
    target.write_text(SMALL)
    with studio_client(str(target), raise_server_exceptions=False) as c:
        yield c


@given(st.integers(0, 2**32))
def test_mutated_requests_are_answered_without_500(client, seed):
    method, path, data = body(random.Random(seed))
    res = client.request(method, path, content=data, headers={"Content-Type": "application/json"})
    assert res.status_code in ALLOWED, (path, data[:300], res.status_code, res.text[:300])
    assert res.headers["content-type"].startswith("application/json")
