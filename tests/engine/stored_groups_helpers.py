"""What the group-statistics tests of every family share: the stored rows, a tampered row,
and the files ``results --out`` and ``report`` write."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

from shortcutlab.engine.store import DATABASE
from tests.cli.refusals import invoke

SENTINEL = -0.123456  # an interval bound no bootstrap of the tests' cells gives


def copy(run: Path, tmp_path: Path) -> Path:
    return shutil.copytree(run, tmp_path / "run")


def rows(run: Path, family: str | None = None) -> dict[str, tuple[list[str], str]]:
    """Group key -> (its cell ids, its statistics as stored), of one family's rows or all."""
    query = "SELECT group_key, cell_ids, statistics FROM group_statistics"
    with sqlite3.connect(run / DATABASE) as db:
        found = db.execute(
            *((query,) if family is None else (f"{query} WHERE family = ?", (family,)))
        )
        return {key: (json.loads(ids), statistics) for key, ids, statistics in found}


def figures(run: Path) -> dict[str, str]:
    """The report figures stored in the run's store: key -> SVG markup."""
    with sqlite3.connect(run / DATABASE) as db:
        return dict(db.execute("SELECT figure_key, markup FROM figures"))


def sql(run: Path, *statements: str) -> None:
    with sqlite3.connect(run / DATABASE) as db:
        db.execute("PRAGMA foreign_keys=ON")
        for statement in statements:
            db.execute(statement)


def tamper_first_group(run: Path, column: str) -> str:
    """Store the sentinel as the first group's ``column``; returns the group's key."""
    key = sorted(rows(run))[0]
    statistics = json.loads(rows(run)[key][1]) | {column: SENTINEL}
    with sqlite3.connect(run / DATABASE) as db:
        db.execute(
            "UPDATE group_statistics SET statistics = ? WHERE group_key = ?",
            (json.dumps(statistics), key),
        )
    return key


def tables(run: Path, scratch: Path, *options: str) -> dict[str, bytes]:
    """Every file ``results --out`` writes for ``run``, by name."""
    out = scratch / "tables"
    assert invoke("results", run, "--out", out, *options).exit_code == 0
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*.*"))}


def written(run: Path, scratch: Path) -> dict[str, bytes]:
    """Every file ``results --out`` and ``report`` write for ``run``, by name."""
    page = scratch / "report.html"
    assert invoke("report", run, "--out", page).exit_code == 0
    return tables(run, scratch) | {page.name: page.read_bytes()}
