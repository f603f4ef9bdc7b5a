"""The public API speaks one vocabulary: every function that reads data takes the same column
keywords (or ``inputs=``), a path, a DataFrame or a ``datasets.Dataset``, and its refusals name
the caller's parameters (Python keywords from Python, options from the command line)."""

from __future__ import annotations

import dataclasses
import errno
import inspect
import re

import pandas as pd
import pytest

import shortcutlab
from shortcutlab.errors import (
    CLI,
    GRID,
    ConfigError,
    DataError,
    InputFileError,
    OutputExistsError,
    caller,
    os_error_message,
)
from tests.cli.refusals import assert_refused

COLUMN_KEYWORDS = ("text_col", "label_col", "text_pair_col")
READING_KEYWORDS = (*COLUMN_KEYWORDS, "encoding", "on_empty")
# Spellings another library or an older shortcutlab uses for the same things.
OTHER_SPELLINGS = {"text", "label", "text_column", "label_column", "pair_col", "text_pair_column"}
#: The public functions that read labelled tables, and the argument that takes the first one.
DATA_FUNCTIONS = {
    "audit_dataset": "data",
    "build_maze_benchmark": "train",
    "build_mps_benchmark": "train",
    "build_suite_benchmark": "train",
    "evaluate_splits": "train",
    "load_splits": "train",
    "load_table": "source",
    "run_cat": "train",
}


def public_callables() -> dict[str, inspect.Signature]:
    """The signature of every public function and class (a dataclass: its fields)."""
    signatures = {}
    for name in sorted(shortcutlab._LAZY):
        value = getattr(shortcutlab, name)
        if callable(value) and (inspect.isfunction(value) or dataclasses.is_dataclass(value)):
            signatures[name] = inspect.signature(value)
    return signatures


def test_the_walk_sees_the_public_api():
    seen = public_callables()
    assert {*DATA_FUNCTIONS, "evaluate_benchmark", "explain", "CatConfig", "InputOptions"} <= set(
        seen
    )


@pytest.mark.parametrize(("name", "signature"), public_callables().items())
def test_column_keywords_are_spelled_alike(name, signature):
    parameters = set(signature.parameters)
    assert not parameters & OTHER_SPELLINGS, f"{name} spells a column keyword another way"
    if name in DATA_FUNCTIONS or name in ("InputOptions",):
        assert set(READING_KEYWORDS) <= parameters, name


@pytest.mark.parametrize("name", [n for n in DATA_FUNCTIONS if n != "load_table"])
def test_every_data_function_also_takes_inputs_and_refuses_both(name):
    function = getattr(shortcutlab, name)
    assert "inputs" in inspect.signature(function).parameters
    for keyword in READING_KEYWORDS:  # None means "not given", so both spellings can be told apart
        assert inspect.signature(function).parameters[keyword].default is None, (name, keyword)


def test_giving_both_spellings_is_refused_in_one_line():
    frame = pd.DataFrame({"sentence": ["good", "bad"] * 10, "label": [1, 0] * 10})
    with pytest.raises(
        ConfigError,
        match=r"^build_maze_benchmark takes text_col='sentence' or inputs=InputOptions\(\.\.\.\), "
        r"not both\. Move text_col into inputs, or drop inputs\.$",
    ):
        shortcutlab.build_maze_benchmark(
            frame, frame, shortcut="single-term", text_col="sentence",
            inputs=shortcutlab.InputOptions(text_col="sentence"),
        )  # fmt: skip


def test_the_column_keywords_read_a_build_as_inputs_does():
    rows = [f"item {i} is {'good' if i % 2 else 'bad'}" for i in range(60)]
    train = pd.DataFrame({"sentence": rows, "stars": [i % 2 for i in range(60)]})
    test = train.assign(sentence=train["sentence"] + " today")
    options = dict(shortcut="single-term", strength=1.0)
    by_keywords = shortcutlab.build_maze_benchmark(
        train, test, text_col="sentence", label_col="stars", **options
    )
    by_inputs = shortcutlab.build_maze_benchmark(
        train, test, inputs=shortcutlab.InputOptions(text_col="sentence", label_col="stars"),
        **options,
    )  # fmt: skip
    for split in by_inputs.splits:
        pd.testing.assert_frame_equal(by_keywords[split], by_inputs[split])


