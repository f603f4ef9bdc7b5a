"""Exact copies of training rows in a test table: the normalisation the audit and the builds
share, and the count."""

from __future__ import annotations

import pyarrow as pa
import pyarrow.compute as pc
from hypothesis import given
from hypothesis import strategies as st

from shortcutlab.data.loading import load_table
from shortcutlab.data.overlap import collapsed, repeated_rows, row_keys, table_keys

# Every character Arrow splits on, a few that it does not (zero-width space, NUL), case pairs
# whose lower case differs in length, and plain letters.
ALPHABET = (
    " \t\n\x0b\x0c\r\x1c\x1f\x85\xa0\u1680\u2000\u200a\u200b\u2028\u2029\u202f\u205f\u3000\x00aBİΣß"
)


def _split_and_join(texts: pa.Array) -> pa.Array:
    """The plain normalisation (lower, trim, split on whitespace, join with one space)."""
    words = pc.utf8_split_whitespace(pc.utf8_trim_whitespace(pc.utf8_lower(texts)))
    return pc.binary_join(words, pa.scalar(" ", pa.large_string()))


@given(st.lists(st.text(alphabet=ALPHABET, max_size=12), max_size=40))
def test_collapsed_is_the_plain_split_and_join_for_any_whitespace(texts):
    array = pa.array(texts, pa.large_string())
    assert collapsed(array).to_pylist() == _split_and_join(array).to_pylist()


def test_repeated_rows_counts_each_test_row_whose_text_a_training_row_has():
    train = [row_keys(pa.array(["Good  thing", "bad"])), row_keys(pa.array(["Other"]))]
    test = row_keys(pa.array(["good thing", "GOOD\tthing ", "other", "new"]))
    assert repeated_rows(train, test) == 3  # both copies of "good thing" count
    assert repeated_rows([], test) == 0


def test_pairs_match_only_when_both_parts_do(tmp_path):
    # "A b" + "c" and "A" + "b c" have the same words but different parts: no match
    (tmp_path / "train.csv").write_text("premise,hypothesis,label\nA b,c,0\nx,y,1\n")
    (tmp_path / "test.csv").write_text("premise,hypothesis,label\na  B,C,0\nA,b c,1\nA b,z,0\n")
    train, test = (
        load_table(tmp_path / f"{name}.csv", role=name, text_col="premise",
                   text_pair_col="hypothesis")
        for name in ("train", "test")
    )  # fmt: skip
    test_keys = pa.concat_arrays(list(table_keys(test)))
    assert repeated_rows(table_keys(train), test_keys) == 1
