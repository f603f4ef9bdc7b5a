"""Every stored bench command reruns in any clone: it names no folder of the machine that first ran
it, only inputs the benches make themselves (bench/made_inputs.py) and source trees by git
revision (bench/paired.py's source_tree)."""

from __future__ import annotations

import importlib
import json
import shlex
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TREE_OPTIONS = ("--before", "--baseline", "--src")


@pytest.fixture
def bench(monkeypatch):
    monkeypatch.syspath_prepend(str(ROOT / "bench"))
    return importlib.import_module("made_inputs"), importlib.import_module("paired")


def test_no_stored_command_names_a_folder_outside_the_checkout(bench):
    made_inputs, _ = bench
    commands = [
        json.loads(path.read_text())["command"] for path in (ROOT / "bench/results").glob("*.json")
    ]
    assert len(commands) > 10
    for command in commands:
        words = shlex.split(command)
        assert not [w for w in words if w.startswith(("/", "~"))], command
        script = ROOT / words[1]
        assert script.is_file(), command
        for option, value in zip(words, words[1:], strict=False):
            if option in TREE_OPTIONS:  # this checkout's src, or a commit a clone has
                assert value == "src" or not Path(value).is_absolute(), command
        inputs = [w for w in words[2:3] if not w.startswith("-")]  # a positional input
        assert all(w in made_inputs.MAKERS or (ROOT / w).exists() for w in inputs), command


def test_a_named_input_is_made_once_and_again_where_making_broke_off(bench, tmp_path, monkeypatch):
    made_inputs, _ = bench
    monkeypatch.setattr(made_inputs, "OUT", tmp_path)
    calls = []

    def make(folder: Path) -> None:
        calls.append(folder)
        folder.mkdir()
        if len(calls) == 1:
            raise RuntimeError("interrupted")
        (folder / "data.csv").write_text("text,label\n")

    monkeypatch.setitem(made_inputs.MAKERS, "toy", make)
    with pytest.raises(RuntimeError):
        made_inputs.input_folder("toy")
    first = made_inputs.input_folder("toy")
    assert first == tmp_path / "toy" and (first / "data.csv").is_file()
    assert made_inputs.input_folder("toy") == first and len(calls) == 2
    assert made_inputs.input_folder(str(tmp_path)) == tmp_path  # a folder is taken as it is
    with pytest.raises(Exception, match="nor one the bench makes"):
        made_inputs.input_folder("no-such-input")


def test_a_git_revision_is_a_source_tree_named_by_its_commit(bench, tmp_path, monkeypatch):
    _, paired = bench
    head = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True, text=True
    )
    if head.returncode != 0:
        pytest.skip("not a git checkout")
    monkeypatch.setattr(paired, "TREES", tmp_path / "trees")
    tree = paired.source_tree(head.stdout.strip())
    assert (tree / "shortcutlab" / "__init__.py").is_file()
    assert paired.tree_name(tree) == f"commit {head.stdout.strip()}"
    assert paired.source_tree(str(ROOT / "src")) == ROOT / "src"  # a folder is taken as it is
    with pytest.raises(SystemExit, match="neither a source folder nor a git revision"):
        paired.source_tree("no-such-revision")
