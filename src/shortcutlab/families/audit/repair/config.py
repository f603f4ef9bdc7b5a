"""What ``audit --fix`` repairs and how it judges the repairs (a light module: the CLI and the API
build it before anything heavy is imported)."""

from __future__ import annotations

from dataclasses import dataclass

from shortcutlab.errors import ConfigError, knob
from shortcutlab.mitigations.registry import MITIGATIONS

#: The methods tried by default, in this order, where they are registered and apply: the plain
#: fit, the group-aware mitigations with the candidate as the group, the data-level repairs that
#: edit the candidate's words, and CAT's augmentation for pairs.
DEFAULT_METHODS = (
    "erm",
    "reweight",
    "downsample",
    "groupdro",
    "jtt",
    "dfr",
    "afr",
    "llr",
    "remove-candidate",
    "mask-candidate",
    "counterfactual-augment",
    "cat-augment",
)
#: The baseline every repair is compared with.
BASELINE = "erm"


@dataclass(frozen=True)
class FixConfig:
    """``audit --fix``: repair the candidates named in ``candidates`` or, when none is named,
    those the model relies on (``relied_on`` in the audit table), and compare each repair with
    erm.

    ``candidates`` are names as the audit table writes them ("frankly", "hypothesis: no",
    "negation = with_negation"); ``methods`` a subset of :data:`DEFAULT_METHODS` or any
    registered mitigation (default: every default one that applies); ``held_out`` the seeded
    share of the training rows that methods refitting on held-out rows (dfr, llr) set aside;
    ``margin`` the plain-test cost a recommended repair may have (see ``RECOMMENDATION_RULE``).
    """

    candidates: tuple[str, ...] = ()
    methods: tuple[str, ...] | None = None
    held_out: float = 0.2
    margin: float = 0.01
    n_resamples: int = 1000

    def check(self) -> None:
        if not 0 < self.held_out < 1:
            raise ConfigError(
                f"The held-out share of the repairs must be in (0, 1), e.g. "
                f"{knob('held_out', 0.2)}. Got {knob('held_out', self.held_out)}."
            )
        if not 0 <= self.margin < 1:
            raise ConfigError(
                f"The plain-test margin of the repairs must be in [0, 1), e.g. "
                f"{knob('margin', 0.01)}. Got {knob('margin', self.margin)}."
            )
        if self.n_resamples < 100:
            raise ConfigError(
                f"The bootstrap needs at least 100 resamples (default 1000). Got {self.n_resamples}."
            )
        if self.methods is not None and not self.methods:
            raise ConfigError(
                f"{knob('methods')} names no method; name one or more, e.g. erm and reweight."
            )
        if self.methods is not None and BASELINE not in self.methods:
            object.__setattr__(self, "methods", (BASELINE, *self.methods))
        fix_methods(self)  # an unknown name is refused before the scan, not after it


def fix_methods(config: FixConfig) -> list[str]:
    """The methods to run: those named (checked against the registry), or the default ones
    that are registered."""
    if config.methods is None:
        return [m for m in DEFAULT_METHODS if m in MITIGATIONS]
    for method in config.methods:
        MITIGATIONS.capabilities(method)  # an unknown name: the registry's did-you-mean error
    return list(dict.fromkeys(config.methods))


def check_fix_model(model: str) -> None:
    """--fix refits the model under each repair, so it must be a registered name (an estimator,
    saved or not, is one: ``sklearn``), not a fitted function, which cannot be refitted."""
    from shortcutlab.models import MODELS  # the registry only: no backend is imported

    if model not in MODELS.names() or model == "function":
        raise ConfigError(
            f"The repairs ({knob('fix')}) refit the model under each one, so {knob('model')} "
            f"must be a registered model ({', '.join(MODELS.names())}), not a saved one. Got "
            f"{model!r}."
        )


__all__ = ["BASELINE", "DEFAULT_METHODS", "FixConfig", "check_fix_model", "fix_methods"]