def test_a_missing_shortcut_is_refused_as_the_command_line_refuses_it():
    frame = pd.DataFrame({"text": ["good", "bad"] * 10, "label": [1, 0] * 10})
    with pytest.raises(TypeError, match="missing 1 required keyword-only argument: 'shortcut'"):
        shortcutlab.build_maze_benchmark(frame, frame)
    with pytest.raises(TypeError, match="missing 1 required keyword-only argument: 'sets'"):
        shortcutlab.build_suite_benchmark(None)


def test_load_run_is_gone_and_load_results_is_the_one_name():
    assert "load_run" not in shortcutlab.__all__ and "load_run" not in shortcutlab._LAZY
    with pytest.raises(AttributeError):
        shortcutlab.load_run  # noqa: B018


def test_split_frames_and_datasets_evaluate_as_files_do(tmp_path):
    datasets = pytest.importorskip("datasets")
    words = ["good", "bad"]
    train = pd.DataFrame(
        {"review": [f"{words[i % 2]} item {i}" for i in range(80)], "y": [i % 2 for i in range(80)]}
    )
    test = train.assign(review=train["review"] + " honestly")
    anti = train.assign(review=train["review"] + " frankly")
    for name, frame in (("train", train), ("test", test), ("anti", anti)):
        frame.to_csv(tmp_path / f"{name}.csv", index=False)
    options = dict(text_col="review", label_col="y", seeds=1, bootstrap=100)
    from_files = shortcutlab.evaluate_splits(
        tmp_path / "train.csv", tmp_path / "test.csv", tmp_path / "anti.csv", **options
    )
    from_frames = shortcutlab.evaluate_splits(train, test, anti, **options)
    from_datasets = shortcutlab.evaluate_splits(
        *(datasets.Dataset.from_pandas(f) for f in (train, test, anti)), **options
    )
    expected = from_files.summary["splits"]
    assert from_frames.summary["splits"] == from_datasets.summary["splits"] == expected


# --- Refusals name the caller's parameters ---------------------------------------------------


@pytest.fixture
def tables(tmp_path):
    frame = pd.DataFrame({"sentence": [f"row {i}" for i in range(40)], "label": [0, 1] * 20})
    frame.to_csv(tmp_path / "train.csv", index=False)
    frame.assign(sentence=frame["sentence"] + " x").to_csv(tmp_path / "test.csv", index=False)
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "mine.txt").write_text("keep")
    return tmp_path


def test_a_missing_column_names_text_col_in_python_and_the_option_on_the_command_line(tables):
    with pytest.raises(DataError, match=r"Pass the right name with text_col=\.\.\.$"):
        shortcutlab.build_maze_benchmark(
            tables / "train.csv", tables / "test.csv", shortcut="single-term"
        )
    assert_refused(
        tables, "Pass the right name with --text-col.",
        "build", "maze", "--train", tables / "train.csv", "--test", tables / "test.csv",
        "--shortcut", "single-term", "--out", tables / "out",
    )  # fmt: skip


def test_a_full_output_folder_names_out_and_overwrite_in_the_callers_terms(tables):
    with pytest.raises(
        OutputExistsError, match=r"Choose another out=\.\.\. or pass overwrite=True\.$"
    ):
        shortcutlab.build_maze_benchmark(
            tables / "train.csv", tables / "test.csv", shortcut="single-term",
            inputs=shortcutlab.InputOptions(text_col="sentence", out=tables / "full"),
        )  # fmt: skip
    assert_refused(
        tables, "Choose another --out or pass --overwrite.",
        "build", "maze", "--train", tables / "train.csv", "--test", tables / "test.csv",
        "--shortcut", "single-term", "--text-col", "sentence", "--out", tables / "full",
    )  # fmt: skip


