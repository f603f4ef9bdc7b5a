"""``--help`` of the root command and of its groups: commands by name, every summary whole;
``list``: every component option with its default and description."""

from __future__ import annotations

import io
import re

import pandas as pd
import pytest

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
    words = " ".join(invoke("list").stdout.split())  # the terminal table says the same
    assert "upweight=6.0: Loss weight of the rows" in words
