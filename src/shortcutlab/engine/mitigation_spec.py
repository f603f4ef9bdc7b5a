"""The ``mitigations``, ``groups`` and ``group_labels`` keys of a grid spec (Maze and MPS).

Every (model, mitigation) pair is checked when the spec is read, so an unsupported backend, a
method needing training-row groups under ``group_labels: validation``, a group column the builds
do not carry or a held-out method without held-out rows is refused before anything runs.

An erm entry with the default group settings adds nothing to a cell's configuration, so the
cells of a grid without ``mitigations`` keep the ids they had before mitigations existed (old run
folders resume) and an added mitigation only adds cells.

Examples:
    >>> found = parse_mitigations({"mitigations": ["erm", {"name": "erm", "id": "plain"}]}, "spec")
    Traceback (most recent call last):
    ...
    shortcutlab.errors.ConfigError: spec: mitigations repeats a configuration: 'plain' is 'erm' again (give distinct parameters).
    >>> [m.id for m in parse_mitigations({}, "spec")]
    ['erm']
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from shortcutlab.engine.cell import ERM
from shortcutlab.engine.spec_entries import ModelSpec, named_entry
from shortcutlab.engine.spec_identity import canonical_hash
from shortcutlab.errors import LISTED_NAMES, ConfigError, listed
from shortcutlab.mitigations import MITIGATIONS, Mitigation, make_mitigation
from shortcutlab.mitigations.context import check_group_settings
from shortcutlab.mitigations.groups import AUTO, GROUP_LABELS
from shortcutlab.mitigations.registry import GROUPS_HELD_OUT, GROUPS_NONE
from shortcutlab.names import spec_name
from shortcutlab.params import as_list, choice, quoted, refuse, spec_key, unique

MITIGATION_KEYS = ("mitigations", "groups", "group_labels")
DEFAULT_GROUP_LABELS = GROUP_LABELS[0]  # "train"


@dataclass(frozen=True)
class MitigationSpec:
    """One ``mitigations`` entry: registry ``name``, constructor ``params`` and a table ``id``."""

    id: str
    name: str
    params: dict[str, Any] = field(default_factory=dict)

    def resolved(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, **self.params}

    def make(self) -> Mitigation:
        return make_mitigation(self.name, self.params)

    @property
    def is_plain(self) -> bool:
        """erm without parameters: the fit every grid ran before mitigations existed."""
        return self.name == ERM and not self.params

    def reads_groups(self) -> bool:
        return MITIGATIONS.capabilities(self.name)["groups"] != GROUPS_NONE

    def cell_config(self, groups: str, group_labels: str) -> dict[str, Any]:
        """What this mitigation adds to a cell's hashed configuration: nothing for plain erm;
        the method and its parameters otherwise, with the group settings when it reads groups."""
        if self.is_plain:
            return {}
        config: dict[str, Any] = {"mitigation": {"name": self.name, "params": self.params}}
        if self.reads_groups():
            config |= {"groups": groups, "group_labels": group_labels}
        return config


PLAIN = MitigationSpec(ERM, ERM)


@dataclass(frozen=True)
class MitigationSettings:
    """The mitigation keys of a spec, as parsed."""

    mitigations: list[MitigationSpec] = field(default_factory=lambda: [PLAIN])
    groups: str = AUTO
    group_labels: str = DEFAULT_GROUP_LABELS

    def resolved(self) -> dict[str, Any]:
        """Only the keys that differ from the defaults, so the resolved spec (and its hash) of a
        grid without mitigations is what it was before they existed."""
        record: dict[str, Any] = {}
        if [m.resolved() for m in self.mitigations] != [PLAIN.resolved()]:
            record["mitigations"] = [m.resolved() for m in self.mitigations]
        if self.groups != AUTO:
            record["groups"] = self.groups
        if self.group_labels != DEFAULT_GROUP_LABELS:
            record["group_labels"] = self.group_labels
        return record


def parse_mitigations(raw: Mapping[str, Any], source: str) -> list[MitigationSpec]:
    """The ``mitigations`` entries (default ``[erm]``): a name, or a mapping with ``name``, an
    optional ``id`` and the method's parameters (checked by the method)."""
    entries = as_list(raw.get("mitigations", [ERM]), f"{source}: mitigations")
    found = []
    for i, entry in enumerate(entries):
        where = f"{source}: mitigations[{i}]"
        entry, name = named_entry(
            entry,
            where,
            MITIGATIONS,
            "a mitigation name or a mapping with 'name' and its parameters",
        )
        given_id = entry.get("id", name)
        mitigation_id = spec_name(
            given_id.strip() if isinstance(given_id, str) else given_id, f"{where}: id"
        )
        params = {k: v for k, v in entry.items() if k not in ("name", "id")}
        try:
            make_mitigation(name, params)
        except ConfigError as exc:
            raise ConfigError(f"{where} ({name}): {exc}") from exc
        found.append(MitigationSpec(mitigation_id, name, params))
    unique(
        [m.id for m in found],
        f"{source}: mitigations",
        "id",
        "Give two configs of one method distinct 'id's.",
    )
    seen: dict[str, str] = {}
    for mitigation in found:
        digest = canonical_hash({"name": mitigation.name, "params": mitigation.params})
        if digest in seen:
            raise ConfigError(
                f"{source}: mitigations repeats a configuration: {quoted(mitigation.id)} is "
                f"{quoted(seen[digest])} again (give distinct parameters)."
            )
        seen[digest] = mitigation.id
    return found