def test_an_empty_row_refusal_names_on_empty_in_the_callers_terms(tables):
    frame = pd.DataFrame({"text": ["a", "", "b", "c"], "label": [0, 1, 0, 1]})
    frame.to_csv(tables / "gaps.csv", index=False)
    with pytest.raises(DataError, match=r"Remove them or pass on_empty='drop'\.$"):
        shortcutlab.audit_dataset(tables / "gaps.csv", on_empty="error")
    assert_refused(
        tables, "Remove them or pass --on-empty drop.",
        "audit", tables / "gaps.csv", "--on-empty", "error",
    )  # fmt: skip


# --- Model parameters ---------------------------------------------------------------------


def test_a_function_that_takes_a_model_takes_its_parameters_as_params():
    takes_model = {
        name: set(signature.parameters)
        for name, signature in public_callables().items()
        if "model" in signature.parameters and not name.endswith("Result")  # results hold a record
    }
    assert takes_model  # evaluate_benchmark, evaluate_splits, evaluate_suite, explain, ...
    for name, parameters in takes_model.items():
        assert "params" in parameters, name
        if "model_params" in parameters:  # kept only to refuse the old spelling, naming the new
            assert public_callables()[name].parameters["model_params"].default is None, name
            required = [
                p
                for p in public_callables()[name].parameters.values()
                if p.default is inspect.Parameter.empty and p.kind is p.POSITIONAL_OR_KEYWORD
            ]  # the old keyword is refused before any of them is read
            with pytest.raises(ConfigError, match=r"'model_params' is now 'params'"):
                getattr(shortcutlab, name)(*[None] * len(required), model_params={"C": 1.0})


# --- Every refusal mechanism names the caller's settings ------------------------------------
# One message per shared mechanism, from Python and from the command line.


def test_a_run_names_its_own_settings_in_the_callers_terms_inside_the_grid(tmp_path):
    """out/force are no spec keys: inside the grid (spec keys) they stay the caller's words."""
    from tests.cli.refusals import TINY_GRID

    (tmp_path / "spec.yaml").write_text(TINY_GRID)
    (tmp_path / "taken").mkdir()
    (tmp_path / "taken" / "mine.txt").write_text("keep")
    with pytest.raises(
        OutputExistsError, match=r"is not a run folder\. Choose another out=\.\.\.$"
    ):
        shortcutlab.run_experiment(tmp_path / "spec.yaml", tmp_path / "taken")
    assert_refused(
        tmp_path, "is not empty and is not a run folder. Choose another --out.",
        "run", tmp_path / "spec.yaml", "--out", tmp_path / "taken",
    )  # fmt: skip


def test_advice_to_run_a_command_names_the_callers_way_to_run_it(tmp_path):
    (tmp_path / "empty").mkdir()
    with pytest.raises(InputFileError, match=r"Run run_experiment\(spec, out='.*empty'\) first\.$"):
        shortcutlab.load_results(tmp_path / "empty")
    assert_refused(
        tmp_path, f"Run 'shortcutlab run SPEC --out {tmp_path / 'empty'}' first.",
        "results", tmp_path / "empty",
    )  # fmt: skip


def test_the_machines_refusals_advise_the_callers_output_setting():
    full = OSError(errno.ENOSPC, "No space left on device", "/data/run")
    assert os_error_message(full).endswith("free space on it, or point out=... at another disk.")
    with caller(CLI), caller(GRID):  # shortcutlab run: the grid's caller is the command line
        assert os_error_message(full).endswith("or point --out at another disk.")


