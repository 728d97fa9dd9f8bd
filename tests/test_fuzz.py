"""No input crashes flowgraph: random and mutated texts through parse, validate, solve.

The only outcomes allowed are a result or a positioned ``PuzzleError`` (and,
for solve, "no solution" or a budget running out). CI runs the "ci" profile;
``HYPOTHESIS_PROFILE=fuzz pytest tests/test_fuzz.py`` runs 100,000 examples.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from flowgraph import Limits, PuzzleError, SearchLimitError, UnsolvableError, find_problems, parse_text, solve
from flowgraph.io.files import read_text
from tests.helpers import BUNDLED

SEEDS = [p.read_text() for p in BUNDLED]
ALPHABET = ".*-|/\\ AaBb0Z\n\r\t#é"
HEADERS = st.sampled_from(["STANDARD\n", "HEX\n", "WARPS\n", "BRIDGES\n", "// c\n", "", "STANDARD x\n", " hex \n"])


def _mutate(text: str, ops: list[tuple[int, int, int, str]]) -> str:
    lines = text.split("\n")
    for kind, i, j, s in ops:
        if not lines:
            lines = [s]
            continue
        i %= len(lines)
        if kind == 0:  # delete a line
            del lines[i]
        elif kind == 1:  # duplicate a line
            lines.insert(i, lines[i])
        elif kind == 2:  # swap two characters
            chars = list("\n".join(lines))
            if chars:
                a, b = i % len(chars), j % len(chars)
                chars[a], chars[b] = chars[b], chars[a]
            lines = "".join(chars).split("\n")
        elif kind == 3:  # overwrite a character
            line = lines[i]
            k = j % (len(line) + 1)
            lines[i] = line[:k] + s + line[k + 1 :]
        elif kind == 4:  # a very long line, or deep runs of links
            lines.insert(i, (s or "-") * (200 + j % 3000))
        else:  # a column of links
            lines[i:i] = [" " * (j % 30) + (s or "|")] * (j % 50)
    return "\n".join(lines)


MUTATIONS = st.lists(
    st.tuples(st.integers(0, 5), st.integers(0, 10_000), st.integers(0, 10_000), st.text(ALPHABET, max_size=3)),
    max_size=6,
)


def exercise(text: str) -> None:
    problems = find_problems(text)
    assert all(p.line >= 1 and p.column >= 1 for p in problems)
    try:
        puzzle = parse_text(text, "fuzz.txt")
    except PuzzleError as err:
        assert err.line >= 1 and err.column >= 1 and str(err).startswith("fuzz.txt:")
        assert any(p.severity == "error" for p in problems)
        return
    assert not any(p.severity == "error" for p in problems)
    try:
        solve(puzzle, limits=Limits(max_states=200, max_sat_calls=200, time_limit_s=2))
    except (UnsolvableError, SearchLimitError):
        pass


@given(HEADERS, st.text(ALPHABET, max_size=400))
def test_random_text(header, body):
    exercise(header + body)


@given(st.sampled_from(SEEDS), MUTATIONS)
def test_mutated_puzzles(seed, ops):
    exercise(_mutate(seed, ops))


@given(st.binary(max_size=300))
def test_random_bytes(data):
    text, problems = read_text(data)
    if text is None:
        assert problems and problems[0].line >= 1
    else:
        exercise(text)


# -- every other format's reader: a result or positioned problems, never a traceback --

from flowgraph.io.files import load  # noqa: E402
from flowgraph.io.formats import FORMATS, read_entries  # noqa: E402
from flowgraph.render.text import solution_text  # noqa: E402

FORMAT_ALPHABET = '{}[]":,0123456789 .-#*AaBb|;_X W\n\teENIaf\ufeff'
FORMAT_SEEDS = [
    '{"nodes": [{"id": 1, "label": "A", "xy": [0, 0]}, {"id": 2, "label": "A", "xy": [1, 0]}], "links": [[1, 2]]}',
    "3 2\n1 0 1\n2 0 2\n",
    "HEX\nA.A\nB.B\n",
    "5,0,1,5,12,0:4:20:24;2,7,12,17;1,6,5;3,8,9;10,11,12,13,14;15,16,21,22,23,18,19\n",
    "X_5,0,1,5,,1:3:0:20:4:24;16,11,6,2;22,23,19,14;5,10,15,21;8,7,12;17,18,13,9\n",
    "W_3,0,1,2,,,0|2;0,1;3,4,5,8,7,6,2\n",
]


def _written_seeds() -> list[str]:
    """Every bundled board in every format that can express it: real files to mutate."""
    from flowgraph import parse_file
    from flowgraph.authoring.solved import write_solved as write
    from flowgraph.errors import ConversionError
    from flowgraph.io.formats import format_names

    out = []
    for path in BUNDLED:
        puzzle = parse_file(path)
        for fmt in format_names(writable=True):
            try:
                out.append(write(puzzle, fmt))
            except ConversionError:
                pass
    return out


FORMAT_SEEDS += _written_seeds()


def exercise_formats(text: str) -> None:
    for fmt in FORMATS:
        _, entries, problems = read_entries(text, "fuzz", fmt)
        assert all(p.line >= 1 and p.column >= 1 for p in problems)
        assert entries or any(p.is_error for p in problems)
    puzzle, problems = load("fuzz.json", text.encode("utf-8", "surrogatepass"))
    assert puzzle is not None or any(p.is_error for p in problems)
    for fmt in FORMATS:  # valid means solvable without a crash, and the answer shows as text or paths
        _, entries, _ = read_entries(text, "fuzz", fmt)
        for entry in entries[:2]:
            try:
                solution = solve(entry.puzzle, limits=Limits(max_states=200, max_sat_calls=20, time_limit_s=2))
            except (UnsolvableError, SearchLimitError):
                continue
            solution_text(solution)


@given(st.text(FORMAT_ALPHABET, max_size=300))
def test_random_text_in_every_format(text):
    exercise_formats(text)


@given(st.sampled_from(FORMAT_SEEDS), MUTATIONS)
def test_mutated_files_in_every_format(seed, ops):
    exercise_formats(_mutate(seed, ops))
