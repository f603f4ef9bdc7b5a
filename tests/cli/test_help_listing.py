"""``--help`` of the root command and of its groups: commands by name, every summary whole."""

from __future__ import annotations

import re

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
