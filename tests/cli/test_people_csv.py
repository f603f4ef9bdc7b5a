"""CSV files people open in spreadsheets neutralise formulas (OWASP's CSV-injection rules);
benchmark splits, the models' inputs, keep their texts byte for byte.

Each file is read back as written: no cell may start with ``=``, ``+``, ``-``, ``@``, a tab or a
carriage return unless it is a plain number, and the hostile texts come back exactly through
``from_people_csv``.
"""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

import pandas as pd
import pytest

from shortcutlab.data.csv_text import from_people_csv
from tests.cli.refusals import invoke

HOSTILE = '=HYPERLINK("http://evil")'
TRIGGERS = ("=", "+", "-", "@", "\t", "\r")
PLAIN_NUMBER = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?")


def people_cells(text: str) -> list[list[str]]:
    """The rows of a people's CSV file; fails on a cell a spreadsheet would run."""
    rows = list(csv.reader(io.StringIO(text, newline="")))
    for row in rows:
        for cell in row:
            runnable = cell.startswith(TRIGGERS) and not PLAIN_NUMBER.fullmatch(cell)
            assert not runnable, f"a spreadsheet would run {cell!r}"
    return rows


def hostile_frame(rows: int, *, offset: int = 0) -> pd.DataFrame:
    """Texts and labels a spreadsheet would run; one label is the text '-1' (a plain number)."""
    texts = [
        f"{HOSTILE} great movie, word{i % 7}" if i % 2 else f"@SUM(1+1) awful film word{i % 5}"
        for i in range(offset, offset + rows)
    ]
    labels = [HOSTILE if i % 2 else "-1" for i in range(offset, offset + rows)]
    return pd.DataFrame({"text": texts, "label": labels})


def test_audit_csv_neutralises_formulas_and_keeps_numbers(tmp_path: Path) -> None:
    hostile_frame(200).to_csv(tmp_path / "train.csv", index=False)
    printed = invoke(
        "audit", tmp_path / "train.csv", "--no-surface", "--format", "csv", "--out", tmp_path / "a"
    )
    assert printed.exit_code == 0, printed.output
    written = (tmp_path / "a" / "audit.csv").read_text(encoding="utf-8")
    assert printed.stdout == written
    rows = people_cells(written)
    header = rows[0]
    labels = {row[header.index("label")] for row in rows[1:]}
    assert labels - {""} == {"'" + HOSTILE, "-1"}  # neutralised; the plain number kept
    assert f'"\'{HOSTILE.replace(chr(34), chr(34) * 2)}"' in written  # quoted, OWASP's wrapping
    assert f",{HOSTILE}" not in written and f'"{HOSTILE}' not in written
    # numbers stay numbers: unquoted, unprefixed, and read back as numbers
    assert re.search(r'^1,"', written.splitlines()[1])
    table = from_people_csv(pd.read_csv(io.StringIO(written), dtype={"label": str}))
    assert set(table["label"].dropna()) == {HOSTILE, "-1"}
    assert pd.api.types.is_float_dtype(table["lift"])
    assert pd.api.types.is_integer_dtype(table["support"])


def test_a_build_keeps_model_inputs_byte_exact_while_its_audit_neutralises(
    tmp_path: Path,
) -> None:
    hostile_frame(240).to_csv(tmp_path / "train.csv", index=False)
    test = hostile_frame(120, offset=1)
    test["text"] += " again"  # texts of its own (a test table of training rows is refused)
    test.to_csv(tmp_path / "test.csv", index=False)
    built = invoke(
        "build", "maze", "--train", tmp_path / "train.csv", "--test", tmp_path / "test.csv",
        "--shortcut", "single-term", "--strength", 1, "--out", tmp_path / "b",
    )  # fmt: skip
    assert built.exit_code == 0, built.output
    train = (tmp_path / "b" / "train.csv").read_text(encoding="utf-8")
    split = pd.read_csv(io.StringIO(train), dtype=str, keep_default_na=False)
    hostile_rows = split[split["label"] == HOSTILE]
    assert len(hostile_rows) > 0 and "'" + HOSTILE not in train  # the model sees the text as given
    assert hostile_rows["text"].str.contains(HOSTILE, regex=False).all()
    assert f'"{HOSTILE.replace(chr(34), chr(34) * 2)}' in train  # pandas' quoting, nothing added
    audited = invoke("audit", tmp_path / "b" / "train.csv", "--no-surface", "--out", tmp_path / "a")
    assert audited.exit_code == 0, audited.output
    audit = (tmp_path / "a" / "audit.csv").read_text(encoding="utf-8")
    assert HOSTILE not in [cell for row in people_cells(audit) for cell in row]
    assert "'" + HOSTILE.replace('"', '""') in audit


GRID = """
name: people-grid
data: {builtin: reviews, train_size: 300, test_size: 200}
shortcuts: [single-term]
strengths: [1.0]
models: [{name: majority}, {name: tfidf-logreg}]
seeds: [0, 1]
bootstrap: 100
"""


def unquoted_cells(line: str) -> list[str]:
    """The cells of one CSV line written without quotes (a line holding no line break)."""
    cells = re.findall(r'("(?:[^"]|"")*"|[^,"]*)(?:,|$)', line)[: line.count(",") + 1]
    return [cell for cell in cells if not cell.startswith('"')]


def test_results_csv_and_the_written_tables_are_for_people(tmp_path: Path) -> None:
    (tmp_path / "spec.yaml").write_text(GRID, encoding="utf-8")
    ran = invoke("run", tmp_path / "spec.yaml", "--out", tmp_path / "run")
    assert ran.exit_code == 0, ran.output
    tidy = invoke("results", tmp_path / "run", "--format", "csv", "--out", tmp_path / "report")
    assert tidy.exit_code == 0, tidy.output
    files = sorted((tmp_path / "report").glob("*.csv"))
    assert [p.name for p in files] == ["cells.csv", "groups.csv"]
    for text in (tidy.stdout, *(p.read_text("utf-8") for p in files)):
        assert len(people_cells(text)) > 1
        header, *lines = text.splitlines()
        assert unquoted_cells(header) == []  # every name quoted
        for line in lines:  # text cells quoted (OWASP); numbers (negative too), booleans are not
            assert '"majority"' in line or '"tfidf-logreg"' in line
            for cell in unquoted_cells(line):
                assert cell in ("", "True", "False") or isinstance(float(cell), float), line
    table = pd.read_csv(io.StringIO(tidy.stdout))
    assert table["model"].tolist() == ["majority", "tfidf-logreg"]
    assert pd.api.types.is_float_dtype(table["delta_accuracy_ci_low"])


@pytest.mark.slow
def test_the_demo_summary_csv_is_for_people_and_its_report_reads_it(quick_demo) -> None:
    folder, ran = quick_demo
    assert ran.exit_code == 0, ran.output
    summary = (folder / "summary.csv").read_text(encoding="utf-8")
    assert summary.startswith('"') and len(people_cells(summary)) > 1
    corpus = (folder / "corpus" / "train.csv").read_text(encoding="utf-8")
    assert not corpus.startswith('"')  # a model input: pandas' CSV, no quotes added
    assert "Shortcut Maze tables" in (folder / "report.html").read_text("utf-8")
