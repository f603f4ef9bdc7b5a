"""``--help`` of the root command and of its groups: commands by name, every summary whole;
``list``: every component option with its default and description."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys

import pandas as pd
import pytest
import typer.main

from shortcutlab.cli.app import app
from tests.cli.refusals import invoke


def command_rows(help_text: str) -> dict[str, str]:
    """The Commands section: name -> its summary, wrapped lines joined."""
    section = help_text.split("Commands:\n", 1)[1]
    rows: dict[str, str] = {}
    name = None
    for line in section.splitlines():
        found = re.match(r"^  (\S+)\s+(.*)$", line)
        if found:
            name = found[1]
            rows[name] = found[2]
        elif name and line.strip():
            rows[name] += " " + line.strip()
    return rows


@pytest.mark.parametrize("group", [(), ("build",), ("suite",), ("annotate",)])
def test_commands_are_listed_by_name_without_truncation(group):
    result = invoke(*group, "--help")
    assert result.exit_code == 0, result.output
    rows = command_rows(result.stdout)
    assert len(rows) >= 1
    assert list(rows) == sorted(rows)
    for name, summary in rows.items():
        assert summary and not summary.endswith("..."), (name, summary)


def test_the_root_help_names_every_command_with_a_whole_sentence():
    rows = command_rows(invoke("--help").stdout)
    assert {"audit", "build", "evaluate", "list", "run", "results", "suite"} <= set(rows)
    assert rows["evaluate"] == (
        "Measure a model's shortcut drop Δ on a built benchmark or on existing split files."
    )
    assert rows["results"] == "Print a run's tables and write its figures."


def test_every_option_of_every_component_has_a_description():
    """A new option needs an entry in its class docstring's Args section (Registry.option_help)."""
    from shortcutlab.attributes import ATTRIBUTES
    from shortcutlab.mitigations import MITIGATIONS
    from shortcutlab.models import MODELS
    from shortcutlab.shortcuts import SHORTCUTS

    described = {
        (registry.kind, name, option): text
        for registry in (SHORTCUTS, MODELS, ATTRIBUTES, MITIGATIONS)
        for name in registry.names()
        for option, text in registry.option_help(name).items()
    }
    assert len(described) > 100
    assert [key for key, text in described.items() if not text.strip()] == []


def test_list_prints_each_option_with_its_default_and_description():
    table = pd.read_csv(io.StringIO(invoke("list", "--format", "csv").stdout))
    column = "options (default: description)"
    options = table.set_index(["kind", "name"])[column]
    jtt = options.loc[("mitigation", "jtt")].splitlines()
    assert "upweight=6.0: Loss weight of the rows the identification model gets wrong." in jtt
    # an inherited constructor: the base class (RationaleMitigation) describes a2r's rate
    assert options.loc[("mitigation", "a2r")].splitlines()[0].startswith("rate=0.2: Share of")
    rows = [line.split("│") for line in invoke("list").stdout.splitlines() if "│" in line]
    words = " ".join(" ".join(row[3].split()) for row in rows)  # the terminal table says the same
    assert "upweight=6.0: Loss weight of the rows" in words


def _list_at(columns: int) -> list[str]:
    """The lines of a whole ``shortcutlab list`` process in a terminal ``columns`` wide."""
    env = os.environ | {"COLUMNS": str(columns)}
    done = subprocess.run(
        [sys.executable, "-m", "shortcutlab", "list"], env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def test_list_fits_the_terminal_and_shows_docstrings_as_plain_text():
    for columns in (80, 120):
        lines = _list_at(columns)
        assert max(map(len, lines)) == columns, columns  # prose wraps to fill it, no wider
    wide = _list_at(250)
    assert max(map(len, wide)) < 250  # prose columns keep a readable width on a wide terminal
    text = "\n".join(wide)
    assert "``" not in text and ":class:" not in text
    assert "The TF-IDF features of tfidf-logreg and a LinearSVC inside" in " ".join(
        line.split("│")[2].strip() for line in wide if line.count("│") == 3
    )


def test_a_terminal_too_narrow_for_the_names_gets_them_whole():
    lines = _list_at(40)
    names = {line.split("│")[1].strip() for line in lines if line.count("│") == 3}
    assert {"concept-correlation", "counterfactual-augment", "tfidf-logreg"} <= names


def _option_line(help_text: str, flag: str) -> str:
    """The option's first line in ``--help``: its flags and what it takes."""
    return next(line.split("  ")[1] for line in help_text.splitlines() if f" {flag} " in line)


def test_no_help_shows_a_python_type_for_what_an_option_takes():
    from tools.mkdocs_hooks import command_sections

    helps = {path: text for path, _, text in command_sections(typer.main.get_command(app))}
    assert len(helps) > 20
    shown = {path: re.findall(r"<\w+>", text) for path, text in helps.items()}
    assert {path: types for path, types in shown.items() if types} == {}


def test_help_names_what_each_option_takes_and_the_choices_are_the_accepted_values():
    from shortcutlab.cli.metavars import choices
    from shortcutlab.cli.output import FORMATS as TABLE_FORMATS
    from shortcutlab.data.parts import INJECT_ON
    from shortcutlab.data.writing import FORMATS as FILE_FORMATS
    from shortcutlab.engine.replicates import VARY
    from shortcutlab.shortcuts.schedule import SAMPLING, STRENGTH_MODES

    evaluate = invoke("evaluate", "--help").stdout
    assert [_option_line(evaluate, flag) for flag in ("--seeds", "--out", "--param", "--model")] == [
        "--seeds INTEGER", "--out PATH", "-p, --param KEY=VALUE", "--model NAME|FILE",
    ]  # fmt: skip
    assert _option_line(evaluate, "--vary") == f"--vary {choices(VARY)}"
    assert _option_line(evaluate, "--format") == f"--format {choices(TABLE_FORMATS)}"
    build = invoke("build", "maze", "--help").stdout
    assert [_option_line(build, flag) for flag in ("--strength", "--text-col", "--train")] == [
        "--strength FLOAT", "--text-col COLUMN", "--train PATH",
    ]  # fmt: skip
    assert _option_line(build, "--strength-mode") == f"--strength-mode {choices(STRENGTH_MODES)}"
    assert _option_line(build, "--sampling") == f"--sampling {choices(SAMPLING)}"
    assert _option_line(build, "--inject-on") == f"--inject-on {choices(INJECT_ON)}"
    assert _option_line(build, "--file-format") == f"--file-format {choices(FILE_FORMATS)}"
    generate = invoke("generate", "--help").stdout
    assert _option_line(generate, "--file-format") == f"--file-format {choices(FILE_FORMATS)}"
