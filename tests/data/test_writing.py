import pandas as pd
import pytest

from shortcutlab.data import atomic_output_dir, load_table, write_table
from shortcutlab.errors import OutputExistsError

FRAME = pd.DataFrame(
    {
        "row_id": [0, 1],
        "text": ['Caf\u00e9, "quoted"\nline', "plain"],
        "label": [0.4, 1.0],
        "shortcut": ["", "honestly"],
    }
)


@pytest.mark.parametrize("fmt", ["csv", "jsonl", "parquet"])
def test_round_trip_and_identical_bytes(tmp_path, fmt):
    first = write_table(FRAME, tmp_path / f"a.{fmt}", fmt)
    second = write_table(FRAME, tmp_path / f"b.{fmt}", fmt)
    assert first.read_bytes() == second.read_bytes()
    loaded = load_table(first).frame
    assert loaded["text"].tolist() == FRAME["text"].tolist()
    assert loaded["label"].tolist() == [0.4, 1.0]
    assert loaded["shortcut"].tolist() == ["", "honestly"]


def test_atomic_dir_leaves_nothing_on_failure(tmp_path):
    out = tmp_path / "out"
    with pytest.raises(RuntimeError):
        with atomic_output_dir(out) as tmp:
            (tmp / "half.csv").write_text("x")
            raise RuntimeError("boom")
    assert not out.exists()
    assert list(tmp_path.iterdir()) == []


def test_atomic_dir_refuses_non_empty_unless_overwrite(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "keep.txt").write_text("precious")
    with pytest.raises(
        OutputExistsError,
        match=r"is not empty\. Choose another out=\.\.\. or pass overwrite=True\.$",
    ):
        with atomic_output_dir(out):
            pass
    assert (out / "keep.txt").read_text() == "precious"
    with atomic_output_dir(out, overwrite=True) as tmp:
        (tmp / "new.txt").write_text("new")
    assert sorted(p.name for p in out.iterdir()) == ["new.txt"]
    assert [p.name for p in tmp_path.iterdir()] == ["out"]


def test_empty_existing_folder_is_fine(tmp_path):
    (tmp_path / "out").mkdir()
    with atomic_output_dir(tmp_path / "out") as tmp:
        (tmp / "a").write_text("a")
    assert (tmp_path / "out" / "a").exists()


def test_overwrite_refuses_a_folder_holding_an_input_of_the_block(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "train.csv").write_text("text,label\n")
    with pytest.raises(OutputExistsError, match="holds the input .*train.csv"):
        with atomic_output_dir(out, overwrite=True, inputs=[out / "train.csv"]):
            raise AssertionError("the block must not run")
    assert (out / "train.csv").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]


def test_the_builders_refuse_an_out_holding_their_input_files(tmp_path, tiny_frame):
    from shortcutlab.data.options import InputOptions
    from shortcutlab.families.maze.build import build_maze_benchmark

    tiny_frame.to_csv(tmp_path / "train.csv", index=False)
    with pytest.raises(OutputExistsError, match="holds the input"):
        build_maze_benchmark(
            str(tmp_path / "train.csv"),
            str(tmp_path / "train.csv"),
            shortcut="single-term",
            inputs=InputOptions(out=tmp_path, overwrite=True),
        )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["train.csv"]
