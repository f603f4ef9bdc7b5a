"""SQLite errors a user's file causes name the file; an error of the SQL itself stays a bug."""

from __future__ import annotations

import sqlite3

import pandas as pd
import pytest

from shortcutlab.data.sqlite_file import check_intact, connect
from shortcutlab.errors import InputFileError
from tests.engine.disks import damage


def filled(path):
    connection = connect(path, recovery="Do this")
    connection.execute("CREATE TABLE t (k INTEGER PRIMARY KEY, v TEXT)")
    connection.executemany("INSERT INTO t VALUES (?, ?)", [(i, "x" * 200) for i in range(2000)])
    connection.commit()
    return connection


def test_a_constraint_error_keeps_its_type(tmp_path):
    connection = filled(tmp_path / "a.sqlite")
    with pytest.raises(sqlite3.IntegrityError):
        connection.execute("INSERT INTO t VALUES (1, 'again')")


def test_a_damaged_file_is_named_by_check_intact_and_by_pandas_reads(tmp_path):
    path = tmp_path / "a.sqlite"
    filled(path).close()
    damage(path)
    connection = connect(path, recovery="Do this")
    with pytest.raises(
        InputFileError, match=r"a\.sqlite' is damaged: .*\[SQLITE_CORRUPT\]\. Do this"
    ):
        check_intact(connection)
    with pytest.raises(InputFileError, match=r"is damaged: .*\. Do this; what is left may be"):
        pd.read_sql_query("SELECT * FROM t", connection)
