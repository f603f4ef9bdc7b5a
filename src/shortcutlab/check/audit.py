"""``audit`` requirements: the model relies on no likely shortcut, or on none of a named list.

``{audit: {no_relied_on_shortcuts: true}}`` or ``{audit: {not_relied_on: [honestly, ...]}}``
runs :func:`~shortcutlab.audit_dataset` on the suite's data with the model and reads its
triage (likely shortcuts) and reliance verdicts. Reliance is a test decision (a counterfactual
edit moves the predictions, adjusted p < alpha), not an interval, so this kind fails on evidence
of reliance: a candidate the audit cannot measure (beyond ``measure_top``) is inconclusive.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from shortcutlab.check.context import CheckContext
from shortcutlab.check.kinds import FAIL, INCONCLUSIVE, PASS, Outcome, entry_block
from shortcutlab.errors import ConfigError
from shortcutlab.params import as_list, boolean, check_keys, natural, non_empty_string, unique

BLOCK_KEYS = ("no_relied_on_shortcuts", "not_relied_on", "measure_top")
#: The triage group of likely shortcuts (families/audit/triage/evidence.py SHORTCUT).
LIKELY_SHORTCUT = "shortcut"
LISTED = 3  # names shown in a verdict before "and N more"


@dataclass(frozen=True)
class AuditRequirement:
    id: str
    not_relied_on: tuple[str, ...] | None  # None: no likely shortcut at all
    measure_top: int = 10

    kind = "audit"
    thresholds: tuple[str, ...] = ()

    @classmethod
    def parse(cls, id: str, entry: dict[str, Any], where: str, base: Path) -> AuditRequirement:
        block = entry_block(entry, cls.kind, where)
        check_keys(block, BLOCK_KEYS, f"{where}: audit")
        given = [key for key in ("no_relied_on_shortcuts", "not_relied_on") if key in block]
        if len(given) != 1:
            raise ConfigError(
                f"{where}: audit needs exactly one of 'no_relied_on_shortcuts: true' and "
                f"'not_relied_on: [word, ...]'. Got {'both' if given else 'neither'}."
            )
        listed = None
        if "not_relied_on" in block:
            where_list = f"{where}: audit: not_relied_on"
            listed = tuple(
                non_empty_string(v, f"{where_list}[{i}]")
                for i, v in enumerate(as_list(block["not_relied_on"], where_list))
            )
            unique(listed, where_list, "name")
        elif not boolean(
            block["no_relied_on_shortcuts"], f"{where}: audit: no_relied_on_shortcuts"
        ):
            raise ConfigError(
                f"{where}: audit: no_relied_on_shortcuts must be true (or remove the "
                "requirement). Got false."
            )
        top = natural(block.get("measure_top", 10), f"{where}: audit: measure_top", minimum=1)
        return cls(id=id, not_relied_on=listed, measure_top=top)

    def describe(self) -> str:
        if self.not_relied_on is None:
            return "no likely shortcut relied on"
        return f"none of {_names(self.not_relied_on)} relied on"

    def to_entry(self) -> dict[str, Any]:
        block: dict[str, Any] = (
            {"no_relied_on_shortcuts": True}
            if self.not_relied_on is None
            else {"not_relied_on": list(self.not_relied_on)}
        )
        if self.measure_top != 10:
            block["measure_top"] = self.measure_top
        return {"id": self.id, "audit": block}

    def measure(self, context: CheckContext) -> Outcome:
        table = audit_table(context, self.measure_top)
        if self.not_relied_on is None:
            scope = table[table["group"] == LIKELY_SHORTCUT]
        else:
            scope = table[table["candidate"].isin(self.not_relied_on)]
        significant = scope[scope["significant"].fillna(False).astype(bool)]
        relied = significant[significant["relied_on"].fillna(False).astype(bool)]
        unmeasured = significant[significant["relied_on"].isna()]
        notes: list[str] = []
        if len(relied):
            verdict, bound = FAIL, f"relied on: {_names(relied['candidate'])}"
        elif len(unmeasured):
            verdict, bound = INCONCLUSIVE, f"not measured: {_names(unmeasured['candidate'])}"
            notes.append(
                "A significant candidate was not measured (no counterfactual edit applies, or "
                "it ranks past measure_top); raise audit: measure_top or name it in a maze "
                "requirement."
            )
        else:
            verdict, bound = PASS, f"none relied on ({len(significant)} measured)"
        return Outcome(
            id=self.id,
            kind=self.kind,
            requirement=self.describe(),
            figure=len(relied),
            interval=None,
            bound=bound,
            verdict=verdict,
            notes=tuple(notes),
        )


def audit_table(context: CheckContext, measure_top: int) -> pd.DataFrame:
    """The audit's ranked candidate table for the suite's data and the model: files are read as
    ``shortcutlab audit DATA --test TEST`` reads them, so a suite saved by it measures the same."""
    from shortcutlab.data.loading import LABEL, TEXT, TEXT_PAIR
    from shortcutlab.families.audit.api import audit_dataset

    dataset = context.dataset
    keywords: dict[str, Any] = dict(
        labels=context.label_list(),
        model=context.model,
        params=context.params,
        measure_top=measure_top,
        seed=context.seed,
    )
    if dataset.builtin is None and dataset.split_by is None:
        train, test = (dataset.resolve(p or "") for p in (dataset.train, dataset.test))
        return audit_dataset(train, test, inputs=dataset.inputs, **keywords).table
    tables = context.tables()
    columns = [c for c in (TEXT, TEXT_PAIR, LABEL) if c in tables[0].column_names()]
    pair = TEXT_PAIR if TEXT_PAIR in columns else None
    frames = [table.frame[columns] for table in tables]
    return audit_dataset(*frames, text_pair_col=pair, **keywords).table


def _names(names: Any) -> str:
    names = [f"'{n}'" for n in names]
    more = f" and {len(names) - LISTED} more" if len(names) > LISTED else ""
    return ", ".join(names[:LISTED]) + more
