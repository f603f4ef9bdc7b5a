"""The hostile cases of ``hostile_cases.py``, by class (the sections of issue 21).

Each case takes a :class:`Case` (a fresh folder whose ``work`` holds ``train.csv`` and ``test.csv``:
600 and 300 rows of the embedded corpus, labels 1-5) and returns None when it held, or what broke.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import pandas as pd
import yaml
from hostile_cases import Case, one_line_refusal

CASES: list[tuple[str, str, Callable[[Case], str | None]]] = []
BUILD = (
    "build",
    "maze",
    "--train",
    "train.csv",
    "--test",
    "test.csv",
    "--shortcut",
    "single-term",
    "--strength",
    "0.8",
)


def case(group: str) -> Callable:
    def register(function: Callable[[Case], str | None]) -> Callable[[Case], str | None]:
        CASES.append((group, function.__name__, function))
        return function

    return register


def relabel(
    case: Case, split: str, mapping: Callable[[object], object], suffix: str = "csv"
) -> str:
    table = pd.read_csv(case.work / f"{split}.csv")
    table["label"] = table["label"].map(mapping)
    name = f"{split}-x.{suffix}"
    if suffix == "jsonl":
        table.to_json(case.work / name, orient="records", lines=True)
    else:
        table.to_csv(case.work / name, index=False)
    return name


NAMES = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five"}


def spec(case: Case, **overrides: object) -> str:
    """A small Maze grid spec (one shortcut, one λ, TF-IDF, one seed) with ``overrides``."""
    body = {
        "name": "hostile",
        "data": {"train": "train.csv", "test": "test.csv"},
        "shortcuts": ["single-term"],
        "strengths": [0.8],
        "val_size": 50,
        "models": [{"name": "tfidf-logreg"}],
        "seeds": [0],
    }
    body.update(overrides)
    (case.work / "spec.yaml").write_text(yaml.safe_dump(body))
    return "spec.yaml"


# 1. Label types that differ between files ---------------------------------------------------
@case("labels")
def build_int_train_named_test(case: Case) -> str | None:
    return case.refused(*BUILD[:4], relabel(case, "test", NAMES.get), *BUILD[6:], "--out", "out")


@case("labels")
def build_bool_train_named_test(case: Case) -> str | None:
    train = relabel(case, "train", lambda v: v > 3)
    test = relabel(case, "test", lambda v: "yes" if v > 3 else "no")
    return case.refused(
        "build", "maze", "--train", train, "--test", test, *BUILD[6:], "--out", "out"
    )


@case("labels")
def build_object_labels(case: Case) -> str | None:
    train = relabel(case, "train", lambda v: {"stars": v}, "jsonl")
    return case.refused(
        "build", "maze", "--train", train, "--test", "test.csv", *BUILD[6:], "--out", "o"
    )


@case("labels")
def build_list_labels(case: Case) -> str | None:
    train = relabel(case, "train", lambda v: [v], "jsonl")
    return case.refused(
        "build", "maze", "--train", train, "--test", "test.csv", *BUILD[6:], "--out", "o"
    )


@case("labels")
def audit_int_train_named_test(case: Case) -> str | None:
    return case.refused(
        "audit", "train.csv", "--test", relabel(case, "test", NAMES.get), "--out", "a"
    )


@case("labels")
def run_int_train_named_test(case: Case) -> str | None:
    test = relabel(case, "test", NAMES.get)
    return case.refused("run", spec(case, data={"train": "train.csv", "test": test}), "--out", "r")


@case("labels")
def same_text_int_and_string_labels_build(case: Case) -> str | None:
    test = relabel(case, "test", lambda v: f"{v}", "jsonl")  # "1" in JSON strings, 1 in the CSV
    _, broke = case.succeeded(
        "build", "maze", "--train", "train.csv", "--test", test, *BUILD[6:], "--out", "o"
    )
    return broke


# 2. Nothing written outside the output folder -----------------------------------------------
def _named_run(case: Case, **overrides: object) -> str | None:
    return case.refused("run", spec(case, **overrides), "--out", "r")


@case("names")
def dataset_name_traversal(case: Case) -> str | None:
    return _named_run(case, data={"name": "../../ESC4", "train": "train.csv", "test": "test.csv"})


@case("names")
def dataset_name_absolute(case: Case) -> str | None:
    target = str(case.base / "ABS")
    return _named_run(case, data={"name": target, "train": "train.csv", "test": "test.csv"})


@case("names")
def dataset_name_nul(case: Case) -> str | None:
    return _named_run(case, data={"name": "a\x00b", "train": "train.csv", "test": "test.csv"})


@case("names")
def dataset_name_backslash(case: Case) -> str | None:
    return _named_run(case, data={"name": "..\\..\\x", "train": "train.csv", "test": "test.csv"})


@case("names")
def dataset_name_dot(case: Case) -> str | None:
    return _named_run(case, data={"name": ".", "train": "train.csv", "test": "test.csv"})


@case("names")
def dataset_name_empty(case: Case) -> str | None:
    return _named_run(case, data={"name": "", "train": "train.csv", "test": "test.csv"})


@case("names")
def dataset_name_very_long(case: Case) -> str | None:
    return _named_run(case, data={"name": "x" * 400, "train": "train.csv", "test": "test.csv"})


@case("names")
def model_id_traversal(case: Case) -> str | None:
    return _named_run(case, models=[{"name": "tfidf-logreg", "id": "../../M"}])


@case("names")
def spec_name_traversal(case: Case) -> str | None:
    return _named_run(case, name="../../S")


@case("names")
def mitigation_id_traversal(case: Case) -> str | None:
    return _named_run(case, mitigations=[{"name": "reweight", "id": "../../G"}])


# 3. A failed run leaves nothing that blocks the fix ------------------------------------------
def _refused_then_fixed(case: Case, **bad: object) -> str | None:
    broke = case.refused("run", spec(case, **bad), "--out", "r")
    if broke:
        return broke
    _, broke = case.succeeded("run", spec(case), "--out", "r")
    return f"the corrected spec: {broke}" if broke else None


@case("runs")
def val_size_infinite(case: Case) -> str | None:
    return _refused_then_fixed(case, val_size=float("inf"))


@case("runs")
def seed_past_64_bits(case: Case) -> str | None:
    spec(case)
    text = (
        (case.work / "spec.yaml")
        .read_text()
        .replace("seeds:\n- 0", "seeds:\n- 99999999999999999999")
    )
    (case.work / "bad.yaml").write_text(text)
    broke = case.refused("run", "bad.yaml", "--out", "r")
    if broke:
        return broke
    _, broke = case.succeeded("run", spec(case), "--out", "r")
    return f"the corrected spec: {broke}" if broke else None


@case("runs")
def strength_nan(case: Case) -> str | None:
    return _refused_then_fixed(case, strengths=[float("nan")])


@case("runs")
def strength_above_one(case: Case) -> str | None:
    return _refused_then_fixed(case, strengths=[1.5])


@case("runs")
def negative_seed(case: Case) -> str | None:
    return _refused_then_fixed(case, seeds=[-1])


@case("runs")
def val_size_negative(case: Case) -> str | None:
    return _refused_then_fixed(case, val_size=-5)


@case("runs")
def two_runs_one_folder(case: Case) -> str | None:
    spec(case, seeds=[0, 1, 2])
    first = case.popen("run", "spec.yaml", "--out", "r")
    deadline = time.monotonic() + 30
    while first.poll() is None and time.monotonic() < deadline:  # until the run folder exists
        if (case.work / "r").exists():
            break
        time.sleep(0.1)
    second = case.cli("run", "spec.yaml", "--out", "r")
    out, err = first.communicate(timeout=300)
    if first.returncode != 0:
        return f"the first run died: {err.strip().splitlines()[-1:]}"
    return one_line_refusal(second)


@case("runs")
def stale_partial_removed(case: Case) -> str | None:
    stale = case.work / ".out.99999999.k3j9x0qa.partial"  # .NAME.PID.RANDOM: a dead PID
    stale.mkdir()
    (stale / "train.csv").write_text("x")
    _, broke = case.succeeded(*BUILD, "--out", "out")
    leftovers = [p.name for p in case.work.iterdir() if p.name.endswith(".partial")]
    return broke or (f"left {leftovers}" if leftovers else None)


# 5. Parsing limits ---------------------------------------------------------------------------
BOMB = "\n".join(
    ["a: &a [x, x, x, x, x, x, x, x, x]"]
    + [
        f"{chr(98 + i)}: &{chr(98 + i)} [*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)},"
        f" *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}]"
        for i in range(8)
    ]
)


@case("parsing")
def alias_bomb_under_name(case: Case) -> str | None:
    (case.work / "spec.yaml").write_text(
        BOMB + "\nname: *i\ndata: {train: train.csv, test: test.csv}\n"
    )
    return case.refused("run", "spec.yaml", "--out", "r", timeout=30)


@case("parsing")
def alias_bomb_under_model_c(case: Case) -> str | None:
    body = (
        BOMB + "\nname: x\ndata: {train: train.csv, test: test.csv}\nshortcuts: [single-term]\n"
        "strengths: [0.8]\nmodels: [{name: tfidf-logreg, C: *i}]\nseeds: [0]\n"
    )
    (case.work / "spec.yaml").write_text(body)
    return case.refused("run", "spec.yaml", "--out", "r", timeout=30)


@case("parsing")
def duplicate_keys(case: Case) -> str | None:
    (case.work / "spec.yaml").write_text(
        "name: a\nname: b\ndata: {train: train.csv, test: test.csv}\nshortcuts: [single-term]\n"
        "strengths: [0.8]\nmodels: [tfidf-logreg]\nseeds: [0]\n"
    )
    return case.refused("run", "spec.yaml", "--out", "r")


@case("parsing")
def name_is_a_list(case: Case) -> str | None:
    return case.refused("run", spec(case, name=[1, 2]), "--out", "r")


@case("parsing")
def name_is_a_mapping(case: Case) -> str | None:
    return case.refused("run", spec(case, name={"a": 1}), "--out", "r")


@case("parsing")
def huge_value_in_message(case: Case) -> str | None:
    return case.refused("run", spec(case, strengths=["x" * 100_000]), "--out", "r")


@case("parsing")
def spec_is_a_list(case: Case) -> str | None:
    (case.work / "spec.yaml").write_text("- a\n- b\n")
    return case.refused("run", "spec.yaml", "--out", "r")


@case("parsing")
def spec_is_empty(case: Case) -> str | None:
    (case.work / "spec.yaml").write_text("")
    return case.refused("run", "spec.yaml", "--out", "r")


@case("parsing")
def spec_with_tabs(case: Case) -> str | None:
    (case.work / "spec.yaml").write_text("name: a\n\tdata: x\n")
    return case.refused("run", "spec.yaml", "--out", "r")


@case("parsing")
def spec_random_bytes(case: Case) -> str | None:
    (case.work / "spec.yaml").write_bytes(bytes(range(256)) * 4)
    return case.refused("run", "spec.yaml", "--out", "r")


@case("parsing")
def attribute_option_alias_bomb(case: Case) -> str | None:
    option = "k=" + BOMB.replace("\n", ", ").replace(": &", ": &")  # not valid flow YAML: refused
    return case.refused(
        "build",
        "mps",
        "--train",
        "train.csv",
        "--attribute",
        "frequent-words",
        "--attribute-option",
        option,
        "--out",
        "o",
        timeout=30,
    )


# 6. CSV files people open in spreadsheets ----------------------------------------------------
EVIL = '=HYPERLINK("http://evil","click")'


def _evil_rows(case: Case) -> None:
    for split in ("train", "test"):
        table = pd.read_csv(case.work / f"{split}.csv")
        chosen = (table["label"] == 5) | (table.index % 7 == 0)  # a shortcut the audit will rank
        table.loc[chosen, "text"] = EVIL + " " + table["text"]
        table.to_csv(case.work / f"{split}.csv", index=False)


def _cells_starting(path: Path, starts: tuple[str, ...] = ("=", "+", "@", "\t", "\r")) -> int:
    table = pd.read_csv(path, dtype=str, keep_default_na=False)
    return sum(str(v).startswith(starts) for column in table for v in table[column])


@case("people")
def audit_csv_neutralised(case: Case) -> str | None:
    _evil_rows(case)
    for split in ("train", "test"):
        table = pd.read_csv(case.work / f"{split}.csv")
        table["source"] = [EVIL if i % 2 else "@SUM(A1:A9)" for i in range(len(table))]
        table.to_csv(case.work / f"{split}.csv", index=False)
    _, broke = case.succeeded(
        "audit", "train.csv", "--test", "test.csv", "--meta-col", "source", "--out", "a"
    )
    if broke:
        return broke
    count = _cells_starting(case.work / "a" / "audit.csv")
    return f"{count} cells of audit.csv start with a formula character" if count else None


@case("people")
def build_keeps_texts_byte_exact(case: Case) -> str | None:
    _evil_rows(case)
    _, broke = case.succeeded(*BUILD, "--out", "out")
    if broke:
        return broke
    texts = pd.read_csv(case.work / "out" / "test.csv")["text"]
    return None if texts.str.startswith(EVIL).any() else "the benchmark's texts were changed"


@case("people")
def results_csv_neutralised(case: Case) -> str | None:
    spec(case, models=[{"name": "tfidf-logreg", "id": "-cmd"}])
    outcome = case.cli("run", "spec.yaml", "--out", "r")
    if outcome.rc == 2:
        return None  # the id is refused as a name: nothing reaches a CSV
    outcome, broke = case.succeeded("results", "r", "--format", "csv")
    if broke:
        return broke
    bad = [line for line in outcome.stdout.splitlines() if "-cmd" in line.split(",")]
    return f"csv rows starting with a formula: {bad[:2]}" if bad else None
