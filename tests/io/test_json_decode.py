"""The JSON graph reader's C-decoder path (json_graph._decode) reads as its pure-Python scanner does."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

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


_IDS = st.one_of(st.integers(-3, 12), st.sampled_from(["a", "b", True, 1.0, None, 2**53 + 1]))
_PLACE = st.one_of(st.lists(st.integers(-3, 6), min_size=2, max_size=2),
                   st.sampled_from([[0.5, 1], [1, 2, 3], [True, 0], [100_001, 0], [0], None, "xy"]))
_NODE = st.fixed_dictionaries({"id": _IDS}, optional={
    "label": st.sampled_from(["A", "A", "B", "B", "AB", "", 5, None]), "xy": _PLACE,
    "lane": st.sampled_from(["-", "|", "x"]), "note": st.just("n")})
_LINK = st.one_of(st.lists(_IDS, min_size=2, max_size=2), st.tuples(_IDS, _IDS, st.just("warp")).map(list),
                  st.sampled_from([[1], "x", {"a": 1}]))


@settings(max_examples=300, deadline=None)
@given(nodes=st.lists(_NODE, max_size=7), links=st.lists(_LINK, max_size=10),
       family=st.sampled_from([None, "STANDARD", "HEX", "NOPE"]), indent=st.sampled_from([None, 1]),
       crlf=st.booleans())
def test_any_json_graph_reads_the_same_with_or_without_the_quick_paths(nodes, links, family, indent, crlf):
    doc = {"nodes": nodes, "links": links, **({"family": family} if family else {})}
    text = json.dumps(doc, indent=indent)
    text = text.replace("\n", "\r\n") if crlf else text
    lines = tuple(text.splitlines())
    assert _reading(json_graph.analyse_json_graph(text, "x.json")) == _reading(
        json_graph._analyse_doc(json_graph._decode(text), lines, "x.json"))


@st.composite
def _boards(draw):
    """A valid JSON graph most of the time: a chain through every node (flow A end to end), more links, any ids."""
    n = draw(st.integers(2, 9))
    ids = draw(st.lists(st.integers(-50, 50), min_size=n, max_size=n, unique=True))
    width = draw(st.integers(1, 4))
    order = draw(st.permutations(range(n)))
    links = [[ids[order[k]], ids[order[k + 1]]] for k in range(n - 1)]
    links += [[ids[a], ids[b]] for a, b in draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)),
                                                         max_size=3))]
    labels = {order[0]: "A", order[-1]: "A"}
    if n >= 4 and draw(st.booleans()):
        labels.update({order[1]: "B", order[2]: "B"})
    nodes = [{"id": ids[k], **({"label": labels[k]} if k in labels else {}), "xy": [k % width, k // width]}
             for k in range(n)]
    return nodes, draw(st.permutations(links))


@settings(max_examples=300, deadline=None)
@given(board=_boards(), crlf=st.booleans())
def test_a_plain_json_graph_reads_the_same_on_arrays(board, crlf):
    nodes, links = board
    text = json.dumps({"nodes": nodes, "links": links}, indent=1)
    text = text.replace("\n", "\r\n") if crlf else text
    lines = tuple(text.splitlines())
    assert _reading(json_graph.analyse_json_graph(text, "x.json")) == _reading(
        json_graph._analyse_doc(json_graph._decode(text), lines, "x.json"))
    quick = json_graph.analyse_json_graph(text, "x.json")[0]
    if quick is not None:
        full = json_graph._analyse_doc(json_graph._decode(text), lines, "x.json")[0]
        assert {n: list(quick.graph.adj[n]) for n in quick.graph} == {n: list(full.graph.adj[n]) for n in full.graph}
