"""Where the labels of several files meet: a build's train and test tables, a grid dataset's,
an audit's or a CAT run's. Each file's labels are read on their own (numbers where every label
spells one, else text); here they are brought to one type, or the files are refused with each
file's label type (:func:`shortcutlab.data.labels.agree_label_columns`)."""

from __future__ import annotations

from collections.abc import Mapping

from shortcutlab.data.labels import agree_label_columns
from shortcutlab.data.loading import LABEL, LoadedTable


def table_name(table: LoadedTable, role: str) -> str:
    """How messages name a loaded table: its file, else its role."""
    return f"'{table.source.path}'" if table.source.path is not None else f"the {role} table"


def agree_labels(tables: Mapping[str, LoadedTable]) -> dict[str, LoadedTable]:
    """The tables of one build, grid dataset, audit or CAT run (keyed by role, the reference
    first, e.g. train), with their labels in one type, compared as the user wrote them; files
    whose labels disagree are refused with each file's label type (:func:`agree_label_columns`).
    Every command that reads labels from several files brings them together here."""
    names = {role: table_name(table, role) for role, table in tables.items()}
    if len(set(names.values())) < len(names):  # one file in two roles: name them by role
        names = {role: f"{name} ({role})" for role, name in names.items()}
    agreed = agree_label_columns(
        {names[role]: table.index.column(LABEL) for role, table in tables.items()}
    )
    return {
        role: table
        if agreed[names[role]].type == table.index.column(LABEL).type
        else table.with_labels(agreed[names[role]])
        for role, table in tables.items()
    }


__all__ = ["agree_labels", "table_name"]
