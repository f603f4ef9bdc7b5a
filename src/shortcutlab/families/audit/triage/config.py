"""What the triage is given: the labels' names and the user's judgements."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from shortcutlab.data.labels import LabelSpace
from shortcutlab.errors import ConfigError, knob, listed
from shortcutlab.llm import LLMClient

_NUMBER = re.compile(r"^[+-]?[0-9][0-9_.eE+-]*$")


@dataclass(frozen=True)
class TriageConfig:
    """``label_names``: label value → name ("0" or 0 → "neutral"; labels written as words are
    their own names when this is not given); ``judgements``: a YAML file's path or a mapping
    {"shortcut": [...], "signal": [...]}; ``encoder``: anything with ``embed(texts)`` for the
    label-name nearness (default: the bundled all-MiniLM-L6-v2); ``judge``: an LLM client
    config ({"name": "openai-chat", "base_url": ..., "model": ...}, as ``make_client`` takes) or
    a client, asked whether each content word left open makes a text its label's (needs
    ``label_names``)."""

    label_names: Mapping[Any, str] | None = None
    judgements: str | Path | Mapping[str, Any] | None = None
    encoder: Any | None = None
    judge: Mapping[str, Any] | LLMClient | None = None

    def names_by_rank(self, labels: LabelSpace) -> dict[int, str] | None:
        """Label rank → name: the names given (each must be a label of the data), else the
        label values themselves when every one is a word (a ClassLabel's names, "positive")."""
        if self.label_names:
            by_text = {str(value): rank for rank, value in enumerate(labels.values)}
            unknown = [value for value in self.label_names if str(value) not in by_text]
            if unknown:
                raise ConfigError(
                    f"{knob('label_names', flag='--label-name')} names {listed(unknown, show=repr)}, which the data's "
                    f"labels ({listed(labels.values, show=repr)}) do not include. Name labels "
                    "as the label column writes them."
                )
            empty = [value for value, name in self.label_names.items() if not str(name).strip()]
            if empty:
                raise ConfigError(
                    f"{knob('label_names', flag='--label-name')} gives label {listed(empty, show=repr)} an empty name."
                )
            return {by_text[str(v)]: str(n).strip() for v, n in self.label_names.items()}
        words = [str(value) for value in labels.values]
        if all(isinstance(v, str) and not _NUMBER.match(v) for v in labels.values):
            return {rank: word.replace("_", " ") for rank, word in enumerate(words)}
        return None
