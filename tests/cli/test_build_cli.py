"""``shortcutlab build FAMILY``: one sub-command per family that builds, each with its own options
and its own help, the shared input options on all of them, and the old ``build --family X`` form
answered with the new one."""

from __future__ import annotations

import dataclasses
import json
import re

import pytest

from shortcutlab.data.options import InputOptions
from shortcutlab.families import FAMILIES
from tests.cli.refusals import assert_refused, invoke

BUILDS = FAMILIES.having("build")
#: Options only one family's build has (a sample of each).
OWN_OPTIONS = {
    "maze": ("--shortcut", "--strength", "--test-strength", "--val-size", "--inject-on"),
    "mps": ("--attribute", "--dominance", "--label-mix", "--validation-size", "--annotate-on"),
    "suite": ("--sets", "--rewriter", "--hans", "--paws", "--min-overlap"),
    "robustness": ("--perturbation", "--perturbation-option"),
}


def flags_in(help_text: str) -> set[str]:
    """The long flags a ``--help`` page lists."""
    return set(re.findall(r"(?<![\w-])--[a-z][a-z0-9-]*", help_text))


def shared_flags() -> set[str]:
    """The flags of the shared input options, from the dataclass's own fields."""
    return {
        (field.metadata["flags"] or ("--" + field.name.replace("_", "-"),))[0]
        for field in dataclasses.fields(InputOptions)
    }


def test_build_help_lists_each_family_with_its_registry_summary():
    result = invoke("build", "--help")
    assert result.exit_code == 0, result.output
    listing = " ".join(result.stdout.split("Commands:")[1].split())
    for name in BUILDS:
        assert f"{name} {FAMILIES.get(name).summary}" in listing
    assert set(BUILDS) == {"maze", "mps", "robustness", "suite"} == set(OWN_OPTIONS)


@pytest.mark.parametrize("family", BUILDS)
def test_each_build_shows_its_own_options_and_the_shared_ones_only(family):
    result = invoke("build", family, "--help")
    assert result.exit_code == 0, result.output
    shown = flags_in(result.stdout)
    assert shared_flags() <= shown
    assert set(OWN_OPTIONS[family]) <= shown
    others = {flag for name, flags in OWN_OPTIONS.items() if name != family for flag in flags}
    assert not shown & others, sorted(shown & others)
    assert "--family" not in shown


@pytest.mark.parametrize("family", ["maze", "mps", "suite"])
def test_the_old_form_names_the_new_one_and_writes_nothing(tmp_path, corpus_files, family):
    assert_refused(
        tmp_path,
        f"'build --family {family}' is now the sub-command 'shortcutlab build {family}': run it "
        f"with the other options as they were (see 'shortcutlab build {family} --help').",
        "build", "--family", family, "--train", corpus_files["train"], "--out", tmp_path / "out",
    )  # fmt: skip


def test_the_old_default_maze_form_and_an_unknown_family_name_the_sub_commands(
    tmp_path, corpus_files
):
    message = (
        "'build' takes the family first now: 'shortcutlab build FAMILY ...' with FAMILY one of "
        "maze, mps, robustness, suite (Maze was the default: 'shortcutlab build maze ...')."
    )
    assert_refused(
        tmp_path, message,
        "build", "--train", corpus_files["train"], "--test", corpus_files["test"],
        "--shortcut", "single-term", "--out", tmp_path / "out",
    )  # fmt: skip
    assert_refused(
        tmp_path, message, "build", "--family=mze", "--train", corpus_files["train"]
    )  # fmt: skip


def test_a_missing_or_malformed_option_is_one_line(tmp_path, corpus_files):
    assert_refused(
        tmp_path, "Missing option '--shortcut'. See 'shortcutlab build maze --help'.",
        "build", "maze", "--train", corpus_files["train"], "--test", corpus_files["test"],
        "--out", tmp_path / "out",
    )  # fmt: skip
    assert_refused(
        tmp_path, "Invalid value for '--size': 'even' is not a valid int. "
        "See 'shortcutlab build suite --help'.",
        "build", "suite", "--train", corpus_files["train"], "--sets", "standard",
        "--size", "even", "--out", tmp_path / "out",
    )  # fmt: skip


def test_an_option_of_two_other_builds_names_both(tmp_path, corpus_files):
    assert_refused(
        tmp_path,
        "--labels is an option of 'shortcutlab build maze or mps or robustness', not of 'build "
        "suite'. Drop "
        "it, or run 'shortcutlab build maze'.",
        "build", "suite", "--train", corpus_files["train"], "--sets", "standard",
        "--labels", "1,2", "--out", tmp_path / "out",
    )  # fmt: skip


def test_shared_options_reach_every_builder(tmp_path, corpus):
    """The same shared options on all three builds: renamed columns, the format, the folder."""
    for split in ("train", "test"):
        frame = corpus[split][["text", "label"]].rename(
            columns={"text": "review", "label": "stars"}
        )
        frame.to_csv(tmp_path / f"reviews-{split}.csv", index=False)
    shared = ["--text-col", "review", "--label-col", "stars", "--file-format", "jsonl"]
    data = ["--train", tmp_path / "reviews-train.csv"]
    commands = {
        "maze": [*data, "--test", tmp_path / "reviews-test.csv", "--shortcut", "single-term"],
        "mps": [*data, "--attribute", "negation"],
        "suite": [*data, "--sets", "standard", "--size", "50"],
    }
    for family, options in commands.items():
        out = tmp_path / family
        result = invoke("build", family, *options, *shared, "--out", out)
        assert result.exit_code == 0, result.output
        arguments = json.loads((out / "manifest.json").read_text())["arguments"]
        assert (arguments["text_col"], arguments["label_col"]) == ("review", "stars")
        assert arguments["format"] == "jsonl" and list(out.glob("*.jsonl"))
        assert not list(out.glob("*.csv"))


def test_a_maze_build_process_prints_its_table_without_loading_pandas(tmp_path, corpus_files):
    """pandas takes about half a second to import: a whole ``build maze`` process (default
    table format) reads, writes and prints without it, and still prints the cue-rate table."""
    from tests.cli.test_lazy_startup import whole_process

    printed, loaded = whole_process(
        "build", "maze", "--train", str(corpus_files["train"]), "--test", str(corpus_files["test"]),
        "--shortcut", "category", "--out", str(tmp_path / "b"),
    )  # fmt: skip
    assert "Cue rate per label: target / observed" in printed
    assert "anti_test" in printed
    assert "pandas" not in loaded
