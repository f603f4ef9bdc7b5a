"""Input a command refuses in one line, exit code 2, with nothing written: YAML alias bombs,
duplicate keys, self-referencing aliases, deep nesting, bytes that are not UTF-8, characters YAML
forbids, values of the wrong type (quoted up to a bounded start), and raw line breaks in messages."""

from __future__ import annotations

import pytest

from shortcutlab.params import QUOTE_LIMIT
from tests.cli.refusals import assert_refused

GRID = "data: {builtin: reviews, train_size: 40, test_size: 20}\nshortcuts: [single-term]\n"
GRID += "strengths: [1.0]\n"
# Nine aliases of nine aliases, seven deep: 9**7 (4.8 million) strings when written out.
BOMB = "\n".join(
    ['  - &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    + [f"  - &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]" for i in range(1, 7)]
)


def _refused(tmp_path, content: str | bytes) -> str:
    """``run`` on a spec of ``content``: refused with exit code 2 and nothing written (checked
    here); the one line it printed, for the test to read."""
    spec = tmp_path / "spec.yaml"
    if isinstance(content, str):
        content = content.encode()
    spec.write_bytes(content)
    result = assert_refused(tmp_path, "", "run", spec, "--out", tmp_path / "run")
    return result.stderr.strip()


@pytest.mark.parametrize(
    "content",
    [
        f"name:\n{BOMB}\n{GRID}models: [majority]\n",
        f"{GRID}models:\n  - name: tfidf-logreg\n    C:\n{BOMB.replace('  - ', '      - ')}\n",
    ],
    ids=["name", "model-C"],
)
def test_an_alias_bomb_is_refused_before_anything_formats_it(tmp_path, content):
    assert (
        "spec.yaml' uses YAML aliases (*name) that expand to more than 10000 values, which "
        "shortcutlab refuses (an alias bomb). Write the values out, or use fewer aliases."
    ) in _refused(tmp_path, content)


def test_a_few_aliases_still_read(tmp_path):
    """The bound leaves ordinary aliases alone: the spec reaches the grid's checks."""
    content = f"name: t\n{GRID}base: &m {{name: majority}}\nmodels: [*m]\n"
    assert "Unknown key 'base' in spec.yaml." in _refused(tmp_path, content)


def test_a_duplicate_key_is_refused_naming_the_key_and_both_lines(tmp_path):
    content = f"name: first\n{GRID}models: [majority]\nname: second\n"
    assert (
        "spec.yaml' gives the key 'name' twice in one mapping (line 1 and line 6); YAML would "
        "keep only the last. Remove one."
    ) in _refused(tmp_path, content)


def test_a_duplicate_key_inside_an_entry_is_refused(tmp_path):
    content = f"{GRID}models:\n  - {{name: tfidf-logreg, C: 1.0, C: 2.0}}\n"
    line = _refused(tmp_path, content)
    assert "gives the key 'C' twice in one mapping (line 5 and line 5)" in line


def test_a_merge_key_may_still_be_overridden(tmp_path):
    content = f"{GRID}base: &m {{name: tfidf-logreg, C: 1.0}}\nmodels: [{{<<: *m, C: 2.0}}]\n"
    assert "Unknown key 'base' in spec.yaml." in _refused(tmp_path, content)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (f"name: &x [*x]\n{GRID}", "uses an alias inside the value it names (line 1)"),
        ("name: " + "[" * 200 + "]" * 200 + "\n", "nests values more than 64 levels deep"),
        ("name: " + "[" * 5000 + "]" * 5000 + "\n", "nests values too deeply to read"),
        (b"name: caf\xe9\n", "spec.yaml' is not UTF-8 text: byte 9 is b'\\xe9'. Save the file"),
        ("name: a\x00b\n", "spec.yaml' is not valid YAML at character 8: character #x0000"),
        ("name: [a\n", "spec.yaml' is not valid YAML at line 2, column 1: expected ',' or ']'"),
    ],
    ids=["self-alias", "deep", "deeper-than-python", "latin-1", "nul", "syntax"],
)
def test_yaml_past_the_limits_or_broken_is_refused_in_one_line(tmp_path, content, message):
    assert message in _refused(tmp_path, content)


@pytest.mark.parametrize(
    ("name", "shown"),
    [
        ("[" + ", ".join(["x" * 50] * 200) + "]", "Got a list instead."),
        ("{a: 1}", "Got a dict instead."),
        ("''", "Got '' instead."),
    ],
    ids=["huge-list", "mapping", "empty"],
)
def test_a_name_that_is_not_text_is_refused_without_printing_it_whole(tmp_path, name, shown):
    line = _refused(tmp_path, f"name: {name}\n{GRID}models: [majority]\n")
    assert "The 'name' key in spec.yaml must be 1-100 letters, digits" in line
    assert shown in line
    assert len(line) < 200 + QUOTE_LIMIT


def test_a_value_with_a_line_break_and_a_nul_is_quoted_on_one_line(tmp_path):
    content = f'name: t\n{GRID}models: [majority]\nseeds: ["two\\nlines and a NUL \\0"]\n'
    assert "Got 'two\\nlines and a NUL \\x00' instead." in _refused(tmp_path, content)


def test_a_yaml_option_with_an_alias_bomb_is_refused(tmp_path, corpus_files):
    option = "terms=[" + ", ".join(BOMB.replace("  - ", "").splitlines()) + "]"
    assert_refused(
        tmp_path,
        "--option uses YAML aliases (*name) that expand to more than 10000 values",
        "build", "maze", "--train", corpus_files["train"], "--test", corpus_files["test"],
        "--shortcut", "synonym",
        "--option", option, "--out", tmp_path / "out",
    )  # fmt: skip


def test_a_yaml_option_with_a_duplicate_key_is_refused(tmp_path, corpus_files):
    assert_refused(
        tmp_path,
        "--option gives the key 'a' twice in one mapping (line 1 and line 1)",
        "build", "maze", "--train", corpus_files["train"], "--test", corpus_files["test"],
        "--shortcut", "synonym",
        "--option", "terms={a: 1, a: 2}", "--out", tmp_path / "out",
    )  # fmt: skip


def test_a_file_name_with_a_line_break_is_shown_on_one_line(tmp_path):
    """Every refusal is one line, whatever a message quotes raw (here the file's own name)."""
    data = tmp_path / "two\nlines.csv"
    data.write_text("review,stars\ngood,1\n", encoding="utf-8")
    assert_refused(
        tmp_path,
        "Column 'text' not found in '" + str(tmp_path / "two lines.csv'"),
        "build", "maze", "--train", data, "--test", data, "--shortcut", "single-term",
        "--out", tmp_path / "out",
    )  # fmt: skip
