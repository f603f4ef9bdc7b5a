"""Fine-tuning any Hugging Face ``AutoModelForSequenceClassification`` checkpoint (BERT, RoBERTa, ...).

The loop itself lives in ``transformer_training``; this module resolves and checks the parameters,
loads the checkpoint and tokenizer, and maps the benchmark's label ranks onto the model's logits.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from shortcutlab.data.pairs import TextInput, is_paired, split_inputs
from shortcutlab.errors import ConfigError
from shortcutlab.models.base import (
    TextClassifier,
    check_fitted_kind,
    check_sample_weight,
    check_training_data,
    expand_columns,
    expand_last_layer,
)
from shortcutlab.models.hf_loading import ModelSource, model_source
from shortcutlab.models.objectives import training_objective
from shortcutlab.models.text_view import TextView, tokenizer_view
from shortcutlab.models.torch_utils import check_seed, checked_validation, class_targets, seeded
from shortcutlab.params import (
    check_bool,
    check_fraction,
    check_non_negative_float,
    check_one_of,
    check_positive_float,
    check_positive_int,
    quoted,
)
from shortcutlab.torch_runtime import resolve_device, resolve_precision


class TransformerClassifier(TextClassifier):
    """Fine-tunes ``path`` (a local folder or a hub name) with AdamW and a linear schedule.

    ``select_by="val_loss"`` keeps the epoch with the lowest validation loss, as the Shortcut Maze
    code does; ``"last"`` (or no validation split) keeps the last epoch. ``history_`` records the
    per-epoch train and validation losses, ``best_epoch_`` the epoch kept.

    ``lora`` (e.g. ``{"r": 8, "alpha": 16, "dropout": 0.05}``) trains low-rank adapters and the
    classification head instead of every weight: how the paper fine-tunes Llama models (A.3.2, which
    uses QLoRA; 4-bit quantisation needs a GPU and bitsandbytes and is not applied here).

    Args:
        path: The checkpoint: a save_pretrained folder or a hub name (required).
        epochs: Training epochs.
        lr: AdamW peak learning rate.
        batch_size: Training rows per batch.
        eval_batch_size: Rows per batch when predicting.
        weight_decay: AdamW weight decay.
        max_length: Tokens kept per input (capped by the tokenizer's limit).
        warmup_ratio: Fraction of the steps spent warming the learning rate up.
        grad_accum: Batches whose gradients add up to one optimizer step.
        select_by: Epoch kept: val_loss (lowest validation loss) or last.
        precision: auto, fp32, bf16 or fp16 (half precisions need CUDA).
        device: Torch device: auto, cpu, cuda, cuda:N or mps.
        reinit_head: Whether a checkpoint's classification head is replaced by a new one.
        lora: LoRA adapters, e.g. {r: 8, alpha: 16, dropout: 0.05} (default: train every weight).
        seed: Random seed of the new weights, dropout and batch order.
    """

    name = "transformer"

    def __init__(
        self,
        path: str | None = None,
        epochs: int = 3,
        lr: float = 2e-5,
        batch_size: int = 16,
        eval_batch_size: int = 64,
        weight_decay: float = 0.01,
        max_length: int = 128,
        warmup_ratio: float = 0.0,
        grad_accum: int = 1,
        select_by: str = "val_loss",
        precision: str = "auto",
        device: str = "auto",
        reinit_head: bool = False,
        lora: dict[str, Any] | None = None,
        seed: int = 0,
    ) -> None:
        self.path = path
        self.epochs = epochs
        self.lr = lr
        self.batch_size = batch_size
        self.eval_batch_size = eval_batch_size
        self.weight_decay = weight_decay
        self.max_length = max_length
        self.warmup_ratio = warmup_ratio
        self.grad_accum = grad_accum
        self.select_by = select_by
        self.precision = precision
        self.device = device
        self.reinit_head = reinit_head
        self.lora = lora
        self.seed = seed

    def check(self, n_classes: int | None = None) -> None:
        """Check every parameter, that ``path`` loads, and that its head fits ``n_classes``."""
        for parameter in ("epochs", "batch_size", "eval_batch_size", "max_length", "grad_accum"):
            check_positive_int(self.name, parameter, getattr(self, parameter))
        check_positive_float(self.name, "lr", self.lr)
        check_non_negative_float(self.name, "weight_decay", self.weight_decay)
        check_fraction(self.name, "warmup_ratio", self.warmup_ratio)
        check_one_of(self.name, "select_by", self.select_by, ("val_loss", "last"))
        check_bool(self.name, "reinit_head", self.reinit_head)
        check_lora(self.lora)
        check_seed(self.name, self.seed)
        resolve_precision(self.precision, self.name, resolve_device(self.device, self.name))
        if self.path is None:
            raise ConfigError(
                "The transformer model needs a 'path' parameter: a folder written by "
                "save_pretrained or a Hugging Face hub name, e.g. -p path=bert-base-uncased."
            )
        self._check_head(self._source().load(_auto_config), n_classes)

    def fit(self, texts, labels, *, n_classes, validation=None, sample_weight=None):  # type: ignore[no-untyped-def]
        import torch

        from shortcutlab.models.transformer_training import Batches, LoopSettings, Padder, train

        labels = check_training_data(texts, labels, n_classes)
        self.check(n_classes)
        weights = check_sample_weight(self, sample_weight, len(labels))
        objective = training_objective(self.objective(), weights)
        validation = checked_validation(validation, n_classes)
        self.device_ = resolve_device(self.device, self.name)
        self.precision_ = resolve_precision(self.precision, self.name, self.device_)
        self.n_classes_, self.classes_ = n_classes, np.unique(labels)
        self.paired_ = is_paired(texts)
        source = self._source()
        self.tokenizer_ = source.load(_auto_tokenizer)
        pad_id = _pad_id(self.tokenizer_)
        self.padder_ = Padder(pad_id, self.tokenizer_.padding_side == "left", self.device_)
        train_split = Batches(self._tokenize(texts), class_targets(labels, self.classes_)[0])
        validation_split = None
        if validation is not None:
            positions, known = class_targets(validation[1], self.classes_)
            rows = self._tokenize([t for t, k in zip(validation[0], known, strict=True) if k])
            validation_split = Batches(rows, positions[known])
        settings = LoopSettings(
            **{name: getattr(self, name) for name in _LOOP_PARAMETERS},
            precision=self.precision_,
            device=self.device_,
        )
        with seeded(self.seed, self.device_):  # the new head's initialisation and dropout
            self.model_ = self._load_model(source, n_classes, pad_id).to(self.device_)
            self.history_, self.best_epoch_ = train(
                self.model_,
                train_split,
                validation_split,
                settings=settings,
                padder=self.padder_,
                columns=self._columns(),
                generator=torch.Generator().manual_seed(self.seed),
                end_of_epoch=self.end_of_epoch,
                objective=objective,
            )
        return self

    def predict_proba(self, texts: Sequence[TextInput]) -> np.ndarray:
        import torch

        from shortcutlab.models.transformer_training import predict_batches

        check_fitted_kind(self.name, self.paired_, texts)
        if len(texts) == 0:
            return np.zeros((0, self.n_classes_))
        rows = self._tokenize(texts)
        probabilities = np.zeros((len(rows), len(self.classes_)))
        batches = predict_batches(
            self.model_, rows, self.eval_batch_size, self.padder_, self.precision_, self._columns()
        )
        for batch, logits in batches:
            probabilities[batch] = torch.softmax(logits, dim=-1).double().cpu().numpy()
        return expand_columns(probabilities, self.classes_, self.n_classes_)

    def text_view(self, part: str = "text") -> TextView | None:
        """The tokenizer's view (both parts of a pair go through the same tokenizer)."""
        return tokenizer_view(self.tokenizer_)

    def features(self, inputs: Sequence[TextInput]) -> np.ndarray:
        """float32 (n, d): the input of the final classification ``Linear`` (BERT: the pooled
        [CLS] state), captured by a forward pre-hook (models/transformer_features.py)."""
        from shortcutlab.models.transformer_features import last_layer_input

        check_fitted_kind(self.name, self.paired_, inputs)
        rows = self._tokenize(inputs) if len(inputs) else []
        return last_layer_input(
            self.model_, rows, self.eval_batch_size, self.padder_, self.precision_
        )

    def last_layer(self) -> tuple[np.ndarray, np.ndarray]:
        """(W, b) with softmax(features(x) @ W.T + b) == predict_proba(x) (models/base.py
        :class:`~shortcutlab.models.base.LastLayerModel`); a layer without bias gets zeros."""
        from shortcutlab.models.transformer_features import classification_layer

        layer = classification_layer(self.model_)
        weights = layer.weight.detach().cpu().double().numpy()
        bias = np.zeros(len(weights))
        if layer.bias is not None:
            bias = layer.bias.detach().cpu().double().numpy()
        # The layer has a row per benchmark label; training and prediction read the seen ones.
        return expand_last_layer(
            weights[self.classes_], bias[self.classes_], self.classes_, self.n_classes_
        )

    def embed(self, inputs: Sequence[TextInput], pooling: str = "cls") -> np.ndarray:
        """float32 (n, hidden): the fine-tuned model's last-layer token states, the first real
        token's (``"cls"``) or their mean over real tokens (``"mean"``)."""
        from shortcutlab.models.transformer_features import pooled_states

        check_fitted_kind(self.name, self.paired_, inputs)
        rows = self._tokenize(inputs) if len(inputs) else []
        return pooled_states(
            self.model_, rows, self.eval_batch_size, self.padder_, self.precision_, pooling
        )

    def _source(self) -> ModelSource:
        return model_source(self.name, "path", self.path)

    def _check_head(self, config: Any, n_classes: int | None) -> None:
        if (
            _has_head(config)
            and n_classes is not None
            and config.num_labels != n_classes
            and not self.reinit_head
        ):
            raise ConfigError(
                f"The transformer checkpoint '{self.path}' has a {config.num_labels}-label "
                f"classification head but the data has {n_classes} labels. Pass reinit_head: "
                "true to train a new head, or use a base model."
            )

    def _load_model(self, source: ModelSource, n_classes: int, pad_id: int) -> Any:
        import torch
        from transformers import AutoModelForSequenceClassification

        config = source.load(_auto_config)
        had_head = _has_head(config)
        config.num_labels = n_classes
        if config.pad_token_id is None:  # decoder models find each row's last token by its padding
            config.pad_token_id = pad_id
        model = source.load(
            AutoModelForSequenceClassification.from_pretrained,
            config=config,
            ignore_mismatched_sizes=self.reinit_head,
            dtype=torch.float32,  # master weights stay fp32; autocast handles mixed precision
        )
        if self.reinit_head and had_head:
            _reinit_head(model)
        if self.lora is not None:
            model = with_lora(model, self.lora)
        model.config.use_cache = False  # no key/value cache to build when classifying
        return model

    def _tokenize(self, texts: Sequence[TextInput]) -> list[Any]:
        """Token id lists; for pairs, the tokenizer's pair encoding ([CLS] x1 [SEP] x2 [SEP] for
        BERT) as :class:`PairRow` with segment ids where the model reads them."""
        from shortcutlab.models.transformer_training import PairRow

        firsts, seconds = split_inputs(texts)
        segments = seconds is not None and "token_type_ids" in self.tokenizer_.model_input_names
        encoded = self.tokenizer_(
            firsts,
            seconds,
            # longest_first: trim the longer part first, so neither part is dropped whole
            truncation=True,
            # a checkpoint has no position embeddings beyond its own limit
            max_length=min(self.max_length, self.tokenizer_.model_max_length),
            return_attention_mask=False,
            return_token_type_ids=segments,
        )
        # A tokenizer without special tokens turns "" into no tokens; the model needs one.
        rows = [row or [self.padder_.pad_id] for row in encoded["input_ids"]]
        if not segments:
            return rows
        types = encoded["token_type_ids"]
        return [PairRow(ids, kinds or [0]) for ids, kinds in zip(rows, types, strict=True)]

    def _columns(self) -> Any:
        """The logit columns of the labels seen in training (None when every label was seen)."""
        import torch

        if len(self.classes_) == self.n_classes_:
            return None
        return torch.as_tensor(self.classes_, device=self.device_)


_LOOP_PARAMETERS = (
    "epochs",
    "lr",
    "batch_size",
    "eval_batch_size",
    "weight_decay",
    "warmup_ratio",
    "grad_accum",
    "select_by",
)


def _auto_config(location: str, **kwargs: Any) -> Any:
    from transformers import AutoConfig

    return AutoConfig.from_pretrained(location, **kwargs)


def _auto_tokenizer(location: str, **kwargs: Any) -> Any:
    from transformers import AutoTokenizer

    return AutoTokenizer.from_pretrained(location, **kwargs)


def _has_head(config: Any) -> bool:
    architectures = getattr(config, "architectures", None) or []
    return any(name.endswith("ForSequenceClassification") for name in architectures)


def _reinit_head(model: Any) -> None:
    """Draw new weights for every linear layer outside the base model (the classification head).

    ``ignore_mismatched_sizes`` only replaces a head of another size; a same-sized one is kept, so
    ``reinit_head`` resets it here, with the initialiser range the model was trained with.
    """
    import torch

    std = getattr(model.config, "initializer_range", None) or 0.02
    for name, module in model.named_modules():
        if name.split(".")[0] != model.base_model_prefix and isinstance(module, torch.nn.Linear):
            torch.nn.init.normal_(module.weight, std=std)
            if module.bias is not None:
                torch.nn.init.zeros_(module.bias)


def _pad_id(tokenizer: Any) -> int:
    """The tokenizer's pad token, else its end-of-sequence token (GPT-style models have no pad)."""
    for candidate in (tokenizer.pad_token_id, tokenizer.eos_token_id):
        if candidate is not None:
            return int(candidate)
    raise ConfigError(
        "The transformer tokenizer has neither a pad nor an end-of-sequence token, so batches "
        "cannot be padded. Add a pad token to the tokenizer and save it again."
    )


LORA_KEYS = {"r": 8, "alpha": 16, "dropout": 0.05, "target_modules": None}


def check_lora(lora: Any) -> None:
    """``lora`` is None or a mapping of r / alpha / dropout / target_modules (peft's LoraConfig)."""
    if lora is None:
        return
    if not isinstance(lora, dict):
        raise ConfigError(
            f"The 'lora' parameter of transformer must be a mapping like {{r: 8, alpha: 16}} or null. Got {quoted(lora)} instead."
        )
    from shortcutlab.params import did_you_mean

    for key in lora:
        if key not in LORA_KEYS:
            hint = did_you_mean(key, list(LORA_KEYS))
            raise ConfigError(
                f"Unknown key '{key}' in the transformer 'lora' parameter.{hint} Allowed keys: {', '.join(LORA_KEYS)}."
            )
    settings = {**LORA_KEYS, **lora}
    check_positive_int("transformer", "lora.r", settings["r"])
    check_positive_float("transformer", "lora.alpha", settings["alpha"])
    check_fraction("transformer", "lora.dropout", settings["dropout"])
    try:
        import peft  # noqa: F401
    except ImportError as exc:
        raise ConfigError(
            "The transformer 'lora' mode needs peft. Install it with: pip install 'shortcutlab[torch]'."
        ) from exc


def with_lora(model: Any, lora: dict[str, Any]) -> Any:
    """Wrap ``model`` with LoRA adapters; peft keeps the sequence-classification head trainable."""
    from peft import LoraConfig, TaskType, get_peft_model

    settings = {**LORA_KEYS, **lora}
    config = LoraConfig(
        task_type=TaskType.SEQ_CLS,
        r=int(settings["r"]),
        lora_alpha=float(settings["alpha"]),
        lora_dropout=float(settings["dropout"]),
        target_modules=settings["target_modules"],
        bias="none",
    )
    try:
        return get_peft_model(model, config)
    except ValueError as exc:  # peft has no default target modules for this architecture
        raise ConfigError(
            f"LoRA could not find layers to adapt in this model ({exc}). Name them with "
            f"lora: {{target_modules: [q_proj, v_proj]}}."
        ) from exc
