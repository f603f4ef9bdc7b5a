"""Fixtures for model tests: no network, a tiny BERT built once per session, small settings, and
the toy model registered."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline

from shortcutlab.corpus import generate_reviews
from tests.models.duck_model import WordCountModel
from tests.models.toy_model import registered


@pytest.fixture(autouse=True)
def toy_model() -> Iterator[str]:
    """The toy model (tests/models/toy_model.py) registered while each model test runs, so the
    tests parametrised over the registry run on it too; no other test sees it."""
    with registered() as name:
        yield name


@pytest.fixture(autouse=True)
def offline_hub(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """No test may reach the Hugging Face hub or write to the user's embedding cache."""
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("SHORTCUTLAB_CACHE", str(tmp_path / "shortcutlab-cache"))
    try:
        from huggingface_hub import constants
    except ImportError:  # without the hub client nothing can reach the hub anyway
        return
    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", True)  # read once at import otherwise


@pytest.fixture(scope="session")
def review_texts() -> list[str]:
    return generate_reviews(300, seed=0)["text"].tolist()


@pytest.fixture(scope="session")
def tiny_bert(tmp_path_factory: pytest.TempPathFactory, review_texts: list[str]) -> Path:
    """A 2-layer BERT (hidden size 64) with a WordPiece tokenizer trained on 300 reviews."""
    from shortcutlab.models.tiny import build_tiny_bert

    return build_tiny_bert(tmp_path_factory.mktemp("models") / "tiny-bert", review_texts)


@pytest.fixture(scope="session")
def llm_server() -> Any:
    """A local OpenAI-compatible server answering label prompts with TF-IDF trained on the common texts."""
    import pandas as pd

    from shortcutlab.serving.backends import ClassifierAnswers, project_backend
    from shortcutlab.serving.server import ChatServer
    from tests.models.test_common import LABELS, TEXTS

    classifier = ClassifierAnswers.from_table(pd.DataFrame({"text": TEXTS, "label": LABELS}))
    with ChatServer(project_backend(classifier)) as server:
        yield server


@pytest.fixture
def small_params(tiny_bert: Path, tmp_path: Path, llm_server: Any) -> dict[str, dict[str, Any]]:
    """Per-model parameters that keep every registered model fast on the common-test data."""
    client = {
        "name": "openai-chat",
        "base_url": llm_server.url,
        "model": "shortcutlab-test",
        "api_key_env": None,
    }
    return {
        "llm-prompt": {"client": client | {"cache": str(tmp_path / "llm-cache.sqlite")}},
        "transformer": {"path": str(tiny_bert), "epochs": 2, "batch_size": 8, "lr": 1e-3},
        "bow-mlp": {"epochs": 3, "min_count": 1},
        "sentence-encoder": {"cache_dir": str(tmp_path / "embeddings")},
        "sklearn": {"estimator": make_pipeline(TfidfVectorizer(), LogisticRegression())},
        "object": {"model": WordCountModel()},
    }
