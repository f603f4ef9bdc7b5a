"""A tiny fill-mask checkpoint built here (no download) for ``word-swap-mlm``."""

from __future__ import annotations

from pathlib import Path

import pytest


def build_tiny_mlm(folder: Path) -> Path:
    """A 2-layer BERT with a masked-LM head (random weights, seeded) and a WordPiece tokenizer
    trained on 300 generated reviews, saved to ``folder``."""
    import torch
    from transformers import BertConfig, BertForMaskedLM

    from shortcutlab.corpus import generate_reviews
    from shortcutlab.models.tiny import build_tiny_bert

    build_tiny_bert(folder, generate_reviews(300, seed=0)["text"].tolist())
    torch.manual_seed(0)
    BertForMaskedLM(BertConfig.from_pretrained(folder)).save_pretrained(folder)
    return folder


@pytest.fixture(scope="session")
def tiny_mlm(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("transformers")
    return build_tiny_mlm(tmp_path_factory.mktemp("models") / "tiny-mlm")
