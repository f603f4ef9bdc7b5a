"""The Shortcut Suite's sets made from the user's NLI data (section 4.1): ``standard`` and the three
sets derived from it row by row (``negation``, ``position``, ``style``).

Every function takes the canonical table (``row_id, text, text_pair, label``, extras) and a numpy
Generator and returns a new table. Derived rows keep the standard row's ``row_id`` and carry it
as ``source_row_id``, so an evaluation can pair them with their standard row.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pandas as pd

from shortcutlab.data.loading import LABEL, ROW_ID, TEXT, TEXT_PAIR
from shortcutlab.errors import DataError, knob
from shortcutlab.params import quoted
from shortcutlab.shortcuts.rewriters import Rewriter
from shortcutlab.shortcuts.tautology import (
    NEGATION_TAUTOLOGIES,
    POSITION_PHRASES,
    add_at_position,
    append_clause,
)

SOURCE_ROW_ID = "source_row_id"
# The released Position data's names for the four groups (section 4.1, Table 3).
POSITIONS = ("premise_front", "premise_end", "hypothesis_front", "hypothesis_end")
GENRE = "genre"


def balanced_counts(total: int, groups: int) -> list[int]:
    """``total`` split over ``groups`` as evenly as possible (the first ones get the remainder)."""
    return [total // groups + (1 if g < total % groups else 0) for g in range(groups)]


def draw_balanced(
    values: pd.Series,
    groups: Sequence[Any],
    size: int,
    rng: np.random.Generator,
    shortfall: Callable[[Any, int, int], DataError],
) -> np.ndarray:
    """Positions of ``size`` rows, as evenly spread over ``groups`` (values of ``values``) as
    possible, drawn without replacement; ``shortfall(group, needed, available)`` is raised where
    a group has too few rows."""
    chosen = []
    for group, count in zip(groups, balanced_counts(size, len(groups)), strict=True):
        rows = np.flatnonzero((values == group).to_numpy())
        if len(rows) < count:
            raise shortfall(group, count, len(rows))
        chosen.append(rng.choice(rows, size=count, replace=False))
    return np.concatenate(chosen) if chosen else np.array([], dtype=np.int64)


def standard_set(
    table: pd.DataFrame,
    labels: Sequence[Any],
    size: int,
    rng: np.random.Generator,
    *,
    name: str = "standard",
) -> pd.DataFrame:
    """A label-balanced sample of ``size`` rows ("a balanced selection comprising 3000 samples",
    section 4.1), in input order; each row keeps its input ``row_id``."""

    def shortfall(label: Any, count: int, available: int) -> DataError:
        return DataError(
            f"The {name} set needs {count} rows labelled {quoted(str(label))} for a balanced sample of "
            f"{size}, but the data has {available}. Pass a smaller {knob('size')} (at most "
            f"{_largest_size(table, labels)})."
        )

    picked = np.sort(draw_balanced(table[LABEL], labels, size, rng, shortfall))
    out = table.iloc[picked].reset_index(drop=True)
    out.insert(out.columns.get_loc(LABEL) + 1, SOURCE_ROW_ID, out[ROW_ID].to_numpy())
    return out


def _largest_size(table: pd.DataFrame, labels: Sequence[Any]) -> int:
    return int(table[LABEL].value_counts().reindex(list(labels), fill_value=0).min()) * len(labels)


def negation_set(
    standard: pd.DataFrame,
    rng: np.random.Generator,
    *,
    part: str = TEXT_PAIR,
    tautologies: Sequence[str] = NEGATION_TAUTOLOGIES,
) -> pd.DataFrame:
    """One of the tautologies, drawn uniformly per row, appended to the hypothesis (section 4.1;
    ``part=text`` for single-text data, appendix C's sentiment + negation)."""
    drawn = rng.integers(len(tautologies), size=len(standard))
    chosen = [tautologies[i] for i in drawn.tolist()]
    out = standard.copy()
    out[part] = [append_clause(t, c) for t, c in zip(out[part].tolist(), chosen, strict=True)]
    out["tautology"] = chosen
    return out


def position_groups(
    standard: pd.DataFrame, rng: np.random.Generator, groups: int = len(POSITIONS)
) -> np.ndarray:
    """Per row, its group 0..groups-1, balanced within every label (and genre, when the data
    has a ``genre`` column: "four equally distributed label and genre groups", section 4.1)."""
    keys = standard[LABEL].astype(str)
    if GENRE in standard.columns:
        keys = keys + "\x00" + standard[GENRE].astype(str)
    assigned = np.zeros(len(standard), dtype=np.int64)
    offset = 0
    for key in sorted(keys.unique()):
        rows = np.flatnonzero((keys == key).to_numpy())
        # Round robin over a shuffled stratum, starting where the last stratum stopped, so the
        # groups' sizes differ by at most one overall as well.
        assigned[rng.permutation(rows)] = (np.arange(len(rows)) + offset) % groups
        offset = (offset + len(rows)) % groups
    return assigned


def position_set(standard: pd.DataFrame, rng: np.random.Generator) -> pd.DataFrame:
    """A tautology ("red is red", ...) five times at the front or end of the premise or the
    hypothesis, one position per balanced group (section 4.1, Table 3)."""
    group_seed, phrase_seed = rng.spawn(2)
    groups = position_groups(standard, group_seed)
    phrases = phrase_seed.integers(len(POSITION_PHRASES), size=len(standard))
    out = standard.copy()
    premises, hypotheses = out[TEXT].tolist(), out[TEXT_PAIR].tolist()
    chosen = []
    for row, (group, index) in enumerate(zip(groups.tolist(), phrases.tolist(), strict=True)):
        phrase = POSITION_PHRASES[index]
        where = POSITIONS[group]
        texts = premises if where.startswith("premise") else hypotheses
        texts[row] = add_at_position(texts[row], phrase, front=where.endswith("front"))
        chosen.append(phrase)
    out[TEXT], out[TEXT_PAIR] = premises, hypotheses
    out["position"] = [POSITIONS[g] for g in groups.tolist()]
    out["tautology"] = chosen
    return out


def style_set(
    standard: pd.DataFrame, rewriter: Rewriter, *, style: str = "bible"
) -> tuple[pd.DataFrame, dict[str, Any]]:
    """The premises rewritten in Bible style by ``rewriter`` (section 4.1 used STRAP; any
    rewriter of the Maze style shortcuts works). Rows whose rewrite failed are dropped and counted."""
    rewrites = rewriter.rewrite(
        standard[TEXT].tolist(),
        style,
        role="test",
        row_ids=standard[SOURCE_ROW_ID].to_numpy(),
    )
    if len(rewrites) != len(standard):
        raise RuntimeError(f"A rewriter returned {len(rewrites)} texts for {len(standard)} inputs.")
    ok = np.array([isinstance(r, str) and bool(r.strip()) for r in rewrites])
    if not ok.any() and len(standard):
        raise DataError(
            f"Every {style} rewrite of the standard premises failed; check the {rewriter.name} "
            f"rewriter and its files."
        )
    out = standard.loc[ok].reset_index(drop=True)
    out[TEXT] = [r for r, good in zip(rewrites, ok.tolist(), strict=True) if good]
    record = {"rewriter": rewriter.name, "style": style, "failed_dropped": int((~ok).sum())}
    source = rewriter.provenance(style, "test")
    if source:
        record["source"] = source
    return out, record
