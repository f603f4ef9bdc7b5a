"""A bag-of-words neural baseline trained from scratch: mean of word (and bigram) embeddings -> MLP.

It sits between TF-IDF (no training dynamics) and pretrained transformers (prior knowledge): a
model that learns its own features from the benchmark only.

Pairs (first, second): each part is its own bag, u and v, over ONE vocabulary and embedding table
built from both parts, and the MLP reads [u, v, |u - v|, u * v] (InferSent, Conneau et al., 2017).
The parts stay apart (u and v fill different input slots, so "not" in x2 weighs differently from
"not" in x1), while a word shared by both parts has one embedding: separate vocabularies would
put u and v in unrelated spaces where |u - v| and u * v cannot show that x2 repeats x1.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from shortcutlab.data.pairs import TextInput, is_paired, split_inputs
from shortcutlab.models.base import (
    TextClassifier,
    check_fitted_kind,
    check_sample_weight,
    check_training_data,
    expand_columns,
    expand_last_layer,
    no_words,
)
from shortcutlab.models.objectives import objective_loss, training_objective
from shortcutlab.models.torch_utils import check_seed, checked_validation, class_targets, seeded
from shortcutlab.params import (
    check_bool,
    check_non_negative_float,
    check_positive_float,
    check_positive_int,
)
from shortcutlab.torch_runtime import resolve_device

_TOKEN = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")
_POSITIVE_INTEGERS = (
    "max_vocab",
    "min_count",
    "embedding_dim",
    "hidden_dim",
    "epochs",
    "batch_size",
    "patience",
)
_PREDICT_BATCH = 1024  # an EmbeddingBag forward is cheap; big batches only save Python overhead


def tokenize(text: str, bigrams: bool) -> list[str]:
    """Lowercased word tokens, plus "w1 w2" bigrams when asked.

    Examples:
        >>> tokenize("Don't buy it!", bigrams=True)
        ["don't", 'buy', 'it', "don't buy", 'buy it']
    """
    words = _TOKEN.findall(text.lower())
    if bigrams:
        words += [f"{a} {b}" for a, b in zip(words, words[1:], strict=False)]
    return words


def build_vocabulary(
    documents: Sequence[list[str]], min_count: int, max_size: int
) -> dict[str, int]:
    """Map the ``max_size`` most frequent tokens seen ``min_count`` times or more to 0..n-1.

    Ties are broken alphabetically, so the vocabulary does not depend on dict ordering.
    """
    counts = Counter(token for tokens in documents for token in tokens)
    kept = sorted((t for t, c in counts.items() if c >= min_count), key=lambda t: (-counts[t], t))
    return {token: index for index, token in enumerate(kept[:max_size])}


class BowMlp(TextClassifier):
    """``EmbeddingBag`` (mean) over a vocabulary from the training split, one hidden layer, logits.

    With a validation split, keeps the epoch with the lowest validation loss and stops after
    ``patience`` epochs without improvement; without one, keeps the last epoch.

    Args:
        max_vocab: The most frequent tokens kept in the vocabulary, at most.
        min_count: Tokens seen fewer times in training are left out.
        bigrams: Whether word bigrams join the single-word tokens.
        embedding_dim: Size of each token embedding.
        hidden_dim: Width of the hidden (ReLU) layer.
        epochs: Training epochs, at most.
        lr: AdamW learning rate.
        batch_size: Training rows per batch.
        weight_decay: AdamW weight decay.
        patience: Epochs without a better validation loss before stopping.
        device: Torch device: auto, cpu, cuda, cuda:N or mps.
        seed: Random seed of the initial weights and batch order.
    """

    name = "bow-mlp"

    def __init__(
        self,
        max_vocab: int = 20000,
        min_count: int = 2,
        bigrams: bool = True,
        embedding_dim: int = 64,
        hidden_dim: int = 64,
        epochs: int = 10,
        lr: float = 1e-3,
        batch_size: int = 64,
        weight_decay: float = 0.0,
        patience: int = 2,
        device: str = "auto",
        seed: int = 0,
    ) -> None:
        self.max_vocab = max_vocab
        self.min_count = min_count
        self.bigrams = bigrams
        self.embedding_dim = embedding_dim
        self.hidden_dim = hidden_dim
        self.epochs = epochs
        self.lr = lr
        self.batch_size = batch_size
        self.weight_decay = weight_decay
        self.patience = patience
        self.device = device
        self.seed = seed

    def check(self, n_classes: int | None = None) -> None:
        for parameter in _POSITIVE_INTEGERS:
            check_positive_int(self.name, parameter, getattr(self, parameter))
        check_bool(self.name, "bigrams", self.bigrams)
        check_positive_float(self.name, "lr", self.lr)
        check_non_negative_float(self.name, "weight_decay", self.weight_decay)
        check_seed(self.name, self.seed)
        resolve_device(self.device, self.name)

    def fit(self, texts, labels, *, n_classes, validation=None, sample_weight=None):  # type: ignore[no-untyped-def]
        import torch

        labels = check_training_data(texts, labels, n_classes)
        self.check(n_classes)
        weights = check_sample_weight(self, sample_weight, len(labels))
        objective = training_objective(self.objective(), weights)
        validation = checked_validation(validation, n_classes)
        device = resolve_device(self.device, self.name)
        self.n_classes_ = n_classes
        self.classes_ = np.unique(labels)
        self.paired_ = is_paired(texts)
        firsts, seconds = split_inputs(texts)
        self.vocabulary_ = build_vocabulary(
            [tokenize(t, self.bigrams) for t in firsts + (seconds or [])],
            self.min_count,
            self.max_vocab,
        )
        if not self.vocabulary_:  # an empty bag for every row: nothing to learn from
            seen = f"seen {self.min_count} times or more" if self.min_count > 1 else "seen once"
            raise no_words(self.name, f"a word of letters a-z or digits, {seen}")
        train = self._encode(texts), class_targets(labels, self.classes_)[0]
        if validation is not None:
            positions, known = class_targets(validation[1], self.classes_)
            encoded = self._encode(validation[0])
            validation = [encoded[i] for i in np.flatnonzero(known)], positions[known]
        with seeded(self.seed, device):
            self.network_ = self._network().to(device)
            self.history_ = self._train(
                train, validation, device, torch.Generator().manual_seed(self.seed), objective
            )
        self.network_.to("cpu")
        return self

    def predict_proba(self, texts: Sequence[TextInput]) -> np.ndarray:
        import torch

        probabilities = self._map_batches(
            texts,
            lambda network, ids, offsets: torch.softmax(network(ids, offsets).float(), dim=-1),
            len(self.classes_),
        )
        return expand_columns(probabilities.astype(np.float64), self.classes_, self.n_classes_)

    def features(self, inputs: Sequence[TextInput]) -> np.ndarray:
        """The output layer's input: the hidden layer's ReLU activation, float32 (n, hidden_dim)."""
        return self._map_batches(
            inputs,
            lambda network, ids, offsets: network.hidden(ids, offsets).float(),
            self.network_.mlp[-1].in_features,
        )

    def last_layer(self) -> tuple[np.ndarray, np.ndarray]:
        """(W, b) with softmax(features(x) @ W.T + b) == predict_proba(x) (models/base.py
        :class:`~shortcutlab.models.base.LastLayerModel`)."""
        output = self.network_.mlp[-1]
        return expand_last_layer(
            output.weight.detach().cpu().double().numpy(),
            output.bias.detach().cpu().double().numpy(),
            self.classes_,
            self.n_classes_,
        )

    def _map_batches(
        self, inputs: Sequence[TextInput], read: Callable[..., Any], width: int
    ) -> np.ndarray:
        """Stack ``read(network, ids, offsets)`` over batches of ``inputs`` (eval mode, no grad)."""
        import torch

        check_fitted_kind(self.name, self.paired_, inputs)
        device = resolve_device(self.device, self.name)
        encoded = self._encode(inputs)
        # Called after fit (weights on the CPU) or from an end-of-epoch callback (weights on the
        # training device, in train mode): leave the network as it was found.
        home, training = next(self.network_.parameters()).device, self.network_.training
        network = self.network_.to(device).eval()
        chunks = []
        with torch.inference_mode():
            for start in range(0, len(encoded), _PREDICT_BATCH):
                ids, offsets = _bags(encoded[start : start + _PREDICT_BATCH], device)
                chunks.append(read(network, ids, offsets).cpu().numpy())
        self.network_.to(home).train(training)
        return np.concatenate(chunks) if chunks else np.zeros((0, width), dtype=np.float32)

    def _encode(self, inputs: Sequence[TextInput]) -> list[Any]:
        """Token id arrays, one per text, or a pair of them per pair."""
        firsts, seconds = split_inputs(inputs)
        encoded = [self._token_ids(text) for text in firsts]
        if seconds is None:
            return encoded
        return list(zip(encoded, [self._token_ids(text) for text in seconds], strict=True))

    def _token_ids(self, text: str) -> np.ndarray:
        vocabulary = self.vocabulary_
        return np.fromiter(
            (vocabulary[t] for t in tokenize(text, self.bigrams) if t in vocabulary),
            dtype=np.int64,
        )

    def _network(self) -> Any:
        from shortcutlab.models.bow_network import BagOfWordsNetwork

        return BagOfWordsNetwork(
            len(self.vocabulary_),
            self.embedding_dim,
            self.hidden_dim,
            len(self.classes_),
            paired=self.paired_,
        )

    def _train(
        self, train: Any, validation: Any, device: str, generator: Any, objective: Any
    ) -> list[dict]:
        import torch

        (encoded, targets), network = train, self.network_
        targets = torch.as_tensor(targets, dtype=torch.long)
        optimizer = torch.optim.AdamW(
            network.parameters(), lr=self.lr, weight_decay=self.weight_decay
        )
        history: list[dict] = []
        best_loss, best_state, stale = float("inf"), None, 0
        if objective is not None:
            objective.start(network, len(encoded))
        for epoch in range(1, self.epochs + 1):
            network.train()
            order = torch.randperm(len(encoded), generator=generator).tolist()
            total = torch.zeros((), device=device)
            for start in range(0, len(order), self.batch_size):
                rows = order[start : start + self.batch_size]
                ids, offsets = _bags([encoded[i] for i in rows], device)
                logits = network(ids, offsets)
                loss = objective_loss(
                    objective,
                    logits,
                    targets[rows].to(device),
                    torch.as_tensor(rows, device=device),
                    model=network,
                    inputs={"ids": ids, "offsets": offsets},
                    outputs=logits,
                )
                optimizer.zero_grad(set_to_none=True)
                loss.backward()
                optimizer.step()
                total += loss.detach() * len(rows)
            record = {"epoch": epoch, "train_loss": float(total) / len(encoded)}
            if validation is not None and len(validation[1]):
                record["val_loss"] = _loss(network, validation, device)
                if record["val_loss"] < best_loss:
                    best_loss, stale = record["val_loss"], 0
                    best_state = {k: v.detach().clone() for k, v in network.state_dict().items()}
                else:
                    stale += 1
            history.append(record)
            self.end_of_epoch(epoch)
            if stale >= self.patience:
                break
        self.best_epoch_ = history[-1]["epoch"]
        if best_state is not None:
            network.load_state_dict(best_state)
            self.best_epoch_ = min(history, key=lambda record: record["val_loss"])["epoch"]
        return history


def _bags(rows: Sequence[Any], device: str) -> tuple[Any, Any]:
    """Flat token ids and start offsets, the input format of ``EmbeddingBag``; for pairs, the
    first parts' bags, then the second parts' (the network splits them in half)."""
    import torch

    if rows and isinstance(rows[0], tuple):
        rows = [first for first, _ in rows] + [second for _, second in rows]

    lengths = np.fromiter((len(r) for r in rows), dtype=np.int64, count=len(rows))
    offsets = np.concatenate([[0], np.cumsum(lengths)[:-1]])
    ids = np.concatenate(rows) if len(rows) else np.zeros(0, dtype=np.int64)
    return torch.from_numpy(ids).to(device), torch.from_numpy(offsets).to(device)


def _loss(network: Any, data: tuple[list[Any], np.ndarray], device: str) -> float:
    import torch
    import torch.nn.functional as F

    encoded, targets = data
    network.eval()
    total = 0.0
    with torch.inference_mode():
        for start in range(0, len(encoded), _PREDICT_BATCH):
            ids, offsets = _bags(encoded[start : start + _PREDICT_BATCH], device)
            logits = network(ids, offsets).float()
            batch_targets = torch.as_tensor(targets[start : start + _PREDICT_BATCH], device=device)
            total += float(F.cross_entropy(logits, batch_targets, reduction="sum"))
    return total / len(encoded)
