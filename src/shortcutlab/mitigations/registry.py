"""The mitigation registry: one line per method, with what it needs declared once, on that line.

A line names the class lazily (``"module:Class"``) and declares the capabilities that differ from
the defaults below, so a grid checks a spec (groups, held-out rows, paired data, backends) without
importing any method. A method class reads its own line
(:meth:`~shortcutlab.mitigations.base.Mitigation.capabilities`). The module sits below ``base`` so
that the base class can read the registry.

Capabilities:

- ``groups``: which group labels the method reads: ``"none"``, the training rows' (``"train"``),
  or only the held-out rows' (``"held-out"``).
- ``held_out``: it fits on held-out (validation) rows, with or without their groups (dfr, llr):
  the benchmark then needs a validation split.
- ``seeded``: it draws random numbers itself (subsamples, splits, noise), so its result depends
  on the seed even for a seed-independent backend.
- ``pairs``: it only makes sense on paired inputs (text and text_pair): grids refuse it on
  single-text data before anything runs.
- ``torch``: it needs the ``torch`` extra whatever the backend (a head or loss trained in torch).
- ``training_rows``: what it does to the training rows it is given, so that a caller (``audit
  --fix``) can report and write them without fitting: nothing (``"as-is"``: it changes the loss
  or the last layer), edits them (``"edits"``: ``repaired(context)`` gives the rows it trains on,
  texts edited, any added rows after the originals), weights them (``"weights"``:
  ``training_weights(context)``) or keeps some (``"keeps"``: ``kept_rows(context)``).
- ``backends``: the models it can train, as requirements on their capabilities
  (models/registry.py): each capability must have the value given, or one of a set's values;
  none (the default) takes every model. :func:`supported_models` lists them.

Examples:
    >>> supported_models("dfr")
    ['bow-mlp', 'sentence-encoder', 'tfidf-logreg', 'transformer']
    >>> MITIGATIONS.capabilities("dfr")["groups"]
    'held-out'
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from shortcutlab.models.registry import MODELS, NETWORKS
from shortcutlab.registry import Registry

if TYPE_CHECKING:
    from shortcutlab.mitigations.base import Mitigation

#: What a method reads of the group labels: nothing, the training rows' groups, or only the
#: held-out (validation) rows' groups.
GROUPS_NONE, GROUPS_TRAIN, GROUPS_HELD_OUT = "none", "train", "held-out"

#: What a method does to the training rows: nothing, edits them, weights them, keeps some.
ROWS_AS_IS, ROWS_EDITS, ROWS_WEIGHTS, ROWS_KEEPS = "as-is", "edits", "weights", "keeps"

#: Every mitigation capability and its default (see the module docstring).
MITIGATION_CAPABILITIES: dict[str, Any] = {
    "groups": GROUPS_NONE,
    "held_out": False,
    "seeded": False,
    "pairs": False,
    "torch": False,
    "training_rows": ROWS_AS_IS,
    "backends": {},
}

#: Backends that learn from the training rows: changing the rows or their losses changes them.
LEARNING = {"learns": True}
#: Backends with a last layer (features and a linear head) that a method can refit.
LAST_LAYER = {"last_layer": True}

MITIGATIONS: Registry[type[Mitigation]] = Registry(
    "mitigation", capabilities=MITIGATION_CAPABILITIES
)
MITIGATIONS.add("erm", "shortcutlab.mitigations.erm:Erm")
MITIGATIONS.add(
    "reweight",
    "shortcutlab.mitigations.reweight:Reweight",
    groups=GROUPS_TRAIN,
    training_rows=ROWS_WEIGHTS,
    backends={"sample_weight": True},
)
MITIGATIONS.add(
    "downsample",
    "shortcutlab.mitigations.downsample:Downsample",
    groups=GROUPS_TRAIN,
    seeded=True,
    training_rows=ROWS_KEEPS,
    backends=LEARNING,
)
MITIGATIONS.add(
    "groupdro",
    "shortcutlab.mitigations.groupdro:GroupDro",
    groups=GROUPS_TRAIN,
    seeded=True,  # the linear heads' batches are drawn from the seed
    torch=True,
    backends=LAST_LAYER,  # end to end through the objective hook where there is one, else the head
)
MITIGATIONS.add("jtt", "shortcutlab.mitigations.jtt:Jtt", backends={"sample_weight": True})
MITIGATIONS.add(
    "dfr",
    "shortcutlab.mitigations.dfr:Dfr",
    groups=GROUPS_HELD_OUT,
    held_out=True,
    seeded=True,
    backends=LAST_LAYER,
)
MITIGATIONS.add(
    "afr", "shortcutlab.mitigations.afr:Afr", seeded=True, torch=True, backends=LAST_LAYER
)
MITIGATIONS.add(
    "llr",
    "shortcutlab.mitigations.llr:Llr",
    held_out=True,
    seeded=True,
    torch=True,
    backends=LAST_LAYER,
)
# NFL reads a pretrained encoder's token states and weights, which only an encoder network has.
MITIGATIONS.add(
    "nfl-co", "shortcutlab.mitigations.nfl:NflCo", torch=True, backends={"network": "encoder"}
)
MITIGATIONS.add(
    "nfl-cp", "shortcutlab.mitigations.nfl:NflCp", torch=True, backends={"network": "encoder"}
)
MITIGATIONS.add(
    "cat-augment",
    "shortcutlab.mitigations.cat_augment:CatAugment",
    pairs=True,
    seeded=True,
    training_rows=ROWS_EDITS,  # the counterfactual pairs added after the originals
    backends={"pairs": True, **LEARNING},
)
# Data-level repairs of a candidate phrase (mitigations/candidate_repairs.py): they change the
# training texts, so any backend that learns from its rows can take them.
MITIGATIONS.add(
    "remove-candidate",
    "shortcutlab.mitigations.candidate_repairs:RemoveCandidate",
    training_rows=ROWS_EDITS,
    backends=LEARNING,
)
MITIGATIONS.add(
    "mask-candidate",
    "shortcutlab.mitigations.candidate_repairs:MaskCandidate",
    training_rows=ROWS_EDITS,
    backends=LEARNING,
)
MITIGATIONS.add(
    "counterfactual-augment",
    "shortcutlab.mitigations.candidate_repairs:CounterfactualAugment",
    seeded=True,  # where the candidate is inserted
    training_rows=ROWS_EDITS,
    backends=LEARNING,
)
# Rationalization models (Shortcut Maze section 3.3), last in order: they rebuild the backend's
# own network as a selector and a predictor (mitigations/rationale_settings.py, per network kind).
MITIGATIONS.add(
    "a2r",
    "shortcutlab.mitigations.a2r:A2R",
    seeded=True,  # the Gumbel noise
    torch=True,
    backends={"network": frozenset(NETWORKS)},
)
MITIGATIONS.add(
    "cr",
    "shortcutlab.mitigations.cr:CR",
    seeded=True,  # the Gumbel noise and the counterfactual draws
    torch=True,
    backends={"network": frozenset(NETWORKS)},
)


def supported_models(mitigation: str) -> list[str]:
    """The registered models ``mitigation`` can train (sorted); imports neither.

    Examples:
        >>> supported_models("nfl-co")
        ['transformer']
    """
    return MODELS.matching(MITIGATIONS.capabilities(mitigation)["backends"])
