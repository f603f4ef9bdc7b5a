"""Where the labels of several files meet (data.labels.agree_label_columns, LabelSpace.ranks):
one type out, or a DataError naming each file's label type; never an Arrow type error."""

from __future__ import annotations

import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shortcutlab.data.labels import LabelSpace, agree_label_columns, normalize_label_array
from shortcutlab.errors import DataError


def test_whole_numbers_meet_floats_by_value_and_stay_whole_where_every_float_is():
    agreed = agree_label_columns({"a": pa.array([1, 2, 3]), "b": pa.array([3.0, 1.0])})
    assert agreed["b"].type == pa.int64() and agreed["b"].to_pylist() == [3, 1]
    halves = agree_label_columns({"a": pa.array([1, 2]), "b": pa.array([1.5])})
    assert halves["a"].to_pylist() == [1.0, 2.0] and halves["b"].to_pylist() == [1.5]


def test_a_number_takes_the_spelling_a_text_file_gives_it():
    agreed = agree_label_columns(
        {"train": pa.array(["1.0", "2", "other"]), "test": pa.array([1, 2, 2])}
    )
    assert agreed["test"].to_pylist() == ["1.0", "2", "2"]


def test_names_against_numbers_name_each_files_type_and_examples():
    with pytest.raises(DataError) as error:
        agree_label_columns(
            {"'t.csv'": pa.array([0, 1, 2, 3]), "'n.csv'": pa.array(["neg", "pos", "neg"])}
        )
    message = str(error.value)
    assert "'t.csv' has whole-number labels (0, 1, 2 and 1 more)" in message
    assert "'n.csv' has text labels (neg, pos)" in message
    assert "so neg, pos in 'n.csv' are not labels of 't.csv'" in message
    assert "\n" not in message


def test_a_long_or_multi_line_label_is_shown_on_one_short_line():
    with pytest.raises(DataError) as error:
        agree_label_columns({"a": pa.array([1]), "b": pa.array(["x\ny" * 100])})
    assert "\n" not in str(error.value) and len(str(error.value)) < 600


@pytest.mark.parametrize("spelled", [["true", "FALSE"], ["True", "False"], ["TRUE", "false"]])
def test_every_spelling_of_a_boolean_label_reads_as_one(spelled):
    assert normalize_label_array(pa.array(spelled)).to_pylist() == ["True", "False"]


def test_ranks_of_labels_read_from_another_file_compare_as_written():
    space = LabelSpace(("1", "2", "five"))
    assert space.ranks(pa.array([2, 1])).tolist() == [1, 0]
    with pytest.raises(DataError, match="The label types of the files differ"):
        LabelSpace((0, 1)).ranks(pa.array(["neg", "pos"]), where="the test table")


LABELS = st.one_of(
    st.lists(st.integers(-3, 3), min_size=1, max_size=6),
    st.lists(st.floats(-3, 3, allow_nan=False).map(lambda v: round(v * 2) / 2), min_size=1),
    st.lists(st.sampled_from(["1", "2", "1.0", "x", "True", "false", " 2 "]), min_size=1),
)


@settings(max_examples=300, derandomize=True, deadline=None)
@given(first=LABELS, second=LABELS)
def test_labels_of_two_files_agree_or_are_refused_and_never_crash(first, second):
    columns = {"a": normalize_label_array(pa.array(first)), "b": normalize_label_array(pa.array(second))}  # fmt: skip
    try:
        agreed = agree_label_columns(columns)
    except DataError:
        return
    assert agreed["a"].type == agreed["b"].type
    space = LabelSpace(tuple(dict.fromkeys(agreed["a"].to_pylist())))
    try:
        space.ranks(columns["b"])  # the other file's labels as read, against the set
    except DataError as error:
        assert "not in the label set" in str(error) or "differ" in str(error)


def test_whole_numbers_wider_than_int64_stay_text_rather_than_merge_as_floats():
    wide = ["99999999999999999999", "99999999999999999998", "1"]
    assert normalize_label_array(pa.array(wide)).to_pylist() == wide


def test_a_file_with_no_label_at_all_takes_the_others_type():
    agreed = agree_label_columns({"a": pa.array([1, 2]), "b": pa.array([None, None], pa.null())})
    assert agreed["b"].type == pa.int64() and agreed["b"].null_count == 2
