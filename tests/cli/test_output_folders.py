"""Output folders through the CLI: the umask's mode, --overwrite sparing the inputs, a linked --out,
and the working folder refused as an --out to replace."""

from __future__ import annotations

import os
from pathlib import Path

import pandas as pd
import pytest

from tests.cli.refusals import assert_refused, invoke
from tests.conftest import other_items


def _write_inputs(folder: Path, frame: pd.DataFrame) -> tuple[Path, Path]:
    folder.mkdir(parents=True, exist_ok=True)
    frame.to_csv(folder / "train.csv", index=False)
    other_items(frame).to_csv(folder / "test.csv", index=False)
    return folder / "train.csv", folder / "test.csv"


def _build(train: Path, test: Path, out: object, *extra: object) -> list[object]:
    return ["build", "maze", "--train", train, "--test", test, "--shortcut", "single-term",
            "--out", out, *extra]  # fmt: skip


@pytest.mark.parametrize("umask", [0o022, 0o027], ids=["022", "027"])
def test_output_folders_follow_the_umask(tmp_path, tiny_frame, umask):
    train, test = _write_inputs(tmp_path / "data", tiny_frame)
    previous = os.umask(umask)
    try:
        result = invoke(*_build(train, test, tmp_path / "bench"))
    finally:
        os.umask(previous)
    assert result.exit_code == 0, result.output
    assert (tmp_path / "bench").stat().st_mode & 0o777 == 0o777 & ~umask  # mkdtemp gave 0o700
    assert (tmp_path / "bench" / "train.csv").stat().st_mode & 0o777 == 0o666 & ~umask


def test_overwrite_refuses_an_out_folder_holding_an_input(tmp_path, tiny_frame):
    train, test = _write_inputs(tmp_path / "d", tiny_frame)
    message = "holds the input"
    assert_refused(tmp_path, message, *_build(train, test, tmp_path / "d", "--overwrite"))
    assert_refused(tmp_path, message, *_build(train, test, tmp_path, "--overwrite"))
    assert_refused(
        tmp_path, message,
        "build", "maze", "--train", train, "--test", test, "--shortcut", "single-term",
        f"--out={tmp_path / 'd'}", "--overwrite",
    )  # fmt: skip
    assert train.exists() and test.exists()


def test_overwrite_refuses_an_out_folder_that_is_the_input_benchmark(tmp_path, tiny_frame):
    train, test = _write_inputs(tmp_path / "data", tiny_frame)
    assert invoke(*_build(train, test, tmp_path / "bench")).exit_code == 0
    assert_refused(
        tmp_path,
        "is or holds the input",
        "evaluate", tmp_path / "bench", "--model", "majority", "--out", tmp_path / "bench",
        "--overwrite",
    )  # fmt: skip
    assert_refused(
        tmp_path,
        "is or holds the input",
        "evaluate", tmp_path / "bench", "--model", "majority", "--out", tmp_path, "--overwrite",
    )  # fmt: skip


def test_a_folder_named_like_the_command_is_no_input(tmp_path, tiny_frame, monkeypatch):
    """'build maze --out maze --overwrite': the word 'maze' names the command, not the folder."""
    train, test = _write_inputs(tmp_path / "data", tiny_frame)
    monkeypatch.chdir(tmp_path)
    for _ in range(2):  # the second run replaces the folder the first wrote
        built = invoke(*_build(train, test, "maze", "--overwrite"))
        assert built.exit_code == 0, built.output
    assert (tmp_path / "maze" / "manifest.json").is_file()


def test_an_option_value_naming_a_file_inside_the_out_folder_is_spared(tmp_path, tiny_frame):
    """NAME=PATH values count too: the rewrites file inside --out is kept."""
    train, test = _write_inputs(tmp_path / "data", tiny_frame)
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "rewrites.csv").write_text("original,rewrite\n")
    assert_refused(
        tmp_path,
        "holds the input",
        "build", "maze", "--train", train, "--test", test, "--shortcut", "bible",
        "--rewrites", f"bible={tmp_path / 'out' / 'rewrites.csv'}",
        "--out", tmp_path / "out", "--overwrite",
    )  # fmt: skip


def test_a_linked_out_is_written_where_it_points_and_leaves_no_link_behind(tmp_path, tiny_frame):
    train, test = _write_inputs(tmp_path / "data", tiny_frame)
    assert invoke(*_build(train, test, tmp_path / "bench")).exit_code == 0
    (tmp_path / "bench" / "old.txt").write_text("from before")
    (tmp_path / "link").symlink_to("bench")
    result = invoke(*_build(train, test, tmp_path / "link", "--overwrite", "--seed", "3"))
    assert result.exit_code == 0, result.output
    assert os.readlink(tmp_path / "link") == "bench"
    assert not (tmp_path / "bench" / "old.txt").exists()
    assert (tmp_path / "bench" / "manifest.json").is_file()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bench", "data", "link"]


@pytest.mark.parametrize("out", [".", "..", "sub/.."])
@pytest.mark.parametrize("overwrite", [True, False])
def test_the_working_folder_or_one_above_it_is_refused_as_out(
    tmp_path, tiny_frame, monkeypatch, out, overwrite
):
    """Renaming the working folder fails (EBUSY) and used to leave ``..xxx.partial`` behind."""
    train, test = _write_inputs(tmp_path / "data", tiny_frame)
    (tmp_path / "work" / "sub").mkdir(parents=True)
    monkeypatch.chdir(tmp_path / "work")
    flags = ["--overwrite"] if overwrite else []
    assert_refused(tmp_path, "is the working folder or holds it", *_build(train, test, out, *flags))


def test_report_overwrite_replaces_only_a_page_not_the_results_it_reads(tmp_path):
    """``report RUN --out RUN/results.sqlite --overwrite`` wrote the page over the run's results."""
    (tmp_path / "spec.yaml").write_text(
        "data: {builtin: reviews, train_size: 300, test_size: 200}\nshortcuts: [single-term]\n"
        "strengths: [1.0]\nmodels: [majority]\nseeds: [0]\nbootstrap: 100\n"
    )
    assert invoke("run", tmp_path / "spec.yaml", "--out", tmp_path / "run").exit_code == 0
    for name in ("results.sqlite", "spec.resolved.json"):
        assert_refused(
            tmp_path, "is not an HTML page",
            "report", tmp_path / "run", "--out", tmp_path / "run" / name, "--overwrite",
        )  # fmt: skip
    page = ("report", tmp_path / "run", "--out", tmp_path / "run" / "page.html", "--overwrite")
    assert invoke(*page).exit_code == 0 and invoke(*page).exit_code == 0
