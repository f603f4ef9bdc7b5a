"""Shared fixtures: small generated data, written to temporary files when a test needs paths."""

from __future__ import annotations

import json
import os
import shutil
import traceback
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest
from filelock import FileLock
from hypothesis import HealthCheck, settings

from shortcutlab.attributes import Annotation, Attribute
from shortcutlab.corpus import generate_corpus
from shortcutlab.errors import DataError

# Property tests: a fixed seed in CI (CI=true), fresh examples elsewhere; HYPOTHESIS_PROFILE=thorough
# tries ten times as many. No example database: nothing is written into the checkout.
_PROPERTY = dict(deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("ci", max_examples=400, derandomize=True, **_PROPERTY)
settings.register_profile("dev", max_examples=400, **_PROPERTY)
settings.register_profile("thorough", max_examples=4000, **_PROPERTY)
settings.load_profile(
    "ci"
    if os.environ.get("CI", "").lower() in ("1", "true")
    else os.environ.get("HYPOTHESIS_PROFILE", "dev")
)

# The Shortcut Maze GoEmotions release, when present (users do not have it; those tests skip).
GOEMOTIONS = Path(
    os.environ.get(
        "SHORTCUTLAB_GOEMOTIONS",
        Path(__file__).resolve().parents[2] / "shared" / "data" / "goemotions-maze",
    )
)

# The Rotten Tomatoes sentence polarity data (one of the MPS paper's data sets), when present.
ROTTEN_TOMATOES = Path(
    os.environ.get(
        "SHORTCUTLAB_ROTTEN_TOMATOES",
        Path(__file__).resolve().parents[2] / "shared" / "data" / "rotten-tomatoes",
    )
)

# The MultiNLI development set, matched genres (the Shortcut Suite's Standard source, CAT's NLI data).
MNLI = (
    Path(
        os.environ.get(
            "SHORTCUTLAB_MNLI",
            Path(__file__).resolve().parents[2] / "shared" / "data" / "mnli-dev-matched",
        )
    )
    / "dev_matched.tsv"
)


@pytest.fixture
def offline(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """No test writes to the user's caches (LLM answers, embeddings), reaches the Hugging Face hub
    or goes through a proxy to the local LLM server."""
    monkeypatch.setenv("SHORTCUTLAB_CACHE", str(tmp_path / "shortcutlab-cache"))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    for name in ("NO_PROXY", "no_proxy"):  # httpx honours proxy variables; the server is local
        monkeypatch.setenv(name, "127.0.0.1,localhost")


@pytest.fixture(scope="session")
def corpus() -> dict[str, pd.DataFrame]:
    """A small review corpus (5 levels, distractor columns) shared by many tests."""
    return generate_corpus(train_size=600, test_size=400, seed=7)


@dataclass(frozen=True)
class Printed:
    """What a CLI command printed and how it ended (a ``click`` ``Result``'s fields that tests read)."""

    exit_code: int
    stdout: str
    stderr: str
    output: str


def once_per_run(factory: pytest.TempPathFactory, name: str, make: Callable[[Path], None]) -> Path:
    """The folder ``name``, filled by ``make(folder)`` once per test run: the xdist workers share
    it (the first fills it under a lock, the others wait, then read it: pytest-xdist's documented
    way to share a session fixture). Tests only read it."""
    root = factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        root = root.parent  # the run's folder, above each worker's own
    folder = root / name
    with FileLock(root / f"{name}.lock"):
        if not (root / f"{name}.done").exists():
            shutil.rmtree(folder, ignore_errors=True)
            folder.mkdir()
            make(folder)
            (root / f"{name}.done").touch()
    return folder


@pytest.fixture(scope="session")
def quick_demo(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Printed]:
    """``shortcutlab demo`` on 300/200 rows, one seed, one job: the folder and what the command
    printed, run once per test run for the tests that only read what it printed and wrote."""

    def run(folder: Path) -> None:
        from tests.cli.refusals import invoke

        arguments = ("--train-size", 300, "--test-size", 200, "--seeds", 1, "--jobs", 1)
        ran = invoke("demo", "--out", folder / "demo", *arguments)
        output = ran.output
        if ran.exc_info is not None and not isinstance(ran.exception, SystemExit):
            output += "".join(traceback.format_exception(*ran.exc_info))  # for the failure message
        printed = Printed(ran.exit_code, ran.stdout, ran.stderr, output)
        (folder / "printed.json").write_text(json.dumps(asdict(printed)), encoding="utf-8")

    folder = once_per_run(tmp_path_factory, "quick-demo", run)
    printed = json.loads((folder / "printed.json").read_text(encoding="utf-8"))
    return folder / "demo", Printed(**printed)


@pytest.fixture
def corpus_files(tmp_path: Path, corpus: dict[str, pd.DataFrame]) -> dict[str, Path]:
    paths = {}
    for name, frame in corpus.items():
        paths[name] = tmp_path / f"{name}.csv"
        frame.to_csv(paths[name], index=False)
    return paths


@pytest.fixture
def tiny_frame() -> pd.DataFrame:
    """Three labels with obviously different words; 30 rows each."""
    rows = []
    for i in range(30):
        rows.append({"text": f"Awful thing number {i}. It broke.", "label": 0})
        rows.append({"text": f"Okay thing number {i}. It works.", "label": 1})
        rows.append({"text": f"Great thing number {i}! Love it.", "label": 2})
    return pd.DataFrame(rows)


def other_items(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame``'s rows about items instead of things: the same labels and words otherwise, and
    no row of ``frame``, for a test table (builds refuse one whose rows are all training rows)."""
    return frame.assign(text=frame["text"].str.replace("thing", "item"))


@pytest.fixture
def tiny_test_frame(tiny_frame: pd.DataFrame) -> pd.DataFrame:
    """A test table for :func:`tiny_frame`: the same 90 rows, about items."""
    return other_items(tiny_frame)


def folder_bytes(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` by relative path, for byte-identity checks."""
    return {
        str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
    }


def tree_state(root: Path) -> dict[str, bytes | None]:
    """Every file's bytes and every folder (as None) under ``root``: what "nothing written" compares."""
    return {
        str(path.relative_to(root)): None if path.is_dir() else path.read_bytes()
        for path in sorted(root.rglob("*"))
    }


# Rows per (negated, label) of a three-label pool: negation leans to "a", its absence to "b", "c".
THREE = {
    (True, "a"): 120,
    (True, "b"): 40,
    (True, "c"): 50,
    (False, "a"): 150,
    (False, "b"): 300,
    (False, "c"): 250,
}


def negation_rows(cells: Mapping[tuple[bool, Any], int], *, seed: int = 0) -> pd.DataFrame:
    """Distinct texts with (``True``) or without a negation, ``n`` rows per (negated, label) cell,
    in a seeded shuffled order."""
    rows = []
    for (negated, label), count in cells.items():
        for _ in range(count):
            opening = "I did not like" if negated else "I liked"
            rows.append({"text": f"{opening} film number {len(rows)} .", "label": label})
    return pd.DataFrame(rows).sample(frac=1, random_state=seed).reset_index(drop=True)


class Topic(Attribute):
    """A stand-in for the ``column`` attribute: values from the input's ``topic`` column."""

    name = "topic"
    needs_columns = ("topic",)

    def annotate(self, texts, columns=None):
        if columns is None or "topic" not in columns:
            found = ", ".join(columns or [])
            raise DataError(f"Column 'topic' not found. Columns found: {found}.")
        values = [None if v in (None, "") else str(v) for v in columns["topic"]]
        return Annotation(np.array(values, dtype=object))

    def config(self):
        return {"name": self.name}


from tests.browser import _session_browser, browser  # noqa: E402, F401  (browser fixtures)


def pytest_configure(config: pytest.Config) -> None:
    from tests.parallel import share_threads

    share_threads()


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """Test modules whole to one worker each, the browser modules together (tests/parallel.py),
    unless ``--dist`` names another mode than the default."""
    if config.getvalue("dist") != "load":
        return None
    from tests.parallel import ModuleScheduling

    return ModuleScheduling(config, log)
