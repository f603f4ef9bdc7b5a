"""``audit`` requirements: the model relies on no likely shortcut, or on none of a named list.

``{audit: {no_relied_on_shortcuts: true}}`` or ``{audit: {not_relied_on: [honestly, ...]}}``
runs :func:`~shortcutlab.audit_dataset` on the suite's data with the model and reads its
triage (likely shortcuts) and reliance verdicts. Reliance is a test decision (a counterfactual
edit moves the predictions, adjusted p < alpha), not an interval, so this kind fails on evidence
of reliance: a candidate the audit cannot measure (beyond ``measure_top``) is inconclusive.
``accepted: [name, ...]`` and ``accepted_styles: [discourse markers, ...]`` are a baseline: the
likely shortcuts (and styles, by their word class) relied on when the suite was saved, which do
not fail it; the table says which of them are still relied on. ``accepted_unmeasured`` names
those the audit could not measure when saved: not measuring them is no longer inconclusive
(evidence of reliance on one still fails). A quantile bin's name holds edges fitted on the data
("readability = ≤ 38.0 (Flesch)"), so a name also matches every bin of its stem
(``readability``): the baseline survives data whose bins moved.
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

BLOCK_KEYS = (
    "no_relied_on_shortcuts",
    "not_relied_on",
    "accepted",
    "accepted_styles",
    "accepted_unmeasured",
    "measure_top",
)
#: The triage group of likely shortcuts (families/audit/triage/evidence.py SHORTCUT).
LIKELY_SHORTCUT = "shortcut"
LISTED = 3  # names shown in a verdict before "and N more"
#: The candidate kind of a style, whose name lists its markers ("discourse markers: well, just
#: (+2)") and so changes with the data: it is accepted by its word class, the name's first part.
STYLE = "style"
#: Kinds whose candidates may be quantile bins (length, sentences, readability; a numeric
#: metadata column), named by edges fitted on the data: they match by their stem too.
BINNED_KINDS = ("surface", "metadata")


@dataclass(frozen=True)
class AuditRequirement:
    id: str
    not_relied_on: tuple[str, ...] | None  # None: no likely shortcut at all
    measure_top: int = 10
    accepted: tuple[str, ...] = ()  # relied on when saved: a baseline that does not fail
    accepted_styles: tuple[str, ...] = ()  # styles accepted by word class ("discourse markers")
    accepted_unmeasured: tuple[str, ...] = ()  # not measured when saved: not inconclusive

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
            listed = _names_list(block["not_relied_on"], f"{where}: audit: not_relied_on")
        elif not boolean(
            block["no_relied_on_shortcuts"], f"{where}: audit: no_relied_on_shortcuts"
        ):
            raise ConfigError(
                f"{where}: audit: no_relied_on_shortcuts must be true (or remove the "
                "requirement). Got false."
            )
        top = natural(block.get("measure_top", 10), f"{where}: audit: measure_top", minimum=1)
        accepted = _names_list(block.get("accepted") or [], f"{where}: audit: accepted")
        both = sorted(set(accepted) & set(listed or ()))
        if both:
            raise ConfigError(
                f"{where}: audit: a name cannot be both accepted and in not_relied_on; remove "
                f"{_names(both)} from one of them."
            )
        styles = _names_list(block.get("accepted_styles") or [], f"{where}: audit: accepted_styles")
        _check_style_classes(styles, f"{where}: audit: accepted_styles")
        unmeasured = _names_list(
            block.get("accepted_unmeasured") or [], f"{where}: audit: accepted_unmeasured"
        )
        return cls(
            id=id,
            not_relied_on=listed,
            measure_top=top,
            accepted=accepted,
            accepted_styles=styles,
            accepted_unmeasured=unmeasured,
        )

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
        if self.accepted:
            block["accepted"] = list(self.accepted)
        if self.accepted_styles:
            block["accepted_styles"] = list(self.accepted_styles)
        if self.accepted_unmeasured:
            block["accepted_unmeasured"] = list(self.accepted_unmeasured)
        if self.measure_top != 10:
            block["measure_top"] = self.measure_top
        return {"id": self.id, "audit": block}

    def measure(self, context: CheckContext) -> Outcome:
        table = audit_table(context, self.measure_top)
        if self.not_relied_on is None:
            scope = table[table["group"] == LIKELY_SHORTCUT]
        else:
            scope = table[named(table, self.not_relied_on)]
        significant = scope[scope["significant"].fillna(False).astype(bool)]
        baseline = significant[self._accepts(significant)]
        judged = significant.drop(baseline.index)
        relied = judged[judged["relied_on"].fillna(False).astype(bool)]
        unmeasured = judged[judged["relied_on"].isna() & ~named(judged, self.accepted_unmeasured)]
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
            verdict, bound = PASS, f"none relied on ({judged['relied_on'].notna().sum()} measured)"
        still = baseline[baseline["relied_on"].fillna(False).astype(bool)]
        if len(still):
            bound += f"; accepted, still relied on: {_names(still['candidate'])}"
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

    def _accepts(self, table: pd.DataFrame) -> pd.Series:
        """The rows of ``table`` this requirement accepts: by name, or a style by its class."""
        styles = table["kind"].eq(STYLE) & table["candidate"].map(style_class).isin(
            self.accepted_styles
        )
        return named(table, self.accepted) | styles


def stable_name(candidate: str, kind: str) -> str:
    """The part of a candidate's name that its data does not change: a quantile bin's stem
    (``readability = ≤ 38.0 (Flesch)`` -> ``readability``), else the whole name."""
    from shortcutlab.families.audit.scan.surface import bin_stem

    stem = bin_stem(str(candidate)) if kind in BINNED_KINDS else None
    return stem or str(candidate)


def named(table: pd.DataFrame, names: tuple[str, ...]) -> pd.Series:
    """The rows of ``table`` that ``names`` list, by their whole name or their stable one."""
    stable = [stable_name(c, k) for c, k in zip(table["candidate"], table["kind"], strict=True)]
    return table["candidate"].isin(names) | pd.Series(stable, index=table.index).isin(names)


def style_class(candidate: str) -> str:
    """A style's word class from its candidate name: ``discourse markers: well, just`` ->
    ``discourse markers``."""
    return str(candidate).split(":", 1)[0].strip()


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


def _names_list(value: Any, where: str) -> tuple[str, ...]:
    """A list of candidate names (none given: empty), each a non-empty string, none twice."""
    if isinstance(value, list) and not value:
        return ()
    names = tuple(non_empty_string(v, f"{where}[{i}]") for i, v in enumerate(as_list(value, where)))
    unique(names, where, "name")
    return names


def _check_style_classes(styles: tuple[str, ...], where: str) -> None:
    from shortcutlab.families.audit.triage.styles import STYLE_CLASSES

    known = [f"{word_class}s" for word_class in STYLE_CLASSES]
    unknown = [s for s in styles if s not in known]
    if unknown:
        raise ConfigError(
            f"{where}: a style is accepted by its word class, one of {_names(known)}. "
            f"Got {_names(unknown)}."
        )


def _names(names: Any) -> str:
    names = [f"'{n}'" for n in names]
    more = f" and {len(names) - LISTED} more" if len(names) > LISTED else ""
    return ", ".join(names[:LISTED]) + more
