"""Issue 71: every number a reader meets is read by one bounded function (``io.problems.whole_number``): characters
``str.isdigit`` takes and ``int`` refuses (``²``), and numbers past Python's 4,300-digit limit, are a problem at
FILE:LINE:COLUMN (exit 3 from the CLI, 422 from the studio), never an internal error (exit 5, or 500)."""

from __future__ import annotations

import pytest

from flowgraph.cli import main
from flowgraph.io.formats import read_entries
from tests.studio import studio_client

LONG = "1" * 5000

#: (file name, text, where the problem is: (line, column), words of its message)
BAD = [
    ("nl.txt", "2 2\n1 ²\n. 1\n", (2, 3), "appears once"),  # a token: a label like any word, paired or not
    ("nl.txt", f"{LONG} 2\n1 .\n. 1\n", (1, 1), "whole numbers from 1 to 100,000"),
    ("nl.txt", f"2 2\n{LONG} .\n. {LONG}\n", None, None),  # a long number is a label like any other: solvable
    ("pack.txt", "3,0,1,²;0,1,2;3,4,5;6,7,8\n", (1, 7), "flows"),
    ("pack.txt", f"3,0,1,{LONG};0,1,2;3,4,5;6,7,8\n", (1, 7), "flows"),
    ("pack.txt", "3,0,1,3,,,0|²;0,1,2;3,4,5;6,7,8\n", (1, 11), "wall"),
    ("pack.txt", "3,0,1,3,²;0,1,2;3,4,5;6,7,8\n", (1, 9), "cell index"),
    ("pack.txt", f"3,0,1,3,{LONG};0,1,2;3,4,5;6,7,8\n", (1, 9), "cell index"),
]


@pytest.mark.parametrize("name, text, at, words", BAD, ids=[f"{n}-{i}" for i, (n, *_) in enumerate(BAD)])
def test_a_number_no_int_reads_is_a_problem_at_its_place(tmp_path, capsys, name, text, at, words):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    _, entries, problems = read_entries(text, str(path))
    code = main(["validate", str(path)])
    err = "".join(capsys.readouterr())  # (validate reports on stdout)
    assert code != 5 and "internal error" not in err, err
    if at is not None:
        assert any((p.line, p.column) == at and words in p.message for p in problems), problems
        assert f"{path}:{at[0]}:{at[1]}:" in err and code == 3, err
    elif words is not None:
        assert code == 3 and words in err, err
    else:
        assert code == 0 and entries, err


def test_a_level_number_no_int_reads_is_not_a_level(tmp_path, capsys):
    pack = tmp_path / "pack.txt"
    pack.write_text("3,0,1,3;0,1,2;3,4,5;6,7,8\n", encoding="utf-8")
    for ref in (f"{pack}#²", f"{pack}#{LONG}"):
        code = main(["solve", ref])
        err = capsys.readouterr().err
        assert code != 5 and "internal error" not in err and "Traceback" not in err, err


def test_file_names_with_such_characters_sort_in_a_folder(tmp_path, capsys):
    for name in ("a².txt", f"b{'9' * 200}.txt", "c2.txt", "c10.txt"):
        (tmp_path / name).write_text("STANDARD\nA-.-A\n", encoding="utf-8")
    assert main(["solve", "--json", str(tmp_path)]) == 0
    rows = capsys.readouterr().out.splitlines()
    assert len(rows) == 4 and rows[2].find("c2.txt") > 0 and rows[3].find("c10.txt") > 0, rows


@pytest.mark.parametrize("name, text, at, words", BAD[:2] + BAD[3:], ids=[f"{n}-{i}" for i, (n, *_) in
                                                                          enumerate(BAD[:2] + BAD[3:])])
def test_the_studio_answers_such_numbers_with_the_problem(name, text, at, words):
    client = studio_client(raise_server_exceptions=False)
    for url in ("/api/check", "/api/levels"):
        reply = client.post(url, json={"text": text, "name": name})
        assert reply.status_code in (200, 422), (url, reply.status_code, reply.text)


def test_a_numberlink_token_no_int_reads_is_a_label():
    _, entries, problems = read_entries("3 1\n² . ²\n", "nl.txt")
    assert not problems and entries[0].puzzle.flows[0].ends == ((2, 1), (2, 5))


def test_a_folder_nested_a_thousand_deep_is_walked(tmp_path, capsys):
    """Issue 71: pathlib's walk recursed (RecursionError, exit 5) in solve, validate, convert and bench."""
    import os

    here = os.getcwd()
    try:
        os.chdir(tmp_path)
        os.mkdir("deep")
        os.chdir("deep")
        for _ in range(1000):  # (os.makedirs recurses too)
            os.mkdir("d")
            os.chdir("d")
        with open("a.txt", "w", encoding="utf-8") as f:
            f.write("STANDARD\nA-.-A\n")
    finally:
        os.chdir(here)
    deep = str(tmp_path / "deep")
    try:
        for argv in (["solve", deep], ["validate", deep], ["bench", deep],
                     ["convert", deep, "-o", str(tmp_path / "p.html")]):
            assert main(argv) == 0, argv
        assert "internal error" not in "".join(capsys.readouterr())
    finally:  # shutil.rmtree recurses too: pytest could not remove the folder
        os.chdir(deep)
        depth = 0
        while os.path.isdir("d"):
            os.chdir("d")
            depth += 1
        os.remove("a.txt")
        for _ in range(depth):
            os.chdir("..")
            os.rmdir("d")
        os.chdir(here)


def test_a_name_too_long_is_a_file_that_cannot_be_read(capsys):
    assert main(["solve", "x" * 300]) == 3
    assert "cannot read file: File name too long" in capsys.readouterr().err


def test_a_folder_whose_name_is_not_utf8_publishes(tmp_path, capsys):
    import os

    folder = os.path.join(os.fsencode(tmp_path), b"pack\xff")
    os.mkdir(folder)
    with open(os.path.join(folder, b"a.txt"), "w", encoding="utf-8") as f:
        f.write("STANDARD\nA-.-A\n")
    page = tmp_path / "page.html"
    assert main(["convert", os.fsdecode(folder), "-o", str(page)]) == 0, capsys.readouterr().err
    assert "<title>pack\ufffd</title>" in page.read_text(encoding="utf-8")


@pytest.mark.parametrize("argv", [["new", "--size", "²x3"], ["generate", "--size", "5x5", "--flows", "²"],
                                  ["generate", "--size", "5x5", "--flows", f"1-{LONG}"]])
def test_an_option_with_such_a_number_is_a_usage_error(argv, capsys):
    code = main(argv)
    err = capsys.readouterr().err
    assert code == 2 and "expected" in err and "invalid" not in err, err
