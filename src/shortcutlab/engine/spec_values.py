"""The spec-key checks of :mod:`shortcutlab.params` (the one vocabulary and message of every value
check), under the name the engine's spec modules import them by. New code imports from
``shortcutlab.params``."""

from shortcutlab.params import (
    as_list,
    bootstrap,
    check_keys,
    choice,
    natural,
    unique,
    unit_interval,
    val_size,
)

__all__ = [
    "as_list",
    "bootstrap",
    "check_keys",
    "choice",
    "natural",
    "unique",
    "unit_interval",
    "val_size",
]
