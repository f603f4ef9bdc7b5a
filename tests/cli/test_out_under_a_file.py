"""An output path under a regular file (``--out afile/sub``): every command that writes a folder
or a page answers one line naming the file, exits 2 and writes nothing (before, most ended in a
FileExistsError traceback from ``mkdir``)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from tests.cli.refusals import TINY_GRID, assert_refused, invoke

MESSAGE = "lies under '{file}', which is a file, not a folder. Choose an output path outside it."


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory, corpus: dict[str, pd.DataFrame]) -> Path:
    """A folder with train.csv, test.csv, a built benchmark, a finished run and a plain file."""
    folder = tmp_path_factory.mktemp("out-under-a-file")
    for split in ("train", "test"):
        corpus[split][["text", "label"]].to_csv(folder / f"{split}.csv", index=False)
    (folder / "spec.yaml").write_text(TINY_GRID)
    built = invoke(
        "build", "maze", "--train", folder / "train.csv", "--test", folder / "test.csv",
        "--shortcut", "single-term", "--out", folder / "bench",
    )  # fmt: skip
    assert built.exit_code == 0, built.output
    ran = invoke("run", folder / "spec.yaml", "--out", folder / "run")
    assert ran.exit_code == 0, ran.output
    (folder / "afile").write_text("a file, not a folder\n")
    return folder


COMMANDS = {
    "build maze": ["build", "maze", "--train", "{d}/train.csv", "--test", "{d}/test.csv",
                   "--shortcut", "single-term", "--out", "{out}"],
    "build mps": ["build", "mps", "--train", "{d}/train.csv", "--attribute", "negation",
                  "--out", "{out}"],
    "build suite": ["build", "suite", "--train", "{d}/train.csv", "--sets", "lexical-overlap",
                    "--size", "20", "--out", "{out}"],
    "generate": ["generate", "--out", "{out}"],
    "split": ["split", "{d}/train.csv", "--by", "label", "--out", "{out}"],
    "audit --html": ["audit", "{d}/train.csv", "--test", "{d}/test.csv", "--out", "{out}",
                     "--html"],
    "export hf": ["export", "{d}/bench", "--to", "hf", "--out", "{out}"],
    "export lm-eval": ["export", "{d}/bench", "--to", "lm-eval", "--out", "{out}"],
    "evaluate": ["evaluate", "{d}/bench", "--model", "majority", "--seeds", "1", "--out",
                 "{out}"],
    "run": ["run", "{d}/spec.yaml", "--out", "{out}"],
    "results": ["results", "{d}/run", "--out", "{out}"],
    "report": ["report", "{d}/run", "--out", "{out}/report.html"],
    "demo": ["demo", "--out", "{out}"],
    "make-tiny-model": ["make-tiny-model", "--out", "{out}"],
    "annotate serve": ["annotate", "serve", "{d}/bench", "--task", "label", "--folder", "{out}",
                       "--port", "0"],
}  # fmt: skip


@pytest.mark.parametrize("command", sorted(COMMANDS))
@pytest.mark.parametrize("depth", ["afile/sub", "afile/sub/deeper"])
def test_an_out_under_a_file_is_refused_in_one_line(inputs, command, depth):
    out = inputs / depth
    args = [part.format(d=inputs, out=out) for part in COMMANDS[command]]
    message = MESSAGE.format(file=inputs / "afile")
    assert_refused(inputs, message, *args)


def test_results_without_out_refuses_a_file_where_its_figures_folder_goes(inputs):
    figures = inputs / "run" / "figures"  # 'run' writes no figures; 'results' writes them here
    figures.write_text("not a folder\n")
    try:
        assert_refused(inputs, f"The output path '{figures}' is a file.", "results", inputs / "run")
    finally:
        figures.unlink()
