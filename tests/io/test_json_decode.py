"""The JSON graph reader's C-decoder path (json_graph._decode) reads as its pure-Python scanner does."""

from __future__ import annotations

import json

import pytest

from flowgraph import parse_file
from flowgraph.io import json_graph
from flowgraph.io.formats import write
from tests.helpers import BUNDLED


def _shape(value):
    """A value with every object's and array's type and place spelled out, to compare two reads exactly."""
    if isinstance(value, dict):
        return ("object", type(value).__name__, value.pos, [(k, _shape(v)) for k, v in value.items()])
    if isinstance(value, list):
        return ("array", type(value).__name__, value.pos, [_shape(v) for v in value])
    return (type(value).__name__, repr(value))


TRICKY = [
    '{"nodes": [], "links": []}',
    '[1, [2, [3]], {"a": {"b": []}}]',
    '"just a string"',
    '{"a": "{[ not a start", "b": ["\\"[", {"c": "\\\\"}], "d": {}}',
    '{"a": [1], "a": {"b": [2]}, "c": [{"a": 1}, {"a": [3]}]}',  # a repeated key: the lost value is still walked
    '{"a": "\u00e9\u4e2d\U0001f600", "b": [{"x": "\\u00e9"}]}\n',
    '{\n  "nodes": [\n    {"id": 9007199254740993, "xy": [0, 0]},\n    {"id": 12, "xy": [1e400, -0]}\n  ]\n}',
    '{"nodes": [{"id": 1, "xy": [NaN, Infinity]}]}',
    '{"a": [' + "1" * 5000 + ']}',
    '{"a": [1, 2,]}',
    '{"a": ',
    '[' * 5000 + ']' * 5000,
]


def _texts() -> list[str]:
    out = list(TRICKY)
    for path in BUNDLED:
        text = write(parse_file(path), "json-graph")
        out.append(text)
        out.append(text.replace("\n", "\r\n"))
        out.append(text.replace('"xy"', '"xy": [5, 5], "xy"', 1))
    return out


@pytest.mark.parametrize("text", _texts())
def test_the_c_decoder_path_reads_as_the_pure_python_scanner(text):
    def read(decode):
        try:
            return "value", _shape(decode(text))
        except json.JSONDecodeError as err:
            return "error", err.msg, err.lineno, err.colno
        except RecursionError:
            return "recursion"

    assert read(json_graph._decode) == read(lambda t: json_graph._Decoder(t).decode(t))


QUICK = [  # the quick decode's edges: each reads as the full decode reads it
    '{"nodes": [{"id": "{", "label": "A", "xy": [0, 0]}, {"id": "}", "label": "A", "xy": [1, 0]}], '
    '"links": [["{", "}"]]}',
    '{"nodes": [], "nodes": [{"id": 1, "label": "A", "xy": [0, 0]}, {"id": 2, "label": "A", "xy": [1, 0]}], '
    '"links": [[1, 2]]}',
    '{"nodes": [{"id": 1, "label": "A", "xy": [0, 0], "more": {}}, {"id": 2, "label": "A", "xy": [1, 0]}], '
    '"links": [[1, 2]]}',
    '  \r\n {"nodes": [{"id": 1, "label": "A", "xy": [0, 0]},\r\n{"id": 2, "label": "A", "xy": [1, 0]}],\r\n'
    '"links": [[1, 2]]}',
    '{"nodes": [{"id": 1, "label": "A", "xy": [0, 0]}, {"id": 1, "label": "A", "xy": [1, 0]}], "links": [[1, 1]]}',
    '{"nodes": [{"id": 1, "label": "A", "xy": [0, 0]}, {"id": 2, "label": "A", "xy": [1, 0]}], '
    '"links": [[1, 2], [2, 1]]}',
    '{"nodes": [{"id": 1234567890123456, "label": "A", "xy": [0, 0]}, {"id": 2, "label": "A", "xy": [1, 0]}], '
    '"links": [[1234567890123456, 2]]}',
    '{"nodes": [{"id": 1, "label": "A", "xy": [0, 0]}, {"id": 2, "label": "A", "xy": [1, 0], "lane": "\\\\"}], '
    '"links": [[1, 2]]}',
    '{"nodes": [{"id": 1, "label": "\u00c5", "xy": [0, 0]}, {"id": 2, "label": "A", "xy": [1, 0]}], "links": [[1, 2]]}',
    '{"nodes": [[1], {"id": 2}], "links": []}',
    '{"nodes": {}, "links": []}',
]


