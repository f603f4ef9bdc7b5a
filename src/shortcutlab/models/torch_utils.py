"""Helpers shared by the PyTorch model backends: seeding and validation targets.

Seeding never touches the caller's random state: training runs inside ``torch.random.fork_rng``,
so an experiment engine can run several models in one process and still reproduce each of them.
Device and precision choice live in :mod:`shortcutlab.torch_runtime`, shared with the LLM clients.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np

from shortcutlab.models.base import check_training_data
from shortcutlab.params import require


@contextlib.contextmanager
def seeded(seed: int, device: str) -> Iterator[None]:
    """Seed torch for the block and restore the caller's CPU and device RNG states afterwards."""
    import torch

    kind = torch.device(device).type
    if kind == "cuda":
        index = torch.device(device).index
        devices: list[Any] = [torch.cuda.current_device() if index is None else index]
    elif kind == "mps":
        devices = ["mps"]
    else:
        devices = []
    with torch.random.fork_rng(devices=devices, device_type=None if kind == "cpu" else kind):
        torch.manual_seed(seed)
        yield


def check_seed(owner: str, seed: Any) -> None:
    require(
        isinstance(seed, int | np.integer) and not isinstance(seed, bool) and seed >= 0,
        owner,
        "seed",
        "a non-negative integer",
        seed,
    )


def checked_validation(
    validation: tuple[Sequence[str], np.ndarray] | None, n_classes: int
) -> tuple[list[str], np.ndarray] | None:
    """Validate the ``validation`` pair of fit(); an empty split counts as no validation."""
    if validation is None or len(validation[0]) == 0:
        return None
    texts, labels = validation
    return list(texts), check_training_data(texts, labels, n_classes)


def class_targets(labels: np.ndarray, classes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Positions of ``labels`` among the training ``classes`` and a mask of the labels found there.

    Validation rows whose label the training split lacks have no logit, so they are left out of
    the validation loss instead of making it infinite.
    """
    positions = np.searchsorted(classes, labels).clip(0, len(classes) - 1)
    known = classes[positions] == labels
    return positions, known
