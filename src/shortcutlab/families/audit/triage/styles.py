"""A style's markers as one finding: the discourse markers or archaic words that point to one label.

A Shakespearean rewrite brings "hark", "doth" and "tis"; a formal register "moreover" and
"furthermore"; a planted candour phrase "frankly" and "to be honest". The scan lists each word
apart, a dozen rows where a person should read one (issue 35): the likely shortcuts of one
content-free word class (:data:`STYLE_CLASSES`) that point to the same label become one
candidate of kind ``style``, its rows those with any of its markers, tested like any indicator
(G-test against the label). Its words stay in the table, marked as its members. The model is
measured on it by deleting every marker and inserting its strongest one
(families/audit/reliance/counterfactual.py).

Within-label co-occurrence (do the markers appear together more than their rates predict?) was
tried first and measured: the Maze's rewriters use one opener per row ("Behold," or "Verily I
say unto thee,"), so the markers of one style exclude each other instead, while a generated
corpus's fixed phrases ("not worth a penny") co-occur; it grouped the wrong words.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import numpy as np
import pandas as pd
import scipy.sparse as sp

from shortcutlab.families.audit.scan.candidates import FeatureSet
from shortcutlab.families.audit.scan.stage import rank_candidates
from shortcutlab.families.audit.triage.evidence import SHORTCUT, Evidence
from shortcutlab.families.audit.triage.groups import Triage, Verdict
from shortcutlab.metrics.association import feature_association

#: Word classes whose members form a style when several point to one label.
STYLE_CLASSES = ("discourse marker", "archaic word")
#: Markers a style needs (one marker is its own candidate already).
MIN_MARKERS = 2
#: Markers named in a style's candidate name (all are in its detail).
NAMED = 2


#: Another likely shortcut of the label joins a style when, within the label's rows, it is at
#: least this many times as common in the style's rows as in the others (in at least
#: :data:`MIN_TOGETHER` rows, G-test p below :data:`MAX_P`): "And" that a biblical rewrite
#: puts before its sentences, "am" that it writes for "I'm".
MIN_ENRICHMENT = 2.0
MIN_TOGETHER = 10
MAX_P = 1e-6
#: The likely shortcuts a style may be joined by: the strongest this many (a large data set has
#: thousands; the ones a rewrite adds are among the strongest of its label).
MAX_JOINABLE = 300
#: Joining reads the first this many training rows (the G-test at p < 1e-6 has power to spare
#: there: a word a rewrite adds is in hundreds of them; reading 200,000 cost a fifth of a
#: 200,000-row scan, and 10 million rows would hold gigabytes).
JOIN_SAMPLE_ROWS = 50_000


@dataclass(frozen=True)
class MarkerSet:
    """One style: its word class, label, and markers (feature keys and words, strongest first);
    ``joined``: other likely shortcuts its rows carry far more often (its members too, though
    its rows and its counterfactual edits are its markers')."""

    word_class: str
    label_rank: int
    keys: tuple[str, ...]
    phrases: tuple[str, ...]
    joined: tuple[str, ...] = ()
    joined_phrases: tuple[str, ...] = ()
    #: Its training rows: those with any of its markers (read once, by :func:`marker_sets`).
    fires: np.ndarray | None = field(default=None, repr=False, compare=False)

    @property
    def key(self) -> str:
        return f"style:text:{self.word_class}:{self.phrases[0]}"

    @property
    def name(self) -> str:
        more = len(self.phrases) - NAMED
        shown = ", ".join(self.phrases[:NAMED]) + (f" (+{more})" if more > 0 else "")
        return f"{self.word_class}s: {shown}"


def marker_sets(
    table: pd.DataFrame,
    triage: Triage,
    phrases: dict[str, str | None],
    features: FeatureSet,
    ranks: np.ndarray,
) -> list[MarkerSet]:
    """The styles among ``table``'s significant words: likely shortcuts by a word class of
    :data:`STYLE_CLASSES`, grouped by class and label, in the table's order; each joined by the
    label's other likely shortcuts that its rows carry (:data:`MIN_ENRICHMENT`)."""
    grouped: dict[tuple[str, int], list[str]] = {}
    others: list[str] = []
    for row in table.itertuples():
        verdict = triage.verdicts.get(row.key)
        if verdict is None or verdict.group != SHORTCUT or row.kind not in ("token", "ngram"):
            continue
        if row.part != "text" or pd.isna(row.label_rank):
            continue
        word_class = next(
            (e.value for e in verdict.evidence if e.name == "word class" and e.points_to),
            None,
        )
        if word_class in STYLE_CLASSES:
            # Archaic words are one pastiche whichever label each leans to (a style planted with
            # graded rates splits its words over labels); discourse markers are common in
            # ordinary text, each with its own leaning, so they group by label.
            by = -1 if word_class == "archaic word" else int(row.label_rank)
            grouped.setdefault((str(word_class), by), []).append(row.key)
        else:
            others.append(row.key)
    label_of = dict(zip(table["key"], table["label_rank"], strict=True))
    chosen_sets = [
        MarkerSet(
            word_class, int(label_of[keys[0]]), tuple(keys), tuple(str(phrases[k]) for k in keys)
        )
        for (word_class, _), keys in grouped.items()
        if len(keys) >= MIN_MARKERS  # labelled by the strongest marker's label
    ]
    if not chosen_sets:
        return []
    others = others[:MAX_JOINABLE]
    fires_of_sets, joinable = _read_sets(features, chosen_sets, others)
    sample_ranks = np.asarray(ranks)[:JOIN_SAMPLE_ROWS]
    sets = []
    for j, found in enumerate(chosen_sets):
        fires = fires_of_sets[:, j]
        styled = fires[:JOIN_SAMPLE_ROWS]
        in_label = sample_ranks == found.label_rank
        joined = [] if joinable is None else _enriched(joinable, others, styled, in_label)
        words = tuple(str(phrases[key]) for key in joined)
        sets.append(replace(found, joined=tuple(joined), joined_phrases=words, fires=fires))
    return sets


def _read_sets(
    features: FeatureSet, chosen_sets: Sequence[MarkerSet], others: Sequence[str]
) -> tuple[np.ndarray, sp.csr_matrix | None]:
    """Each set's rows (any of its markers, every row: a style is tested on them) and the
    joinable words over the sample rows (sparse: a dense float copy took 240 MB at 200,000 rows),
    in one pass over the sample and, past it, one over the other rows for the markers alone."""
    markers = [key for chosen in chosen_sets for key in chosen.keys]
    read = features.block(list(dict.fromkeys([*markers, *others])), rows=JOIN_SAMPLE_ROWS)
    column = {key: j for j, key in enumerate(dict.fromkeys([*markers, *others]))}
    sample = np.column_stack(
        [read[:, [column[key] for key in chosen.keys]].any(axis=1) for chosen in chosen_sets]
    )
    joinable = sp.csr_matrix(read[:, [column[key] for key in others]]) if others else None
    del read
    rest = features.any_of([chosen.keys for chosen in chosen_sets], start=JOIN_SAMPLE_ROWS)
    return np.concatenate([sample, rest]), joinable


def _enriched(
    joinable: sp.csr_matrix, keys: Sequence[str], styled: np.ndarray, in_label: np.ndarray
) -> list[str]:
    """The ``keys`` (``joinable``'s columns over the sample rows) whose rows of the label lie in
    the style's (``styled``) rows far more than elsewhere: :data:`MIN_ENRICHMENT` times as
    often, in :data:`MIN_TOGETHER` rows or more, G-test p below :data:`MAX_P`."""
    inside_rows, outside_rows = in_label & styled, in_label & ~styled
    inside, outside = int(inside_rows.sum()), int(outside_rows.sum())
    if not inside or not outside:
        return []
    # Counts for every key in two products over the sample (not a boolean index per key).
    together = np.asarray(joinable.T @ inside_rows.astype(np.float64)).ravel()
    apart = np.asarray(joinable.T @ outside_rows.astype(np.float64)).ravel()
    passing = (together >= MIN_TOGETHER) & (together / inside >= MIN_ENRICHMENT * apart / outside)
    p = g_test_p(together, inside - together, apart, outside - apart)
    return [key for key, kept in zip(keys, passing & (p < MAX_P), strict=True) if kept]


def g_test_p(a: np.ndarray, b: np.ndarray, c: np.ndarray, d: np.ndarray) -> np.ndarray:
    """The p-value of the G-test of independence of each 2×2 table [[a, b], [c, d]], with
    Yates' continuity correction, as ``scipy.stats.chi2_contingency(table,
    lambda_="log-likelihood")`` gives it, for many tables at once.

    Examples:
        >>> from scipy.stats import chi2_contingency
        >>> table = np.array([[30.0, 70.0], [10.0, 190.0]])
        >>> p = g_test_p(*(np.array([x]) for x in table.ravel()))[0]
        >>> bool(np.isclose(p, chi2_contingency(table, lambda_="log-likelihood")[1]))
        True
    """
    from scipy.special import chdtrc, xlogy

    observed = np.stack([a, b, c, d]).astype(np.float64)
    rows = np.stack([a + b, a + b, c + d, c + d]).astype(np.float64)
    columns = np.stack([a + c, b + d, a + c, b + d]).astype(np.float64)
    expected = rows * columns / observed.sum(axis=0)
    shift = expected - observed
    observed = observed + np.sign(shift) * np.minimum(0.5, np.abs(shift))
    with np.errstate(divide="ignore", invalid="ignore"):
        statistic = 2.0 * xlogy(observed, observed / expected).sum(axis=0)
    return chdtrc(1, statistic)


def with_marker_sets(
    table: pd.DataFrame,
    sets: Sequence[MarkerSet],
    features: FeatureSet,
    ranks: np.ndarray,
    labels: Sequence[object],
    *,
    tests: int,
    alpha: float,
) -> pd.DataFrame:
    """``table`` with a ``style`` row per set, ranked among the candidates by its evidence."""
    if not sets:
        return table
    union = sp.csr_matrix(
        np.column_stack(
            [
                chosen.fires if chosen.fires is not None else _fires(features, chosen.keys)
                for chosen in sets
            ]
        ).astype(np.int8)
    )
    stats = feature_association(union, ranks, len(labels))
    rows = []
    for j, chosen in enumerate(sets):
        # Chosen after the scan's tests: Bonferroni over all of them keeps it conservative.
        adjusted = min(1.0, float(stats["p_value"][j]) * max(tests, 1))
        label = int(stats["label"][j])
        rows.append(
            {
                "candidate": chosen.name,
                "kind": "style",
                "part": "text",
                "label": labels[label],
                "support": int(stats["support"][j]),
                "label_count": int(stats["label_count"][j]),
                "p_label_given_candidate": float(stats["p_label"][j]),
                "prior": float(stats["prior"][j]),
                "lift": float(stats["lift"][j]),
                "pmi": float(stats["pmi"][j]),
                "p_value": float(stats["p_value"][j]),
                "p_adjusted": adjusted,
                "significant": adjusted < alpha,
                "evidence": float(stats["evidence"][j]),
                "detail": f"rows with any of: {', '.join(chosen.phrases)}"
                + (
                    f"; its rows also carry: {', '.join(chosen.joined_phrases)}"
                    if chosen.joined
                    else ""
                )
                + f" (p adjusted by Bonferroni over the scan's {tests:,} tests: the set was chosen "
                "after them)",
                "key": chosen.key,
                "label_rank": label,
            }
        )
    ranked = table[table["rank"].notna()].drop(columns="rank")
    unranked = table[table["rank"].isna()]
    merged = rank_candidates(pd.concat([ranked, pd.DataFrame(rows)], ignore_index=True))
    merged = pd.concat([merged, unranked], ignore_index=True)
    merged["rank"] = merged["rank"].astype("Int64")
    return merged


def fires_of(features: FeatureSet, chosen: MarkerSet) -> np.ndarray:
    """The rows of ``features`` with any of the set's markers."""
    return _fires(features, chosen.keys)


def _fires(features: FeatureSet, keys: Sequence[str]) -> np.ndarray:
    return features.any_of([list(keys)])[:, 0]


def add_to_triage(triage: Triage, sets: Sequence[MarkerSet], labels: Sequence[object]) -> None:
    """Each set a likely shortcut with the evidence of its class; its markers its members."""
    for chosen in sets:
        label = labels[chosen.label_rank]
        text = (
            f"{len(chosen.phrases)} {chosen.word_class}s point to label {label}: one style, "
            "read as one finding over the rows with any of them"
        )
        if chosen.joined_phrases:
            shown = ", ".join(f"'{p}'" for p in chosen.joined_phrases[:NAMED])
            more = len(chosen.joined_phrases) - NAMED
            text += (
                f"; {shown}{f' and {more} more' if more > 0 else ''} occur far more often in "
                "its rows than in the label's others, so they are read as part of it"
            )
        text += "."
        evidence = (Evidence("kind", f"{chosen.word_class}s", SHORTCUT, text),)
        judged = triage.judgements.group_of(chosen.name)
        triage.verdicts[chosen.key] = Verdict(
            judged or SHORTCUT, "judged" if judged else "evidence", evidence
        )
        for key in (*chosen.keys, *chosen.joined):
            triage.members[key] = chosen.name