def _two(a: str = '"id": 1, "label": "A", "xy": [0, 0]', b: str = '"id": 2, "label": "A", "xy": [1, 0]',
         links: str = "[1, 2]", more: str = "") -> str:
    return '{"nodes": [{%s}, {%s}%s], "links": [%s]}' % (a, b, more, links)


ARRAYS = [  # the reader on arrays (json_arrays.quick_puzzle): each reads as the general reader reads it
    _two(),
    _two('"id": -7, "label": "A", "xy": [0, 0]', '"id": 9, "label": "A", "xy": [1, 0]', "[9, -7]"),
    _two('"id": 0, "label": "A", "xy": [0, 0]', '"id": 1, "xy": [1, 0]', "[0, 1], [1, 2]",
         ', {"id": 2, "label": "A", "xy": [2, 0]}'),
    _two(links="[1, 2], [2, 1]"),
    _two(links="[1, 1]"),
    _two(links="[1, 3]"),
    _two(links="[1, 2, \"warp\"]"),
    _two(links="[true, 2]"),
    _two(b='"id": 2, "label": "A", "xy": [1.5, 0]'),
    _two(b='"id": 2, "label": "A", "xy": [100001, 0]'),
    _two(b='"id": 2, "label": "A", "xy": [99999, 99999]'),
    _two(b='"id": 2, "label": null, "xy": [1, 0]'),
    _two(b='"id": 2, "label": "AB", "xy": [1, 0]'),
    _two(b='"id": 2, "label": ["A"], "xy": [1, 0]'),
    _two(b='"id": true, "label": "A", "xy": [1, 0]'),
    _two(b='"id": 2, "label": "A", "xy": [1, 0], "note": "x"'),
    _two(b='"id": 2, "label": "A", "xy": [1, 0, 0]'),
    _two(more=', {"id": 3, "xy": [2, 0]}'),
    _two(b='"id": 2, "label": "B", "xy": [1, 0]'),
    '{"family": "HEX", ' + _two()[1:],
    '{"family": "NOPE", ' + _two()[1:],
]


def _reading(result):
    puzzle, problems = result
    if puzzle is None:
        return None, problems
    graph = puzzle.graph
    return (sorted(graph.nodes(data=True)), list(graph.edges(data=True)), puzzle.flows, puzzle.family,
            puzzle.cell_index.nodes, puzzle.cell_index.links.tolist()), problems


@pytest.mark.parametrize("text", QUICK + ARRAYS + [t for t in _texts() if t.lstrip().startswith("{")])
def test_a_json_graph_reads_the_same_with_or_without_the_quick_decode(text):
    lines = tuple(text.splitlines())
    try:
        full = json_graph._analyse_doc(json_graph._decode(text), lines, "x.json")
    except (json.JSONDecodeError, RecursionError):
        full = None
    if full is None:
        assert json_graph._quick_decode(text) is None
        return
    assert _reading(json_graph.analyse_json_graph(text, "x.json")) == _reading(full)
    if full[0] is not None:  # the graph's dicts too, neighbours in order
        quick = json_graph.analyse_json_graph(text, "x.json")[0].graph
        assert {n: list(quick.adj[n]) for n in quick} == {n: list(full[0].graph.adj[n]) for n in full[0].graph}


def test_the_quick_decode_and_the_arrays_take_what_flowgraph_writes():
    from flowgraph.io.json_arrays import quick_puzzle

    text = write(parse_file(next(p for p in BUNDLED if p.parent.name == "standard")), "json-graph")
    doc = json_graph._quick_decode(text)
    assert doc is not None
    assert quick_puzzle(doc, tuple(text.splitlines()), None, json_graph.MAX_COORD, json_graph.MAX_CELLS) is not None
