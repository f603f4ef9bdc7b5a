"""The check suite file: the data and a list of requirements, validated up front.

::

    name: release-gate            # optional
    data: {train: train.csv, test: test.csv}   # or {builtin: reviews}; the grid specs' keys
    seeds: 1                      # fits per measurement (optional)
    bootstrap: 1000               # resamples of each interval (optional)
    requirements:
      - {id: honestly, maze: {shortcut: single-term, strength: 0.8}, max_delta: 0.05}
      - {id: negation, mps: {attribute: negation}, max_delta: 0.1}
      - {id: no-shortcuts, audit: {no_relied_on_shortcuts: true}}

Each requirement has an ``id`` and exactly one kind key (:data:`.kinds.REQUIREMENTS`); an
error names its place in the file, in one line.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from shortcutlab.check.kinds import REQUIREMENTS, Requirement
from shortcutlab.engine.spec_entries import DatasetSpec, parse_dataset, read_spec_file
from shortcutlab.errors import ConfigError
from shortcutlab.names import spec_name
from shortcutlab.params import as_list, bootstrap, check_keys, natural, quoted, unique

TOP_KEYS = ("name", "data", "seeds", "bootstrap", "seed", "requirements")
MAX_SEEDS = 100


@dataclass(frozen=True)
class CheckSuite:
    """A parsed suite: its data, settings and requirements (in the file's order)."""

    name: str
    data: DatasetSpec
    requirements: list[Requirement]
    seeds: int = 1
    bootstrap: int = 1000
    seed: int = 0
    raw_data: dict[str, Any] | None = None  # the data entry as written (kept when re-saved)

    def to_mapping(self) -> dict[str, Any]:
        """The suite as YAML writes it back (what ``--save-suite`` writes)."""
        mapping: dict[str, Any] = {"name": self.name, "data": self.raw_data or {}}
        if self.seeds != 1:
            mapping["seeds"] = self.seeds
        if self.bootstrap != 1000:
            mapping["bootstrap"] = self.bootstrap
        if self.seed:
            mapping["seed"] = self.seed
        mapping["requirements"] = [r.to_entry() for r in self.requirements]
        return mapping


def load_check_suite(
    suite: str | Path | CheckSuite | dict[str, Any], base: Path | None = None
) -> CheckSuite:
    """A suite from its YAML file, a mapping (paths relative to ``base``), or as it is."""
    if isinstance(suite, CheckSuite):
        return suite
    if isinstance(suite, dict):
        return parse_check_suite(suite, source="suite", base=base or Path.cwd())
    path = Path(suite)
    return parse_check_suite(read_spec_file(path), source=str(path), base=path.parent)


def parse_check_suite(raw: Any, *, source: str, base: Path) -> CheckSuite:
    """Validate a suite mapping as read from YAML."""
    if not isinstance(raw, dict):
        raise ConfigError(
            f"{source} must be a mapping with 'data' and 'requirements'. Got {quoted(raw)}."
        )
    check_keys(raw, TOP_KEYS, source)
    for required in ("data", "requirements"):
        if required not in raw:
            raise ConfigError(f"{source} has no '{required}' key; a check suite needs it.")
    data = parse_dataset(raw["data"], f"{source}: data", base)
    entries = as_list(raw["requirements"], f"{source}: requirements")
    requirements = [
        parse_requirement(entry, f"{source}: requirements[{i}]", base)
        for i, entry in enumerate(entries)
    ]
    unique([r.id for r in requirements], f"{source}: requirements", "id")
    return CheckSuite(
        name=spec_name(raw.get("name", "check"), f"{source}: name"),
        data=data,
        requirements=requirements,
        seeds=natural(raw.get("seeds", 1), f"{source}: seeds", minimum=1, maximum=MAX_SEEDS),
        bootstrap=bootstrap(raw.get("bootstrap", 1000), f"{source}: bootstrap"),
        seed=natural(raw.get("seed", 0), f"{source}: seed"),
        raw_data=dict(raw["data"]),
    )


def parse_requirement(entry: Any, where: str, base: Path) -> Requirement:
    """One requirement: ``id``, exactly one kind key, and that kind's thresholds."""
    kinds = REQUIREMENTS.names()
    if not isinstance(entry, dict):
        raise ConfigError(
            f"{where} must be a mapping with 'id' and one of {', '.join(kinds)}. Got {quoted(entry)}."
        )
    given = [key for key in entry if key in kinds]
    if len(given) != 1:
        unknown = [k for k in entry if k != "id" and k not in kinds]
        if not given and unknown:  # a misspelt kind: the registry's did-you-mean
            raise ConfigError(f"{where}: {REQUIREMENTS.unknown_message(str(unknown[0]))}")
        raise ConfigError(
            f"{where} must name exactly one kind ({', '.join(kinds)}). Got "
            f"{', '.join(given) if given else 'none'}."
        )
    kind = REQUIREMENTS.get(given[0])
    check_keys(entry, ("id", given[0], *kind.thresholds), where)
    if "id" not in entry:
        raise ConfigError(f"{where} has no 'id'; give each requirement a unique id.")
    requirement_id = spec_name(entry["id"], f"{where}: id")
    return kind.parse(requirement_id, entry, f"{where} ({requirement_id})", base)
