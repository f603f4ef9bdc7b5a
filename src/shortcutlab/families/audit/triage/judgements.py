"""The user's own verdicts: which candidates are shortcuts and which are signal.

A judgements file is YAML with two optional lists, written by hand or by ``shortcutlab annotate
export`` of the shortcut-or-signal task::

    shortcut: [frankly, "lexicon = discourse-markers"]
    signal: [lol, glad]

Names are candidates as the audit prints them, matched without regard to case or surrounding
spaces. A judged candidate's group is the user's in every output.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from shortcutlab.errors import LISTED_NAMES, ConfigError, knob, listed
from shortcutlab.yaml_reading import read_yaml_file

#: The groups a person can put a candidate in, as the file's keys.
JUDGED_GROUPS = ("shortcut", "signal")


@dataclass(frozen=True)
class Judgements:
    """Candidate name (normalised) → "shortcut" or "signal", and where they came from."""

    verdicts: Mapping[str, str] = field(default_factory=dict)
    source: str | None = None

    def group_of(self, name: str) -> str | None:
        return self.verdicts.get(normal_name(name))

    def unmatched(self, names: list[str]) -> list[str]:
        """The judged names no candidate of ``names`` has (kept in the record, so a typo shows)."""
        present = {normal_name(name) for name in names}
        return [name for name in self.verdicts if name not in present]


def normal_name(name: str) -> str:
    return " ".join(str(name).split()).lower()


def read_judgements(source: str | Path | Mapping[str, Any] | None) -> Judgements:
    """Judgements from a YAML file's path or a mapping {"shortcut": [...], "signal": [...]}.

    Examples:
        >>> read_judgements({"shortcut": ["Frankly "], "signal": ["lol"]}).group_of("frankly")
        'shortcut'
    """
    if source is None:
        return Judgements()
    if isinstance(source, Mapping):
        return _parsed(source, "the judgements")
    path = Path(source)
    if not path.is_file():
        raise ConfigError(
            f"The judgements file '{path}' does not exist. Give {knob('judgements')} a YAML file "
            "with 'shortcut:' and 'signal:' lists of candidate names."
        )
    content = read_yaml_file(path) or {}
    judged = _parsed(content, f"The judgements file '{path}'")
    return Judgements(judged.verdicts, source=str(path))


def _parsed(content: Any, where: str) -> Judgements:
    fix = "Write it as 'shortcut: [frankly]' and 'signal: [lol]' (lists of candidate names)."
    if not isinstance(content, Mapping):
        raise ConfigError(f"{where} is not a mapping of groups to names. {fix}")
    unknown = [key for key in content if key not in JUDGED_GROUPS]
    if unknown:
        raise ConfigError(f"{where} has unknown group {listed(unknown, show=repr)}. {fix}")
    verdicts: dict[str, str] = {}
    for group in JUDGED_GROUPS:
        names = content.get(group) or []
        if isinstance(names, str) or not isinstance(names, list):
            raise ConfigError(f"{where}: '{group}' is not a list of names. {fix}")
        for name in names:
            if not isinstance(name, str | int | float) or not normal_name(name):
                raise ConfigError(f"{where}: '{group}' holds {name!r}, not a name. {fix}")
            verdicts.setdefault(normal_name(name), group)
    both = [
        name for name in content.get("signal") or [] if verdicts.get(normal_name(name)) != "signal"
    ]
    if both:
        raise ConfigError(
            f"{where} puts {listed(both, show=repr, limit=LISTED_NAMES)} under both shortcut and "
            "signal. Keep each name in one list."
        )
    return Judgements(verdicts)
