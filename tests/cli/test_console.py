"""Failures a user's machine or files cause end every command with one line and exit code 2,
one test per class: an unreadable input, a read-only or full disk, a damaged results store,
bytes that are not the declared encoding, a truncated benchmark file, a manifest missing a field.
An error that no user causes (a bug) keeps its traceback."""

from __future__ import annotations

import errno
import json
import os
from pathlib import Path

import pytest

from shortcutlab.cli.console import user_errors
from shortcutlab.data.writing import TableWriter
from shortcutlab.errors import os_error_message
from tests.cli.refusals import TINY_GRID, assert_refused, assert_user_error, invoke
from tests.conftest import tree_state
from tests.engine.disks import damage, fill, tmpfs


def build(files: dict[str, Path], out: Path, *extra: object) -> tuple[object, ...]:
    train, test = files["train"], files["test"]
    return ("build", "maze", "--train", train, "--test", test, "--out", out, *extra)


def built(files: dict[str, Path], out: Path) -> Path:
    result = invoke(*build(files, out, "--shortcut", "single-term"))
    assert result.exit_code == 0, result.output
    return out


@pytest.fixture(scope="module")
def run_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("grid")
    (root / "spec.yaml").write_text(TINY_GRID)
    result = invoke("run", root / "spec.yaml", "--out", root / "run")
    assert result.exit_code == 0, result.output
    return root / "run"


def partials(folder: Path) -> list[str]:
    return [path.name for path in folder.rglob("*.partial")]


def test_an_unreadable_input_names_the_file(corpus_files, tmp_path):
    locked = corpus_files["train"]
    locked.chmod(0)
    try:
        if os.access(locked, os.R_OK):
            pytest.skip("the file stays readable: this process may override permissions (root)")
        assert_refused(
            tmp_path,
            f"'{locked}': Permission denied [EACCES]. Fix the permissions",
            *build(corpus_files, tmp_path / "out", "--shortcut", "single-term"),
        )
    finally:
        locked.chmod(0o644)


def test_out_on_a_read_only_file_system(corpus_files, tmp_path, run_folder):
    with tmpfs(tmp_path / "ro", read_only=True) as disk:
        for command in (
            build(corpus_files, disk / "bench", "--shortcut", "single-term"),
            ("results", run_folder, "--out", disk / "tables"),
            ("generate", "--out", disk / "corpus"),
        ):
            assert_refused(tmp_path, "Read-only file system [EROFS]. That file system", *command)


@pytest.mark.slow
def test_a_full_disk_in_build_results_and_report(corpus_files, tmp_path, run_folder):
    before = tree_state(run_folder)
    with tmpfs(tmp_path / "disk") as disk:
        fill(disk, leave=40_000)
        for target, command in (
            ("bench", build(corpus_files, disk / "bench", "--shortcut", "single-term")),
            ("tables", ("results", run_folder, "--out", disk / "tables")),
            (
                "report.html",
                ("report", run_folder, "--out", disk / "report.html", "--include", run_folder),
            ),
        ):
            message = f"'{disk / target}': No space left on device [ENOSPC]. The disk is full"
            assert_refused(disk, message, *command)
        assert sorted(os.listdir(disk)) == ["filler"]  # no .partial, no half-written file
    assert tree_state(run_folder) == before


def test_a_full_disk_in_run_names_the_store_and_leaves_no_partial_build(tmp_path):
    (tmp_path / "spec.yaml").write_text(TINY_GRID)
    with tmpfs(tmp_path / "disk") as disk:
        fill(disk, leave=40_000)
        result = invoke("run", tmp_path / "spec.yaml", "--out", disk / "run")
        # Where the disk fills decides what SQLite says: full, or an I/O error "(or is full)".
        assert_user_error(result, "is full")
        assert any(
            code in result.stderr for code in ("[SQLITE_FULL]", "[ENOSPC]", "[SQLITE_IOERR]")
        )
        assert not partials(disk)
        assert not (disk / "run").exists()  # a fresh run that failed leaves no folder behind


def test_a_full_disk_simulated_without_root(corpus_files, tmp_path, monkeypatch):
    def full(self, data):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(TableWriter, "_emit", full)
    assert_refused(
        tmp_path,
        f"'{tmp_path / 'out'}': No space left on device [ENOSPC]. The disk is full: free space",
        *build(corpus_files, tmp_path / "out", "--shortcut", "single-term"),
    )


