import gzip
import json

import pandas as pd
import pytest

from shortcutlab.data import load_table
from shortcutlab.errors import DataError, EncodingError, InputFileError

ROWS = pd.DataFrame(
    {"review": ["Nice one.", "Bad one.", "Fine one."], "stars": [5, 1, 3], "extra": ["a", "b", "c"]}
)


def _same_content(loaded):
    assert loaded.frame["text"].tolist() == ROWS["review"].tolist()
    assert loaded.frame["label"].tolist() == [5, 1, 3]
    assert loaded.frame["row_id"].tolist() == [0, 1, 2]
    assert loaded.frame["extra"].tolist() == ["a", "b", "c"]


@pytest.mark.parametrize("suffix", [".csv", ".tsv", ".jsonl", ".parquet", ".csv.gz", ".jsonl.gz"])
def test_every_file_format_loads_to_the_same_table(tmp_path, suffix):
    path = tmp_path / f"data{suffix}"
    if suffix.startswith(".csv"):
        text = ROWS.to_csv(index=False)
    elif suffix == ".tsv":
        text = ROWS.to_csv(index=False, sep="\t")
    elif suffix.startswith(".jsonl"):
        text = "".join(json.dumps(r) + "\n" for r in ROWS.to_dict(orient="records"))
    if suffix == ".parquet":
        ROWS.to_parquet(path)
    elif suffix.endswith(".gz"):
        path.write_bytes(gzip.compress(text.encode()))
    else:
        path.write_text(text, encoding="utf-8")
    loaded = load_table(path, text_col="review", label_col="stars")
    _same_content(loaded)
    assert len(loaded.source.sha256) == 64


def test_dataframe_and_hf_datasets(tmp_path):
    datasets = pytest.importorskip("datasets")
    _same_content(load_table(ROWS, text_col="review", label_col="stars"))
    dataset = datasets.Dataset.from_pandas(ROWS)
    _same_content(load_table(dataset, text_col="review", label_col="stars"))
    dataset.save_to_disk(str(tmp_path / "ds"))
    _same_content(load_table(tmp_path / "ds", text_col="review", label_col="stars"))
    datasets.DatasetDict(
        {"train": dataset, "test": datasets.Dataset.from_pandas(ROWS.iloc[:2])}
    ).save_to_disk(str(tmp_path / "dd"))
    _same_content(load_table(tmp_path / "dd", text_col="review", label_col="stars", role="train"))
    assert (
        len(load_table(f"{tmp_path / 'dd'}::test", text_col="review", label_col="stars").frame) == 2
    )
    with pytest.raises(DataError, match="splits train, test"):
        load_table(tmp_path / "dd", text_col="review", label_col="stars", role="validation")


def test_text_pair_and_existing_row_ids(tmp_path):
    frame = pd.DataFrame(
        {
            "row_id": [10, 20],
            "premise": ["A man sleeps.", "A dog runs."],
            "hypothesis": ["Someone rests.", "A cat sits."],
            "label": ["yes", "no"],
        }
    )
    loaded = load_table(frame, text_col="premise", text_pair_col="hypothesis")
    assert loaded.frame.columns.tolist() == ["row_id", "text", "text_pair", "label"]
    assert loaded.frame["row_id"].tolist() == [10, 20]


def test_missing_file_and_unsupported_format(tmp_path):
    with pytest.raises(InputFileError, match="does not exist"):
        load_table(tmp_path / "nope.csv")
    (tmp_path / "data.xlsx").write_bytes(b"xx")
    with pytest.raises(InputFileError, match=r"unsupported format '\.xlsx'.*CSV"):
        load_table(tmp_path / "data.xlsx")
    (tmp_path / "folder").mkdir()
    with pytest.raises(InputFileError, match="not a saved Hugging Face dataset"):
        load_table(tmp_path / "folder")


def test_empty_file_and_header_only(tmp_path):
    (tmp_path / "empty.csv").write_text("")
    with pytest.raises(InputFileError, match="is empty"):
        load_table(tmp_path / "empty.csv")
    (tmp_path / "header.csv").write_text("text,label\n")
    with pytest.raises(InputFileError, match="has no rows"):
        load_table(tmp_path / "header.csv")


def test_missing_column_lists_the_columns_found(tmp_path):
    path = tmp_path / "d.csv"
    ROWS.to_csv(path, index=False)
    with pytest.raises(
        DataError,
        match=r"Column 'text' not found .* Columns found: review, stars, extra\. Pass the right name with text_col=\.\.\.$",
    ):
        load_table(path, label_col="stars")
    with pytest.raises(DataError, match=r"with label_col=\.\.\.$"):
        load_table(path, text_col="review")


def test_invalid_utf8_names_the_offset_and_encoding_fix_works(tmp_path):
    path = tmp_path / "latin.csv"
    path.write_bytes("text,label\ncaf\u00e9 ok,1\nfine,0\n".encode("cp1252"))
    with pytest.raises(
        EncodingError,
        match=r"not valid utf-8: byte 0xe9 at offset 14 \(line 2\)\. Pass the file's real encoding, e\.g\. encoding='cp1252'\.$",
    ):
        load_table(path)
    assert load_table(path, encoding="cp1252").frame["text"].tolist() == ["caf\u00e9 ok", "fine"]


def test_empty_texts_are_dropped_and_counted_or_rejected(tmp_path):
    path = tmp_path / "d.csv"
    path.write_text("text,label\nfine,1\n,0\n   ,1\nok,\ngood,0\n")
    loaded = load_table(path)
    assert loaded.frame["row_id"].tolist() == [0, 4]
    assert (loaded.source.dropped_empty_text, loaded.source.dropped_empty_label) == (2, 1)
    with pytest.raises(
        DataError,
        match=r"2 rows with an empty text \(first: row 1\)\. Remove them or pass on_empty='drop'\.$",
    ):
        load_table(path, on_empty="error")


def test_jsonl_errors_name_the_line(tmp_path):
    path = tmp_path / "d.jsonl"
    path.write_text('{"text": "a", "label": 1}\n{oops}\n')
    with pytest.raises(DataError, match="line 2 is not valid JSON"):
        load_table(path)


def test_a_jsonl_key_repeated_only_inside_a_nested_object_or_a_value_is_no_duplicate(tmp_path):
    lines = [
        {"meta": {"text": "inner"}, "text": 'he wrote "text": twice', "label": 1},
        {"meta": {"text": "inner"}, "text": "plain", "label": 0},
    ]
    path = tmp_path / "rows.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    assert load_table(path).texts() == ['he wrote "text": twice', "plain"]
    path.write_text(
        '{"text": "a", "label": 1}\n{"label": 0, "text": "b", "label": 1}\n', encoding="utf-8"
    )
    with pytest.raises(DataError, match="line 2 gives the key 'label' more than once"):
        load_table(path)
