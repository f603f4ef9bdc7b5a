"""column: a metadata column the user already has, as the attribute."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from shortcutlab.attributes import make_attribute
from shortcutlab.errors import ConfigError, DataError

TEXTS = ["a", "b", "c", "d", "e", "f"]


def test_values_are_the_column_as_strings_and_missing_entries_are_none():
    frame = pd.DataFrame(
        {
            "text": TEXTS,
            "year": [2001, np.nan, 2003, 2001, None, 1999],
            "genre": list("xyzxy") + [""],
        }
    )
    year = make_attribute("column", {"column": "year"})
    annotation = year.annotate(TEXTS, {name: frame[name] for name in frame.columns})
    assert annotation.values.tolist() == ["2001", None, "2003", "2001", None, "1999"]
    assert annotation.counts() == {"2001": 2, "1999": 1, "2003": 1}
    assert annotation.details == {"missing": 2}
    genre = make_attribute("column", {"column": "genre"}).annotate(TEXTS, {"genre": frame["genre"]})
    assert genre.values.tolist() == ["x", "y", "z", "x", "y", None]
    flags = make_attribute("column", {"column": "flag"})
    values = flags.annotate(TEXTS[:3], {"flag": [True, pd.NA, 0.5]}).values.tolist()
    assert values == ["True", None, "0.5"]


def test_the_output_column_keeps_the_users_name_unless_a_split_already_has_it():
    names = {
        source: make_attribute("column", {"column": source}).column
        for source in ("genre", "label", "text", "group", "row_id", "text_pair", "topic id")
    }
    assert names == {
        "genre": "genre",
        "label": "attr_label",
        "text": "attr_text",
        "group": "attr_group",
        "row_id": "attr_row_id",
        "text_pair": "attr_text_pair",
        "topic id": "topic id",
    }
    attribute = make_attribute("column", {"column": "label"})
    assert attribute.needs_columns == ("label",)
    assert attribute.config() == {"name": "column", "column": "label"}


def test_a_missing_column_is_a_data_error_listing_the_columns():
    attribute = make_attribute("column", {"column": "genere"})
    with pytest.raises(
        DataError,
        match=r"reads the column 'genere', which the input does not have\. Its columns are: "
        r"text, label, genre\. Set column= to one of them\.",
    ):
        attribute.annotate(TEXTS, {"text": TEXTS, "label": [0] * 6, "genre": ["x"] * 6})
    with pytest.raises(DataError, match="Its columns are: none besides the text"):
        attribute.annotate(TEXTS)


def test_a_column_of_another_length_is_a_data_error():
    with pytest.raises(DataError, match="has 2 entries for 6 texts"):
        make_attribute("column", {"column": "genre"}).annotate(TEXTS, {"genre": ["x", "y"]})


@pytest.mark.parametrize("value", [None, "", "  ", 3])
def test_the_column_option_is_required(value):
    options = {} if value is None else {"column": value}
    with pytest.raises(
        ConfigError, match="needs the 'column' option: the name of the input column"
    ):
        make_attribute("column", options)