@pytest.mark.parametrize("command", ["results", "run", "report"])
def test_a_damaged_results_store_is_named_with_how_to_recover(tmp_path, run_folder, command):
    (tmp_path / "spec.yaml").write_text(TINY_GRID)
    damaged = tmp_path / "damaged"
    damaged.mkdir()
    for path in run_folder.iterdir():
        if path.is_file():
            (damaged / path.name).write_bytes(path.read_bytes())
    damage(damaged / "results.sqlite")
    args = {
        "results": ("results", damaged),
        "run": ("run", tmp_path / "spec.yaml", "--out", damaged),
        "report": ("report", damaged),
    }[command]
    result = assert_refused(
        tmp_path,
        f"'{damaged / 'results.sqlite'}' is damaged: ",
        *args,
    )
    assert (
        "[SQLITE_CORRUPT]. Its results cannot be trusted: run the spec again into a new --out"
        in (result.stderr)
    )
    assert f"sqlite3 '{damaged / 'results.sqlite'}' .recover" in result.stderr


@pytest.mark.parametrize(
    ("header", "message"),
    [
        (b"te\xffxt,label\n", "is not valid utf-8 in its first line (the header): byte 0xff"),
        ("text,label\n".encode("utf-16"), "looks like UTF-16 text, not utf-8"),
        ("text,label\n".encode("utf-16-le"), "looks like UTF-16 text, not utf-8"),
    ],
)
def test_a_header_that_is_not_the_declared_encoding(tmp_path, corpus_files, header, message):
    train = tmp_path / "train.csv"
    train.write_bytes(header + b"good,0\nbad,1\n" * 20)
    for args in (
        ("audit", train),
        build({"train": train, "test": corpus_files["test"]}, tmp_path / "o", "--shortcut", "x"),
    ):
        result = assert_refused(tmp_path, message, *args)
        assert "--encoding" in result.stderr and "\0" not in result.stderr


def test_utf16_is_read_with_its_encoding(tmp_path, corpus):
    corpus["train"].to_csv(tmp_path / "train.csv", index=False, encoding="utf-16")
    result = invoke("audit", tmp_path / "train.csv", "--encoding", "utf-16", "--format", "csv")
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("cut", ["mid-row", "mid-quote"])
def test_a_truncated_benchmark_file_in_evaluate(corpus_files, tmp_path, cut):
    bench = built(corpus_files, tmp_path / "bench")
    raw = (bench / "train.csv").read_bytes()
    start = raw.index(b"\n", len(raw) // 2) + 1  # a row's first byte
    end = start + 3 if cut == "mid-row" else raw.index(b'"', start) + 2
    (bench / "train.csv").write_bytes(raw[:end])
    result = assert_refused(tmp_path, "train.csv", "evaluate", bench, "--seeds", 1)
    assert "Traceback" not in result.output


@pytest.mark.parametrize("field", ["strength", "shortcut"])
def test_a_manifest_missing_a_field_is_refused_before_the_fit(corpus_files, tmp_path, field):
    bench = built(corpus_files, tmp_path / "bench")
    manifest = json.loads((bench / "manifest.json").read_text())
    del manifest["arguments"][field]
    (bench / "manifest.json").write_text(json.dumps(manifest))
    assert_refused(
        tmp_path,
        f"'{bench / 'manifest.json'}' lacks 'arguments.{field}'",
        "evaluate",
        bench,
        "--seeds",
        1,
    )


def test_an_os_error_no_user_causes_keeps_its_traceback():
    assert os_error_message(OSError(errno.EBADF, "Bad file descriptor")) is None
    with pytest.raises(OSError, match="Bad file descriptor"), user_errors():
        raise OSError(errno.EBADF, "Bad file descriptor")


def test_an_error_line_shows_control_characters_as_escapes(tmp_path):
    data = tmp_path / "data.csv"
    data.write_bytes(b"te\x1b[2Jxt,label\ngood,0\nbad,1\n")  # a terminal escape: clear screen
    result = assert_refused(tmp_path, "Columns found: te\\x1b[2Jxt, label", "audit", data)
    assert "\x1b" not in result.stderr


def test_a_bad_command_line_of_any_command_is_one_line(tmp_path):
    assert_refused(
        tmp_path,
        "Invalid value for '--top': 'many' is not a valid int. See 'shortcutlab audit --help'.",
        "audit",
        tmp_path / "data.csv",
        "--top",
        "many",
    )
    assert_refused(
        tmp_path,
        "Missing argument 'folder'. See 'shortcutlab annotate status --help'.",
        "annotate",
        "status",
    )
    assert "Usage:" in invoke("annotate").output  # a bare group still shows its help


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (["evalute"], "Error: No such command 'evalute'. Did you mean 'evaluate'? See 'shortcutlab --help'."),
        (["build", "mze"], "Error: No such command 'mze'. Did you mean 'maze'? See 'shortcutlab build --help'."),
        (["list", "--bogus"], "Error: No such option: --bogus. See 'shortcutlab list --help'."),
    ],
)  # fmt: skip
def test_a_usage_error_ends_each_sentence_once(tmp_path, args, line):
    result = assert_refused(tmp_path, line, *args)
    assert result.stderr.strip() == line  # never "?." nor ".."
