"""Paired columns: --text-pair-col, and named pairs (premise/hypothesis...) found without it."""

import json

import pandas as pd
import pytest

from shortcutlab.data import load_table
from shortcutlab.data.pairs import model_inputs
from shortcutlab.errors import DataError

NLI = pd.DataFrame(
    {
        "premise": ["A man sleeps.", "A dog runs.", "Kids play."],
        "hypothesis": ["Someone rests.", "A cat sits.", "Children are outside."],
        "label": ["entailment", "contradiction", "neutral"],
    }
)


@pytest.mark.parametrize("stream_text", [False, True])
def test_named_pair_columns_are_found_and_recorded(tmp_path, stream_text):
    path = tmp_path / "nli.tsv"
    NLI.to_csv(path, sep="\t", index=False)
    loaded = load_table(path, stream_text=stream_text)
    assert loaded.column_names()[:4] == ["row_id", "text", "text_pair", "label"]
    batch = next(loaded.batches(10)).to_pandas()
    assert batch["text_pair"].tolist() == NLI["hypothesis"].tolist()
    assert model_inputs(loaded.frame)[1] == ("A dog runs.", "A cat sits.")
    record = json.loads(json.dumps(loaded.source.to_json()))
    assert record["columns_found"] == {"text": "premise", "text_pair": "hypothesis"}


def test_question_pairs_and_a_canonical_text_pair_column_are_read_as_pairs():
    quora = NLI.rename(columns={"premise": "question1", "hypothesis": "question2"})
    assert load_table(quora).frame["text"].tolist() == NLI["premise"].tolist()
    canonical = NLI.rename(columns={"premise": "text", "hypothesis": "text_pair"})
    loaded = load_table(canonical)
    assert loaded.frame["text_pair"].tolist() == NLI["hypothesis"].tolist()
    assert "columns_found" not in loaded.source.to_json()  # nothing was looked up


def test_given_columns_win_over_named_pairs():
    loaded = load_table(NLI, text_col="hypothesis")
    assert loaded.frame.columns.tolist() == ["row_id", "text", "label", "premise"]
    assert "columns_found" not in loaded.source.to_json()


def test_a_missing_pair_column_lists_the_columns():
    with pytest.raises(
        DataError,
        match=r"^Column 'second' not found in the data table\. Columns found: premise, hypothesis, "
        r"label\. Pass the right name with text_pair_col=\.\.\.$",
    ):
        load_table(NLI, text_col="premise", text_pair_col="second")
