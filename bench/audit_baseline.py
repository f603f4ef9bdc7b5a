"""What a user writes instead of 'shortcutlab audit': word counts, a likelihood-ratio chi-square
test per token of its label counts against the prior (scipy), Benjamini–Hochberg over all of
them, the most associated tokens to a CSV.

No n-grams, attributes, surface properties, lexicons, leakage or partial-input baselines, no
provenance: the token part of the audit only (bench/audit_speed.py times both).

    python bench/audit_baseline.py DATA.csv OUT.csv [--min-support 20]
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
import pandas as pd
from scipy.stats import power_divergence
from sklearn.feature_extraction.text import CountVectorizer

# Words, n't contractions ("don't") and single characters: the audit's pattern.
TOKEN_PATTERN = r"(?u)\w*n't|\w+"


def scan(data: pd.DataFrame, *, min_support: int = 20) -> pd.DataFrame:
    """Per token (in >= ``min_support`` rows): its label counts against the label prior, the
    likelihood-ratio (G) test of scipy's ``power_divergence`` (the audit's test), BH over all
    tokens, the label with the largest lift; strongest first."""
    vectorizer = CountVectorizer(
        binary=True, lowercase=True, min_df=min_support, token_pattern=TOKEN_PATTERN
    )
    counts = vectorizer.fit_transform(data["text"].astype(str))
    tokens = vectorizer.get_feature_names_out()
    labels, ranks = np.unique(data["label"].to_numpy(), return_inverse=True)
    one_hot = np.eye(len(labels), dtype=np.int64)[ranks]
    observed = np.asarray(counts.T @ one_hot)  # (tokens, labels)
    support = observed.sum(axis=1)
    prior = one_hot.mean(axis=0)
    expected = support[:, None] * prior[None, :]
    statistic, p_values = power_divergence(observed, expected, axis=1, lambda_="log-likelihood")
    lift = observed / expected
    best = lift.argmax(axis=1)
    rows = np.arange(len(tokens))
    table = pd.DataFrame(
        {
            "token": tokens,
            "label": labels[best],
            "support": support,
            "label_count": observed[rows, best],
            "lift": lift[rows, best],
            "g": statistic,
            "p_value": p_values,
            "p_adjusted": benjamini_hochberg(p_values),
        }
    )
    # By the statistic, not p: on a million rows many p-values underflow to 0.
    ordered = table.sort_values(["g", "token"], ascending=[False, True])
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
