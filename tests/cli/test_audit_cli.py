"""``shortcutlab audit``: the printed table, audit.csv/audit.json, a model's measurement (registered
or a saved pipeline), byte-identical reruns, the report page, and refusals (exit 2, one line,
nothing written)."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import joblib
import pandas as pd
import pytest
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import Pipeline

from shortcutlab.families.audit.scan.candidates import MEASURE_COLUMNS, SCAN_COLUMNS
from tests.cli.refusals import assert_refused, invoke
from tests.families.audit.tables import planted, planted_pairs

FAST = ("--no-surface",)
#: The triage's columns of audit.csv (its evidence sentences are in audit.json).
TRIAGE_CSV = ["group", "group_source", "shortcut_rank", "member_of"]


def _write_csv(path: Path, **columns: list[str]) -> Path:
    pd.DataFrame(columns).to_csv(path, index=False)
    return path


@pytest.fixture
def train_csv(tmp_path: Path) -> Path:
    """600 rows: "zebra" follows pos, "yak" follows neg (30 % of their label's rows, 3 % else)."""
    texts, labels = planted(1000, seed=1, cues={"zebra": "pos", "yak": "neg"})
    return _write_csv(tmp_path / "train.csv", text=texts, label=labels)


def _csv_rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


def _printed_rows(stdout: str) -> dict[str, list[str]]:
    """The terminal table's body rows by rank: the cells between the column bars."""
    rows = {}
    for line in stdout.splitlines():
        cells = [cell.strip() for cell in line.split("│")]
        if len(cells) > 2 and cells[0].isdigit():
            rows[cells[0]] = cells
    return rows


def test_measure_top_one_fills_the_first_candidate_and_prints_dashes_for_the_rest(
    train_csv, tmp_path
):
    out = tmp_path / "out"
    model = ("--model", "tfidf-logreg", "--measure-top", "1")
    result = invoke("audit", train_csv, *FAST, *model, "--top", "5", "--out", out, "--details")
    assert result.exit_code == 0, result.output
    rows = _csv_rows((out / "audit.csv").read_text(encoding="utf-8"))
    assert list(rows[0]) == [*SCAN_COLUMNS, *MEASURE_COLUMNS, *TRIAGE_CSV]
    assert sum(row["significant"] == "True" for row in rows) >= 2  # more than the one measured
    assert {rows[0]["candidate"], rows[1]["candidate"]} == {"zebra", "yak"}
    assert float(rows[0]["delta"]) > 0.2 and float(rows[0]["delta_low"]) < float(rows[0]["delta"])
    assert int(rows[0]["aligned_rows"]) + int(rows[0]["conflicting_rows"]) == 200  # held-out 20 %
    for row in rows[1:]:
        assert [row[column] for column in MEASURE_COLUMNS] == [""] * len(MEASURE_COLUMNS)
    printed = _printed_rows(result.stdout)
    assert sorted(printed, key=int) == ["1", "2", "3", "4", "5"]
    assert printed["1"][-1].startswith(f"{float(rows[0]['delta']):+.3f} [")
    assert printed["2"][-2:] == ["—", "—"] and printed["5"][-2:] == ["—", "—"]
    record = json.loads((out / "audit.json").read_text(encoding="utf-8"))
    assert record["measurement"]["candidates"] == 1
    assert record["measurement"]["evaluated_on"].startswith("a stratified held-out 20%")


def test_a_saved_pipeline_is_measured_as_model_path(train_csv, tmp_path):
    frame = pd.read_csv(train_csv)
    pipeline = Pipeline([("tfidf", TfidfVectorizer()), ("logreg", LogisticRegression())])
    saved = tmp_path / "pipeline.joblib"
    joblib.dump(pipeline.fit(frame["text"], frame["label"]), saved)
    out = tmp_path / "out"
    result = invoke(
        "audit", train_csv, *FAST, "--model", saved, "--measure-top", "1", "--out", out, "--details"
    )
    assert result.exit_code == 0, result.output
    rows = _csv_rows((out / "audit.csv").read_text(encoding="utf-8"))
    assert rows[0]["delta"] and float(rows[0]["aligned_accuracy"]) > 0.5
    assert rows[1]["delta"] == ""
    assert f"Reliance: {saved.name} on a stratified held-out 20%" in result.stdout
    # the pipeline's own TfidfVectorizer reads the word: it is visible, and a test ran
    assert rows[0]["visible"] == "True" and rows[0]["relied_on"] in {"True", "False"}


@pytest.mark.slow
def test_the_same_command_twice_writes_the_same_bytes(tmp_path):
    premises, hypotheses, labels = planted_pairs(400, seed=5)
    data = _write_csv(tmp_path / "pairs.csv", premise=premises, hypothesis=hypotheses, label=labels)
    options = (*FAST, "--text-col", "premise", "--text-pair-col", "hypothesis")
    model = ("--model", "tfidf-logreg", "--measure-top", "2")
    for name in ("first", "second"):
        result = invoke("audit", data, *options, *model, "--out", tmp_path / name)
        assert result.exit_code == 0, result.output
    for name in ("audit.json", "audit.csv"):
        first, second = (tmp_path / "first" / name), (tmp_path / "second" / name)
        assert first.read_bytes() == second.read_bytes()
    record = json.loads((tmp_path / "first" / "audit.json").read_text(encoding="utf-8"))
    # the user's column names, not the inner part names
    assert record["candidates"][0]["candidate"] == "hypothesis: not"
    assert record["candidates"][0]["part"] == "text_pair"  # the part itself keeps its inner name
    assert record["candidates"][0]["delta"] is not None  # the bootstrap ran, seeded


def test_format_csv_prints_audit_csv_and_format_json_the_record(train_csv, tmp_path):
    out = tmp_path / "out"
    printed = invoke("audit", train_csv, *FAST, "--format", "csv", "--out", out)
    assert printed.exit_code == 0, printed.output
    assert next(csv.reader(io.StringIO(printed.stdout))) == [*SCAN_COLUMNS, *TRIAGE_CSV]
    assert printed.stdout == (out / "audit.csv").read_text(encoding="utf-8")
    assert _csv_rows(printed.stdout)[0]["candidate"] in {"zebra", "yak"}
    as_json = invoke("audit", train_csv, *FAST, "--format", "json")
    assert as_json.exit_code == 0, as_json.output
    record = json.loads(as_json.stdout)
    assert record["kind"] == "shortcutlab-audit"
    assert record["candidates"][0]["candidate"] == _csv_rows(printed.stdout)[0]["candidate"]
    assert record["data"]["train"]["path"] == str(train_csv)
    assert record["data"]["test"] is None


def test_the_report_renders_an_audit_folder(tmp_path):
    texts, labels = planted(600, seed=1, cues={"zebra": "pos"})
    train = _write_csv(tmp_path / "train.csv", text=texts, label=labels)
    test_texts, test_labels = planted(300, seed=7, cues={"zebra": "pos"})
    test = _write_csv(tmp_path / "test.csv", text=test_texts, label=test_labels)
    out = tmp_path / "audit"
    assert invoke("audit", train, "--test", test, *FAST, "--out", out).exit_code == 0
    result = invoke("report", out)
    assert result.exit_code == 0, result.output
    page = (out / "report.html").read_text(encoding="utf-8")
    assert "<title>Shortcut audit: train.csv" in page
    assert f"{test} (300 rows" in page  # the test table is named in the overview
    table = page[page.index('id="audit-candidates"') :]
    assert "zebra" in table[: table.index("</table>")]
    record = json.loads((out / "audit.json").read_text(encoding="utf-8"))
    example = record["candidates"][0]["examples"][0]["text"]
    assert example.endswith(" zebra")
    marked = example.removesuffix("zebra") + '<mark class="cue">zebra</mark>'
    assert marked in page


def _refusal_cases(folder: Path, train: Path) -> list[tuple[tuple[object, ...], str]]:
    texts, labels = planted(30, seed=2, shares={"neg": 0.8, "pos": 0.2})
    scarce = _write_csv(folder / "scarce.csv", text=texts, label=labels)
    vectorizer = folder / "vectorizer.joblib"  # saved, but not a classifier
    joblib.dump(TfidfVectorizer(), vectorizer)
    return [
        ((train, "--meta-col", "source"), "no metadata column 'source'"),
        ((train, "--model", "nosuch"), "Unknown model 'nosuch'. Known models: "),
        (
            (train, "--model", vectorizer),
            "(TfidfVectorizer) has no predict_proba; save a classifier",
        ),
        ((scarce,), "an audit needs at least 10 rows of every label"),
        ((train, "--correction", "xyz"), "must be one of 'bh', 'holm'. Got 'xyz'"),
        ((train, "--alpha", "2"), "--alpha must be in (0, 1), e.g. --alpha 0.05. Got 2.0."),
        ((folder / "missing.csv",), "missing.csv"),
        (
            (train, "--format", "xml"),
            "must be one of 'table', 'md', 'csv', 'json', 'latex'. Got 'xml'",
        ),
    ]


def test_bad_input_is_refused_with_one_line_and_no_output_folder(train_csv, tmp_path):
    for args, message in _refusal_cases(tmp_path, train_csv):
        out = tmp_path / "out"
        assert_refused(tmp_path, message, "audit", *args, *FAST, "--out", out)
        assert not out.exists()


def test_an_existing_output_folder_is_kept_without_overwrite(train_csv, tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "keep.txt").write_text("mine")
    message = "exists and is not empty. Choose another --out or pass --overwrite."
    assert_refused(tmp_path, message, "audit", train_csv, *FAST, "--out", out)
    assert [p.name for p in out.iterdir()] == ["keep.txt"]


def test_the_audit_reads_files_as_builds_do_empty_rows_dropped_or_refused(tmp_path):
    """The audit's reading options are the builds' (ReadingOptions): --on-empty error refuses a
    file with an empty text in one line; the default drops the row and audits the rest."""
    rows = pd.DataFrame(
        {
            "text": [f"honestly item {i}" if i % 3 else f"item {i}" for i in range(120)],
            "label": [int(i % 3 > 0) for i in range(120)],
        }
    )
    rows.loc[5, "text"] = ""
    data = tmp_path / "rows.csv"
    rows.to_csv(data, index=False)
    refused = assert_refused(
        tmp_path, "empty", "audit", data, "--on-empty", "error", "--out", tmp_path / "refused"
    )
    assert "--on-empty drop" in refused.stderr
    result = invoke("audit", data, "--no-surface", "--no-attributes", "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    record = json.loads((tmp_path / "out" / "audit.json").read_text(encoding="utf-8"))
    assert record["data"]["rows"]["train"] == 119
