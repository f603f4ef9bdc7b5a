"""The HANS-style sets with and without the pair model's six overlap features (issue 22, item 8).

`tfidf-logreg` on pairs appends six word-overlap features to its two TF-IDF spaces
(models/pair_features.py). A HANS-style set holds hypotheses made of the premise's own words,
entailed or not, so a model with those features predicts entailment for nearly every row by
construction: E near 100 %, not-E near 0 %. With `overlap_features: false` the same model reads two
bags of words only, and the sets show what those learned.

Protocol, as the tutorial runs it: MultiNLI dev-matched split by premise (`shortcutlab split
--by premise --test-size 0.3 --seed 0`), the Suite's generated HANS-style sets built from the test
side (`build suite --sets standard,lexical-overlap,subsequence,constituent`), and `suite evaluate`
of both model variants trained on the train side. Prints accuracy per set, E / not-E on the
two-class sets.

    python bench/hans_overlap.py [--data ../shared/data/mnli-dev-matched/dev_matched.tsv]
        [--size 2400] [--seed 0]
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from shared_data import shared_file

from shortcutlab.data.options import InputOptions
from shortcutlab.data.split_files import write_group_split
from shortcutlab.families.suite.build import build_suite_benchmark
from shortcutlab.families.suite.evaluate import evaluate_suite

DEFAULT_DATA = shared_file("SHORTCUTLAB_MNLI", "mnli-dev-matched", "dev_matched.tsv")
SETS = ("standard", "lexical-overlap", "subsequence", "constituent")
PAIRS = {"text_col": "premise", "text_pair_col": "hypothesis", "label_col": "label"}
VARIANTS = {
    "with overlap features": {},
    "without (overlap_features: false)": {"overlap_features": False},
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--size", type=int, default=2400)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        split = write_group_split(args.data, Path(tmp) / "split", by="premise", seed=args.seed)
        rows = {side: len(r) for side, r in split.split.rows.items()}
        print(f"MultiNLI dev-matched split by premise: {rows['train']:,} train / "
              f"{rows['test']:,} test rows; sets of {args.size:,} rows from the test side")  # fmt: skip
        build_suite_benchmark(
            str(split.files["test"]),
            sets=",".join(SETS),
            size=args.size,
            seed=args.seed,
            inputs=InputOptions(**PAIRS, out=Path(tmp) / "suite"),
        )
        header = ["model", "standard"] + [f"{s} {h}" for s in SETS[1:] for h in ("E", "¬E")]
        print("| " + " | ".join(header) + " |")
        print("|" + "---|" * len(header))
        for name, params in VARIANTS.items():
            evaluation = evaluate_suite(
                Path(tmp) / "suite",
                model="tfidf-logreg",
                model_params=params,
                train=split.files["train"],
                train_options=PAIRS,
                seed=args.seed,
            )
            sets = evaluation.results["strategies"][0]["sets"]
            cells = [f"{100 * sets['standard']['accuracy']:.1f}"]
            for set_name in SETS[1:]:
                for half in ("accuracy_entailment", "accuracy_non_entailment"):
                    cells.append(f"{100 * sets[set_name][half]:.1f}")
            print(f"| tfidf-logreg {name} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
