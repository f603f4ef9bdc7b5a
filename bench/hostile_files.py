"""The hostile cases of ``hostile_cases.py`` about files and folders: damaged or unreadable
inputs, full or read-only disks, silent wrong data, output-folder housekeeping, and the refusals
that held before issue 21 (kept so that they keep holding)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pandas as pd
from hostile_cases import Case, Skip
from hostile_inputs import BUILD, case, spec

# 7. One line and exit 2 for every failure a user can cause or meet ---------------------------
NO_OVERRIDE = ("capsh", "--drop=cap_dac_override,cap_dac_read_search", "--", "-c", '"$0" "$@"')


def _without_override(case: Case) -> tuple[str, ...]:
    probe = case.work / "probe"
    probe.write_text("x")
    probe.chmod(0)
    done = subprocess.run([*NO_OVERRIDE, "cat", str(probe)], capture_output=True)
    probe.chmod(0o644)
    probe.unlink()
    if done.returncode == 0:
        raise Skip("cannot drop the file-permission override here")
    return NO_OVERRIDE


@case("boundary")
def unreadable_input(case: Case) -> str | None:
    prefix = _without_override(case)
    (case.work / "train.csv").chmod(0)
    return case.refused(*BUILD, "--out", "out", prefix=prefix)


@case("boundary")
def unreadable_spec(case: Case) -> str | None:
    prefix = _without_override(case)
    spec(case)
    (case.work / "spec.yaml").chmod(0)
    return case.refused("run", "spec.yaml", "--out", "r", prefix=prefix)


class Mount:
    """A tmpfs of ``size`` under the case folder (``ro``: read-only)."""

    def __init__(self, case: Case, size: str = "2m", ro: bool = False) -> None:
        self.path = case.work / "mnt"
        self.path.mkdir()
        options = f"size={size}" + (",ro" if ro else "")
        if subprocess.run(
            ["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(self.path)], capture_output=True
        ).returncode:
            raise Skip("cannot mount a tmpfs here (needs root)")

    def __enter__(self) -> Path:
        return self.path

    def __exit__(self, *exc: object) -> None:
        subprocess.run(["umount", str(self.path)], check=False)


def _bigger_corpus(case: Case) -> None:
    for split in ("train", "test"):
        shutil.copy(case.corpus.parent / "full" / f"{split}.csv", case.work / f"{split}.csv")


@case("boundary")
def out_on_read_only_filesystem(case: Case) -> str | None:
    with Mount(case, ro=True) as mount:
        return case.refused(*BUILD, "--out", mount / "out")


@case("boundary")
def disk_full_build(case: Case) -> str | None:
    _bigger_corpus(case)
    with Mount(case, size="1m") as mount:
        broke = case.refused(*BUILD, "--out", mount / "out")
        left = list(mount.iterdir())
    return broke or (f"left {left}" if left else None)


@case("boundary")
def disk_full_run(case: Case) -> str | None:
    _bigger_corpus(case)
    with Mount(case) as mount:
        broke = case.refused("run", spec(case), "--out", mount / "r")
        left = list(mount.iterdir())
    return broke or (f"left {left}" if left else None)


@case("boundary")
def disk_full_report(case: Case) -> str | None:
    outcome, broke = case.succeeded("run", spec(case), "--out", "r")
    if broke:
        return broke
    with Mount(case, size="8k") as mount:
        broke = case.refused("report", "r", "--out", mount / "report.html")
        left = list(mount.iterdir())
    return broke or (f"left {left}" if left else None)


@case("boundary")
def out_is_cwd_overwrite(case: Case) -> str | None:
    return case.refused(*BUILD, "--out", ".", "--overwrite")


def _damaged_run(case: Case) -> str | None:
    _, broke = case.succeeded("run", spec(case), "--out", "r")
    if broke:
        return broke
    database = case.work / "r" / "results.sqlite"
    data = bytearray(database.read_bytes())
    data[len(data) // 3 : len(data) // 3 + 4096] = b"\xde\xad" * 2048
    database.write_bytes(bytes(data))
    return None


@case("boundary")
def damaged_results_in_results(case: Case) -> str | None:
    return _damaged_run(case) or case.refused("results", "r")


@case("boundary")
def damaged_results_in_run(case: Case) -> str | None:
    return _damaged_run(case) or case.refused("run", "spec.yaml", "--out", "r")


@case("boundary")
def damaged_results_in_report(case: Case) -> str | None:
    return _damaged_run(case) or case.refused("report", "r")


@case("boundary")
def results_sqlite_not_a_database(case: Case) -> str | None:
    (case.work / "r").mkdir()
    (case.work / "r" / "results.sqlite").write_bytes(b"hello" * 1000)
    return case.refused("results", "r")


def _garbage_annotations(case: Case) -> Path:
    folder = case.work / "ann"
    folder.mkdir()
    (folder / "annotations.sqlite").write_bytes(b"SQLite format 3\x00" + b"\xff" * 8000)
    return folder


@case("boundary")
def corrupt_annotations_status(case: Case) -> str | None:
    return case.refused("annotate", "status", _garbage_annotations(case))


@case("boundary")
def corrupt_annotations_export(case: Case) -> str | None:
    return case.refused("annotate", "export", _garbage_annotations(case))


@case("boundary")
def invalid_bytes_in_header(case: Case) -> str | None:
    data = (case.work / "train.csv").read_bytes()
    (case.work / "train.csv").write_bytes(b"te\xffxt" + data[4:])
    return case.refused(*BUILD, "--out", "out")


@case("boundary")
def utf16_file(case: Case) -> str | None:
    text = (case.work / "train.csv").read_text()
    (case.work / "train.csv").write_bytes(text.encode("utf-16"))
    return case.refused(*BUILD, "--out", "out")


@case("boundary")
def random_bytes_file(case: Case) -> str | None:
    (case.work / "train.csv").write_bytes(bytes(range(256)) * 64)
    return case.refused(*BUILD, "--out", "out")


@case("boundary")
def folder_given_as_file(case: Case) -> str | None:
    (case.work / "folder.csv").mkdir()
    return case.refused(*BUILD[:2], "--train", "folder.csv", *BUILD[4:], "--out", "out")


@case("boundary")
def truncated_benchmark_train(case: Case) -> str | None:
    _, broke = case.succeeded(*BUILD, "--out", "out")
    if broke:
        return broke
    train = case.work / "out" / "train.csv"
    data = train.read_bytes()
    cut = data.find(b'\n"', len(data) // 2)  # inside a quoted text: an unclosed quote
    train.write_bytes(data[: cut + 12])
    return case.refused("evaluate", "out", "--model", "tfidf-logreg", "--seeds", "1", "--out", "ev")


@case("boundary")
def truncated_benchmark_train_mid_row(case: Case) -> str | None:
    _, broke = case.succeeded(*BUILD, "--out", "out")
    if broke:
        return broke
    train = case.work / "out" / "train.csv"
    data = train.read_bytes()
    cut = data.find(b"\n", len(data) // 2)
    train.write_bytes(data[: cut + 1] + b"Just a few words,")
    return case.refused("evaluate", "out", "--model", "tfidf-logreg", "--seeds", "1", "--out", "ev")


@case("boundary")
def manifest_without_strength(case: Case) -> str | None:
    _, broke = case.succeeded(*BUILD, "--out", "out")
    if broke:
        return broke
    manifest_path = case.work / "out" / "manifest.json"
    manifest = json.loads(manifest_path.read_text())
    manifest.get("arguments", {}).pop("strength", None)
    manifest_path.write_text(json.dumps(manifest))
    return case.refused("evaluate", "out", "--model", "tfidf-logreg", "--seeds", "1", "--out", "ev")


@case("boundary")
def manifest_not_json(case: Case) -> str | None:
    _, broke = case.succeeded(*BUILD, "--out", "out")
    if broke:
        return broke
    (case.work / "out" / "manifest.json").write_text("{not json")
    return case.refused("evaluate", "out", "--model", "tfidf-logreg", "--seeds", "1", "--out", "ev")


# 8. Silent wrong data ------------------------------------------------------------------------
@case("data")
def parquet_list_text_column(case: Case) -> str | None:
    table = pd.read_csv(case.work / "train.csv")
    table["text"] = table["text"].str.split(". ")
    table.to_parquet(case.work / "train.parquet")
    return case.refused(*BUILD[:2], "--train", "train.parquet", *BUILD[4:], "--out", "out")


@case("data")
def parquet_struct_text_column(case: Case) -> str | None:
    table = pd.read_csv(case.work / "train.csv")
    table["text"] = [{"body": t} for t in table["text"]]
    table.to_parquet(case.work / "train.parquet")
    return case.refused(*BUILD[:2], "--train", "train.parquet", *BUILD[4:], "--out", "out")


@case("data")
def text_column_is_label_column(case: Case) -> str | None:
    return case.refused(*BUILD, "--text-col", "label", "--label-col", "label", "--out", "out")


@case("data")
def audit_text_column_is_label_column(case: Case) -> str | None:
    return case.refused("audit", "train.csv", "--text-col", "label", "--label-col", "label")


@case("data")
def duplicate_column_names(case: Case) -> str | None:
    lines = (case.work / "train.csv").read_text().splitlines()
    lines[0] = "text,text"
    (case.work / "train.csv").write_text("\n".join(lines) + "\n")
    return case.refused(*BUILD, "--label-col", "text", "--out", "out")


@case("data")
def duplicate_label_column_names(case: Case) -> str | None:
    table = pd.read_csv(case.work / "train.csv")
    table["extra"] = table["label"]
    text = table.to_csv(index=False).replace(",extra\n", ",label\n", 1)
    (case.work / "train.csv").write_text(text)
    return case.refused(*BUILD, "--out", "out")


@case("data")
def nul_bytes_counted_and_warned(case: Case) -> str | None:
    table = pd.read_csv(case.work / "train.csv")
    table.loc[::10, "text"] = table["text"] + "\x00hidden"
    table.to_csv(case.work / "train.csv", index=False)
    outcome, broke = case.succeeded(*BUILD, "--out", "out")
    if broke:
        return broke
    if "NUL" not in outcome.stderr and "nul" not in outcome.stderr.lower():
        return "no warning about NUL bytes"
    return (
        None
        if "nul" in (case.work / "out" / "manifest.json").read_text().lower()
        else "manifest does not count them"
    )


@case("data")
def row_that_is_only_the_cue(case: Case) -> str | None:
    table = pd.read_csv(case.work / "train.csv")
    table.loc[:40, "text"] = "Honestly"
    table.to_csv(case.work / "train.csv", index=False)
    outcome, broke = case.succeeded(*BUILD, "--out", "out")
    if broke:
        return broke
    for split in ("train", "validation", "test", "anti_test"):
        path = case.work / "out" / f"{split}.csv"
        if path.exists():
            texts = pd.read_csv(path, keep_default_na=False)["text"].astype(str).str.strip()
            if (texts == "").any():
                return f"{split}.csv holds empty texts"
    return None


@case("data")
def duplicate_labels_option(case: Case) -> str | None:
    return case.refused(*BUILD, "--labels", "1,2,2,3,4,5", "--out", "out")


@case("data")
def duplicate_label_names_option(case: Case) -> str | None:
    _, broke = case.succeeded(*BUILD, "--out", "out")
    return broke or case.refused(
        "annotate", "serve", "out", "--task", "label", "--label-names", "a,a,b,c,d", timeout=15
    )


# 10. Housekeeping ----------------------------------------------------------------------------
@case("housekeeping")
def output_folder_follows_umask(case: Case) -> str | None:
    _, broke = case.succeeded(*BUILD, "--out", "out")
    mode = (case.work / "out").stat().st_mode & 0o777
    return broke or (None if mode == 0o755 else f"out is {oct(mode)} under umask 022")


@case("housekeeping")
def overwrite_folder_holding_input(case: Case) -> str | None:
    return (
        case.refused(*BUILD[:2], "--train", "d/train.csv", *BUILD[4:], "--out", "d", "--overwrite")
        if _move_train(case)
        else "setup"
    )


def _move_train(case: Case) -> bool:
    (case.work / "d").mkdir()
    shutil.move(case.work / "train.csv", case.work / "d" / "train.csv")
    return True


@case("housekeeping")
def symlinked_out_leaves_nothing(case: Case) -> str | None:
    (case.work / "real").mkdir()
    (case.work / "real" / "old.txt").write_text("old")
    (case.work / "link").symlink_to("real")
    _, broke = case.succeeded(*BUILD, "--out", "link", "--overwrite")
    left = [
        p.name for p in case.work.iterdir() if "replaced" in p.name or p.name.endswith(".partial")
    ]
    return broke or (f"left {left}" if left else None)


# Refusals that held before issue 21, kept so that they keep holding -----------------------------
@case("options")
def strength_out_of_range(case: Case) -> str | None:
    return case.refused(*BUILD[:-1], "1.5", "--out", "out")


@case("options")
def unknown_shortcut(case: Case) -> str | None:
    return case.refused(*BUILD[:6], "singel-term", "--out", "out")


@case("options")
def non_empty_out(case: Case) -> str | None:
    (case.work / "out").mkdir()
    (case.work / "out" / "keep.txt").write_text("mine")
    return case.refused(*BUILD, "--out", "out")


@case("options")
def missing_file(case: Case) -> str | None:
    return case.refused(*BUILD[:2], "--train", "nope.csv", *BUILD[4:], "--out", "out")


@case("options")
def unknown_model_in_spec(case: Case) -> str | None:
    return case.refused("run", spec(case, models=[{"name": "tfidf-logrge"}]), "--out", "r")


@case("options")
def spec_of_another_run(case: Case) -> str | None:
    _, broke = case.succeeded("run", spec(case), "--out", "r")
    return broke or case.refused("run", spec(case, strengths=[0.6]), "--out", "r")


@case("options")
def report_of_empty_folder(case: Case) -> str | None:
    (case.work / "empty").mkdir()
    return case.refused("report", "empty")


@case("options")
def evaluate_not_a_benchmark(case: Case) -> str | None:
    return case.refused("evaluate", ".", "--model", "tfidf-logreg", "--seeds", "1")
