"""``shortcutlab audit --model``: reliance through the model's own eyes (a word its tokenizer
drops is "not visible to the model", a planted word it reads is "relied on"), the pair parts
named as the user's columns, and ``--html`` writing the report in the same command."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pandas as pd

from tests.cli.refusals import assert_refused, invoke
from tests.families.audit.tables import planted, planted_pairs

FAST = ("--no-surface", "--no-attributes", "--no-packaged-lexicons")


def _write_csv(path: Path, **columns: list[str]) -> Path:
    pd.DataFrame(columns).to_csv(path, index=False)
    return path


def _table_row(stdout: str, candidate: str) -> list[str]:
    """The cells of the printed table's row for ``candidate`` (the header's for "candidate")."""
    for line in stdout.splitlines():
        cells = [cell.strip() for cell in line.replace("┃", "│").split("│")]
        if len(cells) > 3 and cells[2] == candidate:  # after "#" and "group"
            return cells
    raise AssertionError(f"no row for {candidate!r} in:\n{stdout}")


def test_a_one_letter_cue_is_not_visible_and_a_word_cue_is_relied_on(tmp_path):
    texts, labels = planted(1000, seed=1, cues={"zebra": "pos", "q": "neg"})
    train = _write_csv(tmp_path / "train.csv", text=texts, label=labels)
    out = tmp_path / "out"
    result = invoke(
        "audit", train, *FAST, "--model", "tfidf-logreg", "--out", out, "--html", "--details"
    )
    assert result.exit_code == 0, result.output
    header = _table_row(result.stdout, "candidate")
    assert header[header.index("relied on") :] == ["relied on", "Δ [95 %]"]  # fits a terminal
    zebra, q = _table_row(result.stdout, "zebra"), _table_row(result.stdout, "q")
    assert zebra[header.index("relied on")] == "yes"
    assert q[header.index("relied on")] == "not visible"
    rows = {row["candidate"]: row for row in csv.DictReader(io.StringIO(
        (out / "audit.csv").read_text(encoding="utf-8")))}  # fmt: skip
    assert (rows["q"]["visible"], rows["q"]["relied_on"], rows["q"]["removal_rows"]) == (
        "False", "", "",
    )  # fmt: skip
    assert (rows["zebra"]["visible"], rows["zebra"]["relied_on"]) == ("True", "True")
    assert int(rows["zebra"]["insertion_rows"]) > 0 and float(rows["zebra"]["removal_p"]) < 0.05
    record = json.loads((out / "audit.json").read_text(encoding="utf-8"))
    listed = {c["candidate"]: c for c in record["candidates"]}
    assert listed["q"]["visible"] is False and listed["q"]["relied_on"] is None
    assert "'q' is not visible to tfidf-logreg" in result.stdout
    assert f"Wrote {out / 'report.html'}" in result.stderr + result.stdout
    page = (out / "report.html").read_text(encoding="utf-8")
    reliance = page[page.index('id="audit-reliance"') :]
    assert "not visible to the model" in reliance and "relied on" in reliance


def test_pair_candidates_are_named_by_the_users_columns(tmp_path):
    premises, hypotheses, labels = planted_pairs(600, seed=5)
    data = _write_csv(tmp_path / "p.csv", premise=premises, hypothesis=hypotheses, label=labels)
    columns = ("--text-col", "premise", "--text-pair-col", "hypothesis")
    result = invoke(
        "audit", data, *FAST, *columns, "--model", "tfidf-logreg", "--out", tmp_path / "o",
        "--details",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    header = _table_row(result.stdout, "candidate")
    assert _table_row(result.stdout, "hypothesis: not")[header.index("relied on")] == "yes"
    assert "text_pair" not in result.stdout
    assert "Partial input: hypothesis alone: " in result.stdout
    frame = pd.read_csv(tmp_path / "o" / "audit.csv")
    names = set(frame["candidate"])
    assert "hypothesis: not" in names and "hypothesis alone" in names
    assert not frame["candidate"].str.startswith("text_pair").any()


def test_html_needs_an_output_folder(tmp_path):
    texts, labels = planted(200, seed=1, cues={"zebra": "pos"})
    train = _write_csv(tmp_path / "train.csv", text=texts, label=labels)
    message = "--html writes report.html into the audit's folder; give --out DIR as well."
    assert_refused(tmp_path, message, "audit", train, *FAST, "--html")