def parse_mitigation_settings(raw: Mapping[str, Any], source: str) -> MitigationSettings:
    """``mitigations``, ``groups`` (auto, or a column of the builds) and ``group_labels``."""
    groups = raw.get("groups", AUTO)
    if not isinstance(groups, str) or not groups.strip():
        raise refuse(spec_key(f"{source}: groups"), "'auto' or the name of a column", groups)
    return MitigationSettings(
        mitigations=parse_mitigations(raw, source),
        groups=groups.strip(),
        group_labels=choice(
            raw.get("group_labels", DEFAULT_GROUP_LABELS), GROUP_LABELS, f"{source}: group_labels"
        ),
    )


def needs_held_out_rows(mitigation: Mitigation) -> bool:
    """Whether a method fits on held-out (validation) rows: every method reading held-out groups,
    and any declared with ``held_out`` (one that picks held-out rows without groups)."""
    capabilities = mitigation.capabilities()
    return capabilities["groups"] == GROUPS_HELD_OUT or bool(capabilities["held_out"])


def check_mitigation_plan(
    settings: MitigationSettings,
    models: Iterable[ModelSpec],
    source: str,
    *,
    group_columns: Sequence[str],
    held_out: str | None,
    cue_phrases: Callable[[], Mapping[str, tuple[str, ...]]] | None = None,
) -> None:
    """Refuse, one line each, what no cell of the grid could run.

    ``group_columns``: the columns every build carries that could name groups (``auto`` picks
    the first). ``held_out``: None when the builds have validation rows, else the fix to print.
    ``cue_phrases``: gives each build's label and the cue phrases it will record (none for
    builds that record no phrase cue), for the methods whose candidate defaults to them; called
    only for such a method, since it builds the shortcuts from options not yet checked.
    """
    models = list(models)
    for i, entry in enumerate(settings.mitigations):
        where = f"{source}: mitigations[{i}] ({entry.id})"
        mitigation = entry.make()
        try:
            check_group_settings(mitigation, settings.group_labels)
            for model in models:
                mitigation.check_backend(model.name, model.constructor_params())
        except ConfigError as exc:
            raise ConfigError(f"{where}: {exc}") from exc
        if mitigation.capabilities()["groups"] != GROUPS_NONE and not (
            settings.groups == AUTO or settings.groups in group_columns
        ):
            raise ConfigError(
                f"{where} reads groups from the column {quoted(settings.groups)}, which the builds do "
                f"not have. Columns that would do: {listed(group_columns, limit=LISTED_NAMES)} (groups: auto picks "
                f"{group_columns[0]})."
            )
        if mitigation.needs_recorded_cue():
            _check_recorded_cue(where, entry.name, None if cue_phrases is None else cue_phrases())
        if held_out is not None and needs_held_out_rows(mitigation):
            raise ConfigError(
                f"{where}: the {entry.name} mitigation fits on held-out rows, but the builds have "
                f"no validation split. {held_out}"
            )


def _check_recorded_cue(
    where: str, name: str, recorded: Mapping[str, tuple[str, ...]] | None
) -> None:
    """Refuse a method whose candidate defaults to the recorded cue where a build records none."""
    silent = [label for label, phrases in (recorded or {}).items() if not phrases]
    if recorded is None or silent:
        builds = f"the shortcut {quoted(silent[0])} records" if silent else "these builds record"
        raise ConfigError(
            f"{where}: the {name} mitigation has no candidate, and {builds} no cue phrase to "
            f"default to. Give it one: {{name: {name}, candidate: PHRASE}}."
        )


def check_paired_data(settings: MitigationSettings, paired: bool, dataset: str) -> None:
    """Refuse a method declared with ``pairs`` (one that augments pairs) on a dataset of single
    texts."""
    for entry in settings.mitigations:
        if not paired and MITIGATIONS.capabilities(entry.name)["pairs"]:
            raise ConfigError(
                f"The {entry.name} mitigation needs paired inputs (text and text_pair), but the "
                f"dataset '{dataset}' has single texts. Give the dataset a text_pair column, or "
                "drop this mitigation."
            )


def check_no_epoch_averaging(settings: MitigationSettings, average_last_epochs: bool) -> None:
    """Per-epoch predictions come from the backend itself, so only plain erm can average them."""
    other = [m.id for m in settings.mitigations if not m.is_plain]
    if average_last_epochs and other:
        raise ConfigError(
            f"average_last_epochs applies to the plain fit (erm) only; the mitigations "
            f"{', '.join(other)} return their own predictor. Drop average_last_epochs, or run "
            "them in a grid of their own."
        )


def spec_mitigations(spec: dict[str, Any]) -> list[dict[str, Any]]:
    """The stored spec's mitigation entries (a spec without the key ran plain erm)."""
    return spec.get("mitigations") or [{"id": ERM, "name": ERM}]


def baseline_id(spec: dict[str, Any]) -> str:
    """The id of the plain fit the other mitigations are compared with ("" when there is none)."""
    plain = [
        m["id"] for m in spec_mitigations(spec) if m["name"] == ERM and set(m) <= {"id", "name"}
    ]
    return plain[0] if plain else ""


def fit_id(record: Any) -> str:
    """The fit a cell's predictions came from: its own, or the one its seeds share (named by
    build, model and, for a method other than erm, the mitigation)."""
    if not record.shared_fit:
        return str(record.cell_id)
    suffix = "" if record.mitigation == ERM else f"/{record.mitigation}"
    return f"{record.benchmark_id}/{record.model}{suffix}"