def test_an_mps_plan_refusal_names_the_mps_settings(tmp_path):
    from tests.conftest import THREE, negation_rows

    negation_rows(THREE, seed=2).to_csv(tmp_path / "pool.csv", index=False)
    fix = "keep more values with {} or {}"
    with pytest.raises(DataError, match=re.escape(fix.format("values=...", "top_values=..."))):
        shortcutlab.build_mps_benchmark(tmp_path / "pool.csv", values=["with_negation"])
    assert_refused(
        tmp_path, fix.format("--values", "--top-values."),
        "build", "mps", "--train", tmp_path / "pool.csv", "--out", tmp_path / "out",
        "--values", "with_negation",
    )  # fmt: skip


def test_a_suite_refusal_names_its_settings_in_the_callers_terms(tables):
    with pytest.raises(ConfigError, match=r"is made from data: pass train=\.\.\.\.$"):
        shortcutlab.build_suite_benchmark(None, sets=["standard"])
    fix = "{} applies to the paraphrase-overlap set; add it to {} or drop {}."
    with pytest.raises(
        ConfigError, match=re.escape(fix.format("paws=...", "sets=...", "paws=..."))
    ):
        shortcutlab.build_suite_benchmark(None, sets=["lexical-overlap"], paws="paws.tsv")
    assert_refused(
        tables, fix.format("--paws", "--sets", "--paws"),
        "build", "suite", "--train", tables / "train.csv", "--sets", "lexical-overlap",
        "--paws", "paws.tsv", "--out", tables / "out",
    )  # fmt: skip


def test_an_audit_refusal_names_alpha_in_the_callers_terms(tables):
    with pytest.raises(
        ConfigError, match=r"^alpha=\.\.\. must be in \(0, 1\), e\.g\. alpha=0\.05\."
    ):
        shortcutlab.audit_dataset(tables / "train.csv", text_col="sentence", alpha=2.0)
    assert_refused(
        tables, "--alpha must be in (0, 1), e.g. --alpha 0.05.",
        "audit", tables / "train.csv", "--text-col", "sentence", "--alpha", "2",
    )  # fmt: skip


def test_missing_split_files_are_named_in_the_callers_terms(tables):
    with pytest.raises(ConfigError, match=r"anti_test=\.\.\. is missing\."):
        shortcutlab.load_splits(tables / "train.csv", tables / "test.csv", None)
    assert_refused(
        tables, "needs --train, --test and --anti-test; --anti-test is missing.",
        "evaluate", "--train", tables / "train.csv", "--test", tables / "test.csv",
        "--out", tables / "out",
    )  # fmt: skip


def test_a_counterfactual_refusal_names_default_label_in_the_callers_terms(tmp_path):
    pairs = pd.DataFrame(
        {"text": [f"a {i}" for i in range(40)], "text_pair": [f"b {i}" for i in range(40)]}
    ).assign(label=["yes", "no"] * 20)
    pairs.to_csv(tmp_path / "pairs.csv", index=False)
    with pytest.raises(ConfigError, match=r"Pass default_label=\.\.\. with one of them\.$"):
        shortcutlab.run_cat(
            tmp_path / "pairs.csv", tmp_path / "pairs.csv", text_pair_col="text_pair",
            config=shortcutlab.CatConfig(default_label="nonsense"),
        )  # fmt: skip
    assert_refused(
        tmp_path, "Pass --default-label with one of them.",
        "cat", "--train", tmp_path / "pairs.csv", "--test", tmp_path / "pairs.csv",
        "--text-pair-col", "text_pair", "--default-label", "nonsense", "--out", tmp_path / "out",
    )  # fmt: skip


def test_an_output_path_read_inside_a_grid_is_still_the_callers_option(tmp_path):
    """``shortcutlab results RUN --out FILE`` reads the run as a grid; --out is the command's."""
    from shortcutlab.data.writing import check_folder_path

    (tmp_path / "afile").write_text("x")
    with caller(CLI), caller(GRID), pytest.raises(OutputExistsError, match=r"with --out\.$"):
        check_folder_path(tmp_path / "afile")
    with caller(GRID), pytest.raises(OutputExistsError, match=r"with out=\.\.\.$"):
        check_folder_path(tmp_path / "afile")
