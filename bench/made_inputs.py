"""Inputs the bench scripts make for themselves, in the git-ignored ``bench/out/``.

A bench that reads a benchmark or a run folder takes a path, or the name of one of
:data:`MAKERS`, which it makes on first use from the data beside the checkout (or the generated
review corpus where that is absent). So a stored command names no folder of the machine that first
ran it, and any clone reruns it (``python tools/bench_table.py --rerun NAME``).

    single-term     a `shortcutlab build maze --shortcut single-term` of the Maze data
    goemotions-45   `shortcutlab run bench/goemotions-45.yaml`: 45 cells, 45 builds and fits
    synthetic-1000  bench/synthetic_store.py's 1,000-cell run folder (synthetic predictions)
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import yaml
from shared_data import shared_file

OUT = Path(__file__).resolve().parent / "out"
SPEC_45 = Path(__file__).resolve().parent / "goemotions-45.yaml"


def maze_data() -> tuple[Path, Path, str]:
    """The GoEmotions Maze train and test files beside the checkout ($SHORTCUTLAB_GOEMOTIONS), or
    the generated review corpus, written once into bench/out/corpus; and the data's name."""
    train = shared_file("SHORTCUTLAB_GOEMOTIONS", "goemotions-maze", "train.csv")
    if train.is_file():
        return train, train.with_name("test.csv"), "goemotions"
    corpus = made("corpus", _write_corpus)
    return corpus / "train.csv", corpus / "test.csv", "reviews"


def _write_corpus(folder: Path) -> None:
    from shortcutlab.corpus import generate_corpus

    folder.mkdir(parents=True)
    for name, frame in generate_corpus(train_size=2000, test_size=1000, seed=0).items():
        frame[["text", "label"]].to_csv(folder / f"{name}.csv", index=False)


def _single_term_build(folder: Path) -> None:
    train, test, _ = maze_data()
    shortcutlab("build", "maze", "--train", train, "--test", test, "--shortcut", "single-term",
                "--out", folder)  # fmt: skip


def _goemotions_45_run(folder: Path) -> None:
    """The spec with its data where this checkout finds it (see :func:`maze_data`)."""
    spec = yaml.safe_load(SPEC_45.read_text(encoding="utf-8"))
    train, test, name = maze_data()
    spec["data"] = dict(spec["data"], name=name, train=str(train), test=str(test))
    located = OUT / SPEC_45.name
    located.write_text(yaml.safe_dump(spec, sort_keys=False), encoding="utf-8")
    shortcutlab("run", located, "--out", folder, "--jobs", "1")


def _synthetic_run(folder: Path) -> None:
    from synthetic_store import write_synthetic_run

    write_synthetic_run(folder)


MAKERS: dict[str, Callable[[Path], None]] = {
    "single-term": _single_term_build,
    "goemotions-45": _goemotions_45_run,
    "synthetic-1000": _synthetic_run,
}


def made(name: str, make: Callable[[Path], None]) -> Path:
    """``bench/out/NAME``, made by ``make`` the first time (and again where a making broke off)."""
    folder, done = OUT / name, OUT / f"{name}.done"
    if folder.exists() and done.exists():
        return folder
    shutil.rmtree(folder, ignore_errors=True)
    OUT.mkdir(parents=True, exist_ok=True)
    print(f"making {folder} (once; later runs reuse it)", flush=True)
    make(folder)
    done.touch()
    return folder


def input_folder(value: str) -> Path:
    """A bench's input argument: an existing folder, or the name of one of :data:`MAKERS`."""
    if Path(value).exists():
        return Path(value)
    if value in MAKERS:
        return made(value, MAKERS[value])
    raise argparse.ArgumentTypeError(
        f"{value!r} is no folder here, nor one the bench makes ({', '.join(MAKERS)})"
    )


def shortcutlab(*args: object) -> None:
    """Run a shortcutlab command of this checkout; a failure stops the bench."""
    subprocess.run([sys.executable, "-m", "shortcutlab", *map(str, args)], check=True)
