"""A damaged ``annotations.sqlite`` is named in one line by serve, status and export, with how to
recover, and nothing is written (a damaged page could hide answers: the store checks first)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from shortcutlab.annotate.store import DATABASE
from shortcutlab.annotate.task_folder import prepare_task
from tests.annotate.toy_kind import TOY, ToyLabelKind, toy_kind_installed, write_toy_source
from tests.cli.refusals import assert_refused
from tests.engine.disks import damage


@pytest.fixture(autouse=True)
def toy_kind() -> Iterator[None]:
    with toy_kind_installed():
        yield


@pytest.mark.parametrize("command", ["serve", "status", "export"])
def test_a_damaged_task_database_is_named_with_how_to_recover(tmp_path: Path, command: str):
    source = write_toy_source(tmp_path / "source", rows=400)
    folder = tmp_path / "task"
    assert prepare_task(source, ToyLabelKind(), folder=folder, sample=300, seed=0) is True
    damage(folder / DATABASE)
    args = {
        "serve": ("serve", source, "--task", TOY, "--folder", folder, "--port", "0"),
        "status": ("status", folder),
        "export": ("export", folder, "--out", tmp_path / "exported"),
    }[command]
    result = assert_refused(tmp_path, f"'{folder / DATABASE}' is damaged: ", "annotate", *args)
    assert "[SQLITE_CORRUPT]. Restore it from a backup, or start the task afresh" in result.stderr
    assert f"sqlite3 '{folder / DATABASE}' .recover" in result.stderr
