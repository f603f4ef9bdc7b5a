"""A spec's dataset entry: its reading keys become one :class:`InputOptions`, and its resolved
record (so the spec hash a run folder is resumed by) is what it was before."""

from __future__ import annotations

from pathlib import Path

import pytest

from shortcutlab.data.options import InputOptions
from shortcutlab.engine.run_folder import dataset_tables
from shortcutlab.engine.spec_entries import parse_dataset
from shortcutlab.engine.spec_identity import canonical_hash
from shortcutlab.errors import ConfigError

ENTRY = {
    "train": "train.csv",
    "test": "test.csv",
    "text": "review",
    "label": "stars",
    "encoding": "latin-1",
    "on_empty": "error",
    "labels": [0, 1],
}


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / "train.csv").write_text("review,stars\ngood one,1\nbad one,0\n")
    (tmp_path / "test.csv").write_text("review,stars\nfine,1\nawful,0\n")
    return tmp_path


def test_the_reading_keys_become_the_input_options(folder):
    dataset = parse_dataset(ENTRY, "spec: data", folder)
    assert dataset.inputs == InputOptions(
        text_col="review", label_col="stars", encoding="latin-1", on_empty="error"
    )
    assert parse_dataset({"train": "train.csv", "test": "test.csv"}, "d", folder).inputs == (
        InputOptions()
    )
    train, test = dataset_tables(dataset)
    assert train.frame["text"].tolist() == ["good one", "bad one"]
    assert test.frame["label"].tolist() == [1, 0]


def test_the_resolved_record_and_its_hash_are_unchanged(folder):
    resolved = parse_dataset(ENTRY, "spec: data", folder).resolved()
    assert resolved == {
        "name": "data",
        "train": "train.csv",
        "test": "test.csv",
        "text": "review",
        "label": "stars",
        "text_pair": None,
        "labels": [0, 1],
        "encoding": "latin-1",
        "on_empty": "error",
        "distractors": None,
        "sha256": "9c8688a9cc46d253caa708d04bb347a546fb57b698ff144fc9990012d048d945",
    }
    # Computed by the code before the input options were one dataclass (commit fbc29ed): a run
    # folder made then is still found to hold this spec's results.
    assert canonical_hash(resolved) == (
        "6f7494af936a3f694bbc5a7692b53a770c19595ea597ec5937198b682cb7c675"
    )


def test_an_unknown_on_empty_is_refused_where_it_stands(folder):
    with pytest.raises(
        ConfigError,
        match="The 'on_empty' key in spec: data must be one of 'drop', 'error'. Got 'skip'",
    ):
        parse_dataset(ENTRY | {"on_empty": "skip"}, "spec: data", folder)


@pytest.mark.parametrize(
    "train, name",
    [
        ("reviews.csv", "reviews"),  # the file's stem
        ("data/yelp_train.csv", "yelp"),  # without the split's word
        ("mnli/train.tsv", "mnli"),  # a stem that names a split: its folder's name
        ("build/anything.csv", "build"),  # a benchmark folder (it holds manifest.json)
        ("my data/yelp polarity.csv", "yelp-polarity"),  # made a safe name
        ("train.csv", "data"),  # a split's stem at the spec's root, as before
    ],
)
def test_a_dataset_without_a_name_is_named_by_its_train_file(tmp_path, train, name):
    path = tmp_path / train
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("text,label\ngood,1\nbad,0\n")
    (tmp_path / "build" / "manifest.json").parent.mkdir(exist_ok=True)
    (tmp_path / "build" / "manifest.json").write_text("{}")
    dataset = parse_dataset({"train": train, "split_by": "text"}, "spec: data", tmp_path)
    assert dataset.name == name


def test_split_by_splits_the_train_file_by_group(tmp_path):
    rows = "".join(f"p{i // 3},h{i},{i % 2}\n" for i in range(60))
    (tmp_path / "pairs.csv").write_text("premise,hypothesis,label\n" + rows)
    entry = {"train": "pairs.csv", "split_by": "premise", "test_size": 0.25}
    entry |= {"text": "premise", "text_pair": "hypothesis"}
    dataset = parse_dataset(entry, "spec: data", tmp_path)
    assert dataset.resolved()["split_by"] == "premise" and dataset.resolved()["test_size"] == 0.25
    train, test = dataset_tables(dataset)
    assert len(train) + len(test) == 60 and 15 <= len(test) <= 17  # 25 % to within one premise
    assert not set(train.frame["text"]) & set(test.frame["text"])


@pytest.mark.parametrize(
    "keys, message",
    [
        ({"test": "test.csv", "split_by": "review"}, "has both 'test' and 'split_by'"),
        ({"test": "test.csv", "test_size": 0.3}, "test_size is the test share of a split by group"),
        (
            {"split_by": "review", "test_size": 30},
            "The 'test_size' key in spec: data must be a share",
        ),
    ],
)
def test_split_by_keys_are_checked(folder, keys, message):
    with pytest.raises(ConfigError, match=message):
        parse_dataset({"train": "train.csv", "text": "review"} | keys, "spec: data", folder)
