"""The model registry: one line per backend, with what it can do declared once, on that line.

A line names the class lazily (``"module:Class"``) and declares the capabilities that differ from
the defaults below, so a grid, a mitigation or an error message reads what a model can do without
importing it (torch and transformers load only when a model is made). A model class reads its own
line (:meth:`~shortcutlab.models.base.TextClassifier.capabilities`); nothing else records the
facts. The module sits below ``base`` so that the base class can read the registry.

Capabilities:

- ``pairs``: reads paired inputs, ``(text, text_pair)`` tuples (data/pairs.py).
- ``sample_weight``: ``fit(..., sample_weight=w)`` weighs each training row's loss.
- ``last_layer``: predictions are a softmax over one linear layer of ``features(x)``, and the
  model exposes ``features`` and ``last_layer`` (:class:`~shortcutlab.models.base.LastLayerModel`),
  which last-layer methods (DFR, LLR, AFR) refit.
- ``objective``: trained by gradient steps on per-row losses, so it takes a training objective
  (models/objectives.py) through ``set_objective``.
- ``epochs``: trained in epochs, calling ``end_of_epoch`` after each (per-epoch predictions).
- ``seeded``: its fit depends on the seed by default; False for a deterministic solver, whose
  seeds then share one fit (a configuration may still say otherwise: ``depends_on_seed``).
- ``learns``: learns from the training rows; False for a prompted LLM, which reads none, so
  methods that change the rows or their losses cannot change it.
- ``torch``: needs the ``torch`` extra.
- ``network``: the torch network it trains end to end, which methods that train their own copy
  (the rationale models) or constrain it (NFL) build on: ``"bag-of-words"`` (bow-mlp's network and
  parameters), ``"encoder"`` (a pretrained transformer encoder with the transformer's
  parameters), or None.

Examples:
    >>> MODELS.capabilities("tfidf-logreg")["last_layer"]
    True
    >>> MODELS.having("epochs")
    ['bow-mlp', 'transformer']
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from shortcutlab.registry import Registry

if TYPE_CHECKING:
    from shortcutlab.models.base import TextClassifier

#: Every model capability and its default (see the module docstring).
MODEL_CAPABILITIES: dict[str, Any] = {
    "pairs": False,
    "sample_weight": False,
    "last_layer": False,
    "objective": False,
    "epochs": False,
    "seeded": True,
    "learns": True,
    "torch": False,
    "network": None,
}

#: Network kinds a model may declare (``network``).
NETWORKS = ("bag-of-words", "encoder")

MODELS: Registry[type[TextClassifier]] = Registry("model", capabilities=MODEL_CAPABILITIES)
MODELS.add(
    "tfidf-logreg",
    "shortcutlab.models.tfidf:TfidfLogReg",
    pairs=True,
    sample_weight=True,
    last_layer=True,
    seeded=False,  # lbfgs is deterministic: every seed gives the same model
)
MODELS.add(
    "majority",
    "shortcutlab.models.majority:MajorityClass",
    pairs=True,  # it reads no input at all
    sample_weight=True,  # the prior is then the weighted label distribution
    seeded=False,
)
MODELS.add(
    "llm-prompt",
    "shortcutlab.models.llm_prompt:LLMPrompt",
    pairs=True,
    learns=False,  # few-shot demonstrations are drawn per seed, so it stays seeded
)
MODELS.add(
    "tfidf-svm",
    "shortcutlab.models.tfidf_svm:TfidfSvm",
    pairs=True,  # seeded: liblinear's dual coordinate descent visits rows in a random_state order
    sample_weight=True,  # LinearSVC and its calibrator both weigh rows
)
#: What a torch network trained end to end in epochs can do (bow-mlp, transformer).
TRAINED_NETWORK: dict[str, Any] = {
    "pairs": True,
    "sample_weight": True,
    "last_layer": True,
    "objective": True,
    "epochs": True,
    "torch": True,
}
MODELS.add(
    "bow-mlp", "shortcutlab.models.bow_mlp:BowMlp", **TRAINED_NETWORK, network="bag-of-words"
)
MODELS.add(
    "transformer",
    "shortcutlab.models.transformer:TransformerClassifier",
    **TRAINED_NETWORK,
    network="encoder",
)
MODELS.add(
    "sentence-encoder",
    "shortcutlab.models.sentence_encoder:SentenceEncoder",
    pairs=True,
    sample_weight=True,
    last_layer=True,
    seeded=False,  # the encoder is frozen and lbfgs is deterministic
    torch=True,
)
# The model as the user holds it (models/adapters.py): resolve_model makes these pairs.
MODELS.add(
    "sklearn",
    "shortcutlab.models.adapters:SklearnModel",
    pairs=True,  # paired rows reach the estimator as a DataFrame with text and text_pair
    # seeded per configuration: depends_on_seed reads the estimator's random_state parameters
)
MODELS.add("object", "shortcutlab.models.adapters:ObjectModel")
MODELS.add("function", "shortcutlab.models.adapters:FittedFunction", learns=False, seeded=False)
