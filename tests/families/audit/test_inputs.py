"""The audit's inputs: a loaded file's texts stay Arrow strings and read as lists would."""

from __future__ import annotations

from shortcutlab.families.audit.run import load_inputs


def test_a_loaded_tables_texts_stay_arrow_and_read_as_the_lists_did(tmp_path):
    """A file's texts are held as Arrow strings; a part, one text, a sample and the rows
    selected read as the Python lists did."""
    path = tmp_path / "data.csv"
    path.write_text('text,label\n"Hi, you",a\nsecond,b\n"third ’one’",a\n', encoding="utf-8")
    inputs, _ = load_inputs(str(path), role="train")
    assert inputs.texts == ["Hi, you", "second", "third ’one’"]
    assert inputs.text("text", 2) == "third ’one’" and inputs.head("text", 2) == inputs.texts[:2]
    picked = inputs.select([2, 0])
    assert picked.texts == ["third ’one’", "Hi, you"] and picked.ranks.tolist() == [0, 0]
    assert [texts.to_pylist() for _, texts in inputs.text_slices("text", 2)] == [
        ["Hi, you", "second"],
        ["third ’one’"],
    ]
