"""``shortcutlab annotate`` refusals, resume checks and status, in-process (the server is not
started here; tests/annotate/test_server.py runs it as a real process)."""

from __future__ import annotations

import csv
import io
import socket
from collections.abc import Iterator
from pathlib import Path

import pandas as pd
import pytest

from shortcutlab.annotate.store import AnnotationStore
from shortcutlab.annotate.task_folder import prepare_task
from shortcutlab.data.csv_text import from_people_csv
from shortcutlab.errors import ConfigError
from tests.annotate.toy_kind import TOY, ToyLabelKind, toy_kind_installed, write_toy_source
from tests.cli.refusals import assert_refused, invoke


@pytest.fixture(autouse=True)
def toy_kind() -> Iterator[None]:
    with toy_kind_installed():
        yield


@pytest.fixture
def held_port() -> Iterator[int]:
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        held.listen()
        yield held.getsockname()[1]


def test_an_unknown_task_kind_is_refused(tmp_path: Path) -> None:
    source = write_toy_source(tmp_path / "source")
    assert_refused(
        tmp_path,
        "Unknown task kind 'toy-labl'. Did you mean 'toy-label' or 'label'? Known task kinds: "
        "label, rewrite-quality, shortcut-or-signal, toy-label, verify-attribute, "
        "verify-counterfactual.",
        "annotate",
        "serve",
        source,
        "--task",
        "toy-labl",
        "--port",
        "0",
    )


def test_a_source_lacking_what_the_kind_needs_leaves_no_task_folder(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    assert_refused(
        tmp_path,
        "has no rows.csv",
        "annotate",
        "serve",
        tmp_path / "empty",
        "--task",
        TOY,
        "--port",
        "0",
    )
    assert not (tmp_path / "empty" / "annotations").exists()


def test_a_port_in_use_is_refused_before_anything_is_written(
    tmp_path: Path, held_port: int
) -> None:
    source = write_toy_source(tmp_path / "source")
    message = f"port {held_port} is in use; pass --port 0 for a free one."
    assert_refused(
        tmp_path, message, "annotate", "serve", source, "--task", TOY, "--port", held_port
    )


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        ("--port", "70000", "--port must be an integer in [0, 65535]"),
        ("--sample", "0", "--sample must be a positive number"),
    ],
)
def test_bad_numbers_are_refused(tmp_path: Path, option: str, value: str, message: str) -> None:
    source = write_toy_source(tmp_path / "source")
    arguments = ["annotate", "serve", source, "--task", TOY, "--port", "0", option, value]
    assert_refused(tmp_path, message, *arguments)


def test_a_task_folder_is_resumed_only_for_its_own_kind_and_source(tmp_path: Path) -> None:
    first = write_toy_source(tmp_path / "first")
    second = write_toy_source(tmp_path / "second")
    folder = tmp_path / "task"
    assert prepare_task(first, ToyLabelKind(), folder=folder, sample=3, seed=0) is True
    assert prepare_task(first, ToyLabelKind(), folder=folder) is False
    assert prepare_task(first, ToyLabelKind(), folder=folder, sample=3, seed=0) is False
    with AnnotationStore.open(folder) as store:
        assert store.item_count() == 3  # the resumed task keeps its own sample
    message = f"'{folder}' holds a toy-label task over '{first}', not toy-label over '{second}'"
    assert_refused(
        tmp_path,
        message,
        "annotate",
        "serve",
        second,
        "--task",
        TOY,
        "--folder",
        folder,
        "--port",
        "0",
    )


@pytest.mark.parametrize(
    ("given", "message"),
    [
        (("--sample", "5"), "holds a task drawn with --sample 3; omit --sample to resume it"),
        (("--seed", "1"), "holds a task drawn with --seed 0; omit --seed to resume it"),
        (
            ("--sample", "3", "--label-names", "neg,pos"),
            "holds a task drawn with no --label-names; omit --label-names to resume it as "
            "stored, or choose another --folder",
        ),
    ],
)
def test_a_resume_with_another_draw_is_refused_not_served_with_the_old_one(
    tmp_path: Path, given: tuple[str, ...], message: str
) -> None:
    source = write_toy_source(tmp_path / "source")
    folder = tmp_path / "task"
    prepare_task(source, ToyLabelKind(), folder=folder, sample=3, seed=0)
    arguments = ["annotate", "serve", source, "--task", TOY, "--folder", folder, "--port", "0"]
    assert_refused(tmp_path, message, *arguments, *given)


def test_a_resume_checks_the_stored_kind_options(tmp_path: Path) -> None:
    source = write_toy_source(tmp_path / "source")
    folder = tmp_path / "task"
    prepare_task(source, ToyLabelKind(), folder=folder, sample=3, benchmark="build-a")
    assert prepare_task(source, ToyLabelKind(), folder=folder, benchmark="build-a") is False
    with pytest.raises(ConfigError, match="drawn with --benchmark build-a; omit --benchmark"):
        prepare_task(source, ToyLabelKind(), folder=folder, benchmark="build-b")


