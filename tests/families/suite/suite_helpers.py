"""Small NLI / sentiment / paraphrase tables for the Shortcut Suite tests, and word checks on
written sets."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

import pandas as pd

from shortcutlab.data.options import InputOptions
from tests.conftest import MNLI  # noqa: F401 - re-exported for the Suite tests

NLI_LABELS = ("entailment", "neutral", "contradiction")
_WORD = re.compile(r"[a-z']+")


def words(text: str) -> list[str]:
    return _WORD.findall(text.lower())


def nli_frame(rows_per_label: int = 40, *, first: int = 0) -> pd.DataFrame:
    """Premise / hypothesis pairs with an NLI label; every hypothesis ends with a full stop.
    ``first`` numbers the first pair (tables with other numbers share no pair)."""
    rows = []
    for i in range(first, first + rows_per_label * len(NLI_LABELS)):
        label = NLI_LABELS[i % len(NLI_LABELS)]
        rows.append(
            {
                "premise": f"The man number {i} walks his dog in the park, and the sun shines.",
                "hypothesis": f"A person {i} is outside with an animal.",
                "label": label,
            }
        )
    return pd.DataFrame(rows)


def write_nli(
    folder: Path, rows_per_label: int = 40, *, first: int = 0, name: str = "nli.tsv"
) -> Path:
    path = folder / name
    nli_frame(rows_per_label, first=first).to_csv(path, sep="\t", index=False)
    return path


#: The first pair number of the test tables below: none of their pairs is a training pair.
TEST_FIRST = 1000


def build_suite_folder(
    folder: Path, sets: Sequence[str], *extra: object
) -> tuple[Path, Path, dict[str, pd.DataFrame]]:
    """Build ``sets`` (plus whatever the build adds) from a small NLI file through the CLI;
    returns the training file, the output folder and every written set."""
    from tests.cli.refusals import invoke

    train = write_nli(folder)
    out = folder / "suite"
    result = invoke(*suite_args(train, out, "--sets", ",".join(sets), *extra))
    assert result.exit_code == 0, result.output
    return train, out, {p.stem: pd.read_csv(p) for p in sorted(out.glob("*.csv"))}


def suite_args(train: Path, out: Path, *extra: object) -> list[object]:
    return [
        "build", "suite", "--train", train, "--text-col", "premise",
        "--text-pair-col", "hypothesis", "--out", out, *extra,
    ]  # fmt: skip


def tautology_on_hypothesis(
    out: Path | None = None,
    data: Path | pd.DataFrame | None = None,
    test: Path | pd.DataFrame | None = None,
):
    """A Maze build of ``data`` and ``test`` (default: two :func:`nli_frame` tables of other
    pairs) with the tautology cue on the hypothesis (λ = 1)."""
    from shortcutlab.families.maze.build import build_maze_benchmark

    return build_maze_benchmark(
        nli_frame(30) if data is None else data,
        nli_frame(30, first=TEST_FIRST) if test is None else test,
        shortcut="tautology",
        strength=1.0,
        inject_on="text_pair",
        labels=["contradiction", "neutral", "entailment"],
        inputs=InputOptions(text_col="premise", text_pair_col="hypothesis", out=out),
    )
