"""Mutated request bodies for every studio endpoint: what the studio fuzzers send.

``body(rng)`` returns ``(method, path, bytes)``: a valid body of a random
endpoint, then a few mutations of its JSON (values replaced by hostile ones:
huge and non-finite numbers, deep nesting, lone surrogates, wrong types,
huge boards) or of its bytes. Used by ``tests/studio/test_fuzz_api.py``
(Hypothesis draws the seed) and ``bench/fuzz_studio.py`` (a live server).
"""

from __future__ import annotations

import json
import random
from typing import Any

HEX = "HEX\nD C-C-C B\n| |   | |\nD C A C B\n| | | | |\nD C A C B\n|   |   |\nD-D A-A B\n"
SMALL = "STANDARD\nA-.-A\n| | |\nB-.-B\n"
GRAPH = ('{"nodes": [{"id": 1, "label": "A", "xy": [0, 0]}, {"id": 2, "xy": [1, 0]}, '
         '{"id": 3, "label": "A", "xy": [2, 0]}], "links": [[1, 2], [2, 3]]}')
PACK = "3,0,7,2;0,1,2;3,4,5,8,7,6\n"

BASES: list[tuple[str, str, dict[str, Any]]] = [
    ("POST", "/api/check", {"text": SMALL}),
    ("POST", "/api/check", {"text": GRAPH, "format": "json-graph"}),
    ("POST", "/api/check", {"text": PACK}),
    ("POST", "/api/render", {"text": HEX, "paths": {"A": [[4, 5], [6, 5]]}, "theme": "light", "labels": True}),
    ("POST", "/api/render", {"text": SMALL, "png": True}),
    ("POST", "/api/count", {"text": SMALL, "time_limit_s": 1}),
    ("POST", "/api/new", {"family": "hex", "width": 4, "height": 3, "wrap": "rows"}),
    ("POST", "/api/generate", {"family": "standard", "width": 4, "height": 4, "seed": 1, "time_limit_s": 2}),
    ("POST", "/api/convert", {"text": SMALL, "to": "json-graph"}),
    ("POST", "/api/levels", {"text": PACK, "name": "pack.txt", "offset": 0, "count": 2}),
    ("POST", "/api/verify", {"text": SMALL, "paths": {"A": [[2, 1], [2, 3], [2, 5]], "B": [[4, 1], [4, 3], [4, 5]]}}),
    ("POST", "/api/edit", {"text": SMALL, "action": "cycle", "xy": [1, 0]}),
    ("POST", "/api/edit", {"text": SMALL, "action": "link", "xy": [0, 0], "to": [1, 0]}),
    ("POST", "/api/edit", {"text": SMALL, "action": "warp-row", "index": 0}),
    ("POST", "/api/hint", {"text": SMALL, "done": ["A"], "time_limit_s": 1}),
    ("POST", "/api/solve", {"text": SMALL, "time_limit_s": 1, "frames": 5}),
    ("POST", "/api/save", {"text": SMALL}),
    ("POST", "/api/scan", {"image": "iVBORw0KGgo="}),
    ("GET", "/api/file", {}),
    ("GET", "/api/solve/1", {}),
    ("POST", "/api/solve/1/stop", {}),
]

HOSTILE: list[Any] = [
    None, True, -1, 0, 2**31, 10**40, 1e308, -0.0, "", "x" * 10_000, "\ud800", "²:1", "99999:99999", [], {},
    [[1]], [1, 2, 3], {"A": 5}, "STANDARD\n" + "A" * 3, GRAPH.replace("[2, 0]", "[1e999, 0]"),
    GRAPH.replace("[2, 0]", "[300000, 0]"), GRAPH.replace("[2, 0]", "[99999, 99]"), "600,0,7,2;0,1,2;3,4,5",
    "100000,0,1,2;0,1;2,3", "\ufeffSTANDARD\nA-A\n", "STANDARD\n" + ".-" * 2000 + "A\n",
]
RAW: list[bytes] = [
    b"", b"not json", b"[1, 2]", b"{" * 50_000, b'{"text": ' + b"1" * 4400 + b"}", b'{"text": NaN}',
    b'{"text": "A", "n": -Infinity}', b"\xff\xfe\x00", b'{"text": "\\ud800"}', b'{"a": 1e999}',
]


def _mutate(value: Any, rng: random.Random, depth: int = 0) -> Any:
    if isinstance(value, dict) and value and depth < 3:
        out = dict(value)
        key = rng.choice(list(out))
        out[key] = _mutate(out[key], rng, depth + 1) if rng.random() < 0.5 else rng.choice(HOSTILE)
        if rng.random() < 0.2:
            out[rng.choice(["text", "paths", "to", "xy", "seed", "frames", "family", "extra"])] = rng.choice(HOSTILE)
        return out
    if isinstance(value, list) and value and depth < 3:
        out = list(value)
        i = rng.randrange(len(out))
        out[i] = _mutate(out[i], rng, depth + 1) if rng.random() < 0.5 else rng.choice(HOSTILE)
        return out
    if isinstance(value, str) and value and rng.random() < 0.5:  # a character changed, dropped or doubled
        i = rng.randrange(len(value))
        return value[:i] + rng.choice(["", value[i] * 2, rng.choice(".A-|/\\*#{}[]:,0\n ")]) + value[i + 1:]
    return rng.choice(HOSTILE)


def body(rng: random.Random) -> tuple[str, str, bytes]:
    """One request: ``(method, path, body bytes)``."""
    method, path, base = rng.choice(BASES)
    if method == "GET":
        return method, path, b""
    roll = rng.random()
    if roll < 0.15:
        return method, path, rng.choice(RAW)
    value: Any = base
    for _ in range(rng.randint(0 if roll < 0.3 else 1, 3)):
        value = _mutate(value, rng)
    if isinstance(value, dict) and "time_limit_s" in value and not isinstance(value["time_limit_s"], (int, float)):
        pass  # a hostile time limit is the test: the server refuses it
    elif isinstance(value, dict) and path in ("/api/count", "/api/hint", "/api/solve", "/api/generate"):
        value["time_limit_s"] = 1  # keep the fuzzer's solves short
    data = json.dumps(value, allow_nan=True).encode("utf-8", "surrogatepass")
    if rng.random() < 0.1 and data:  # a byte changed
        i = rng.randrange(len(data))
        data = data[:i] + bytes([rng.randrange(256)]) + data[i + 1:]
    return method, path, data