def test_a_folder_holding_something_else_is_refused(tmp_path: Path) -> None:
    source = write_toy_source(tmp_path / "source")
    (tmp_path / "busy").mkdir()
    (tmp_path / "busy" / "notes.txt").write_text("mine")
    message = "exists and holds no annotation task; choose another --folder"
    assert_refused(
        tmp_path,
        message,
        "annotate",
        "serve",
        source,
        "--task",
        TOY,
        "--folder",
        tmp_path / "busy",
        "--port",
        "0",
    )


def test_status_shows_progress_per_annotator(tmp_path: Path) -> None:
    source = write_toy_source(tmp_path / "source")
    folder = tmp_path / "task"
    prepare_task(source, ToyLabelKind(), folder=folder, sample=4, seed=0)
    result = invoke("annotate", "status", folder)
    assert result.exit_code == 0, result.output
    assert (
        "toy-label task over" in result.stdout and "4 items (--sample 4, seed 0)" in result.stdout
    )
    assert "No answers yet." in result.stdout
    with AnnotationStore.open(folder) as store:
        ids = [item.item_id for item in store.plan().items]
        for item_id in ids[:3]:
            store.record(item_id, "ann", {"label": "positive", "sure": "yes"})
        store.record(ids[0], "bob", {"label": "negative", "sure": "no"})
    result = invoke("annotate", "status", folder)
    cells = [line.replace("│", " ").split() for line in result.stdout.splitlines()]
    rows = {row[0]: row[1:] for row in cells if row[:1] in (["ann"], ["bob"])}
    assert rows == {"ann": ["3", "4", "0.750"], "bob": ["1", "4", "0.250"]}
    tidy = invoke("annotate", "status", folder, "--format", "csv")
    assert tidy.exit_code == 0, tidy.output
    frame = pd.read_csv(io.StringIO(tidy.stdout)).set_index("annotator")
    assert frame.loc["ann", "answered"] == 3 and frame.loc["bob", "share"] == 0.25
    assert "toy-label task over" in tidy.stderr  # stdout holds the data alone
    md = invoke("annotate", "status", folder, "--format", "md").stdout
    assert "| annotator | answered | items | share |" in md and "| ann | 3 | 4 | 0.750 |" in md


def test_status_of_a_folder_without_a_task_is_refused(tmp_path: Path) -> None:
    assert_refused(tmp_path, "holds no annotation task", "annotate", "status", tmp_path)


def test_export_writes_the_answers_and_prints_the_summary(tmp_path: Path) -> None:
    pytest.importorskip(
        "shortcutlab.annotate.export",
        reason="export_task (annotate/export.py) is not in this branch yet",
    )
    source = write_toy_source(tmp_path / "source")
    folder = tmp_path / "task"
    prepare_task(source, ToyLabelKind(), folder=folder, sample=4, seed=0)
    assert_refused(tmp_path, "no answers", "annotate", "export", folder)
    with AnnotationStore.open(folder) as store:
        for item in store.plan().items:
            store.record(item.item_id, "ann", {"label": item.reference["label"], "sure": "yes"})
    result = invoke("annotate", "export", folder)
    assert result.exit_code == 0, result.output
    assert (folder / "answers.csv").is_file() and "Toy accuracy" in result.stdout


def test_export_neutralises_cells_a_spreadsheet_would_run(tmp_path: Path) -> None:
    hostile = '=HYPERLINK("http://evil")'
    source = tmp_path / "source"
    source.mkdir()
    rows = pd.DataFrame(
        {
            "row_id": ["@r0", "-1+2", "r2", "-3"],
            "text": [hostile, "+cmd", "\tcalm", "fine"],
            "label": [hostile, "-0.25", "positive", "negative"],
            "cue_span": ["[[0, 1]]"] * 4,
        }
    )
    rows.to_csv(source / "rows.csv", index=False)
    folder = tmp_path / "task"
    prepare_task(source, ToyLabelKind(), folder=folder, sample=4, seed=0)
    with AnnotationStore.open(folder) as store:
        for item in store.plan().items:
            store.record(item.item_id, "ann", {"label": "positive", "sure": "yes"})
    result = invoke("annotate", "export", folder)
    assert result.exit_code == 0, result.output
    written = (folder / "answers.csv").read_text(encoding="utf-8")
    cells = [cell for row in csv.reader(io.StringIO(written, newline="")) for cell in row]
    assert "'" + hostile in cells and "'@r0" in cells and "'-1+2" in cells
    assert hostile not in cells and "@r0" not in cells
    assert "-3" in cells and "-0.25" in cells  # plain numbers: a spreadsheet reads the number
    assert not [c for c in cells if c[:1] in ("=", "+", "@", "\t", "\r")]
    answers = from_people_csv(pd.read_csv(io.StringIO(written), dtype=str))
    assert set(answers["item_id"]) == {"@r0", "-1+2", "r2", "-3"}
    assert hostile in set(answers["ref_label"])
