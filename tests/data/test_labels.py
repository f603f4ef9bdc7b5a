import numpy as np
import pandas as pd
import pytest

from shortcutlab.data.labels import LabelSpace, normalize_label_values
from shortcutlab.errors import ConfigError, DataError, ShortcutlabWarning


def test_numeric_strings_become_numbers_and_sort_numerically():
    values = normalize_label_values(pd.Series(["10", "2", "1"]))
    assert values.tolist() == [10, 2, 1]
    assert LabelSpace.infer(values.tolist()).values == (1, 2, 10)


def test_float_ratings_keep_their_type():
    space = LabelSpace.infer(
        normalize_label_values(pd.Series(["1.0", "0.4", "0.8", "0.6"])).tolist()
    )
    assert space.values == (0.4, 0.6, 0.8, 1.0)


def test_text_labels_follow_first_appearance_with_a_warning():
    with pytest.warns(ShortcutlabWarning, match="order of first appearance"):
        space = LabelSpace.infer(["pos", "neg", "pos", "neu"])
    assert space.values == ("pos", "neg", "neu")


def test_given_order_wins_and_is_coerced_to_the_data_type():
    assert LabelSpace.infer(["neg", "pos", "neu"], given=["neg", "neu", "pos"]).values == (
        "neg",
        "neu",
        "pos",
    )
    assert LabelSpace.infer([0, 1, 2], given=["2", "1", "0"]).values == (2, 1, 0)


def test_given_order_must_cover_every_label():
    with pytest.raises(DataError, match="missing from labels"):
        LabelSpace.infer(["a", "b", "c"], given=["a", "b"])


def test_fewer_than_two_labels_is_an_error():
    with pytest.raises(DataError, match="fewer than two labels"):
        LabelSpace.infer([1, 1, 1])


def test_duplicate_labels_rejected():
    with pytest.raises(ConfigError, match="repeats a label"):
        LabelSpace.infer(["a", "b"], given=["a", "a", "b"])


def test_ranks_and_unknown_labels():
    space = LabelSpace((1, 2, 3))
    assert space.ranks([3, 1, 2]).tolist() == [2, 0, 1]
    assert space.ranks(np.array([2])).dtype == np.int64
    with pytest.raises(DataError, match="not in the label set"):
        space.ranks([4])
