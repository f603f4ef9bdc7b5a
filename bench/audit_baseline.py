"""What a user writes instead of 'shortcutlab audit': word counts and a chi-square test per token
and label, Benjamini–Hochberg over all of them, the most associated tokens to a CSV.

No n-grams, attributes, surface properties, lexicons, leakage or partial-input baselines, no
provenance: the token part of the audit only (bench/audit_speed.py times both).

    python bench/audit_baseline.py DATA.csv OUT.csv [--min-support 20]
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.feature_extraction.text import CountVectorizer
from sklearn.feature_selection import chi2

# Words, contractions ("don't") and single characters, as the audit tokenises.
TOKEN_PATTERN = r"(?u)\b\w[\w']*\b"


def scan(data: pd.DataFrame, *, min_support: int = 20) -> pd.DataFrame:
    """Per token (in >= ``min_support`` rows) and label: support, rows with the label, lift,
    chi-square statistic and p (sklearn's, on the label's indicator) and the BH-adjusted p; the
    tokens that point towards the label (lift > 1), strongest first."""
    vectorizer = CountVectorizer(
        binary=True, lowercase=True, min_df=min_support, token_pattern=TOKEN_PATTERN
    )
    counts = vectorizer.fit_transform(data["text"].astype(str)).tocsc()
    tokens = vectorizer.get_feature_names_out()
    support = np.asarray(counts.sum(axis=0)).ravel()
    labels = data["label"].to_numpy()
    tables = []
    for label in np.unique(labels):
        has_label = (labels == label).astype(int)
        statistic, p_values = chi2(counts, has_label)
        with_label = counts.T @ has_label
        lift = (with_label / support) / has_label.mean()
        tables.append(
            pd.DataFrame(
                {
                    "token": tokens,
                    "label": label,
                    "support": support,
                    "label_count": with_label,
                    "lift": lift,
                    "chi2": statistic,
                    "p_value": p_values,
                }
            )
        )
    table = pd.concat(tables, ignore_index=True)
    table["p_adjusted"] = benjamini_hochberg(table["p_value"].to_numpy())
    table = table[table["lift"] > 1]  # chi-square is two-sided: keep the positive associations
    # By the statistic, not p: on a million rows many p-values underflow to 0 (one dof throughout).
    ordered = table.sort_values(["chi2", "token", "label"], ascending=[False, True, True])
    return ordered.reset_index(drop=True)


def benjamini_hochberg(p_values: np.ndarray) -> np.ndarray:
    order = np.argsort(p_values, kind="stable")
    ranked = p_values[order] * len(p_values) / np.arange(1, len(p_values) + 1)
    adjusted = np.minimum.accumulate(ranked[::-1])[::-1].clip(max=1.0)
    out = np.empty_like(adjusted)
    out[order] = adjusted
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("data", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--min-support", type=int, default=20)
    args = parser.parse_args()
    scan(pd.read_csv(args.data), min_support=args.min_support).to_csv(args.out, index=False)


if __name__ == "__main__":
    main()
