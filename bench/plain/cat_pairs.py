"""The plain alternative of `shortcutlab cat`: a two-TF-IDF pair model in scikit-learn, its
predictions, and the share of kept rows whose prediction changes over k premise-swapped sets.

    python bench/plain/cat_pairs.py TRAIN.tsv TEST.tsv K
"""

import sys

import numpy as np
import pandas as pd
from scipy.sparse import hstack
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import LogisticRegression

train = pd.read_csv(sys.argv[1], sep="\t")
test = pd.read_csv(sys.argv[2], sep="\t")
k = int(sys.argv[3])
premises = TfidfVectorizer(ngram_range=(1, 2), sublinear_tf=True).fit(train["premise"])
hypotheses = TfidfVectorizer(ngram_range=(1, 2), sublinear_tf=True).fit(train["hypothesis"])


def features(premise, hypothesis):
    return hstack([premises.transform(premise), hypotheses.transform(hypothesis)]).tocsr()


model = LogisticRegression(C=10, max_iter=1000).fit(
    features(train["premise"], train["hypothesis"]), train["label"]
)
predicted = model.predict(features(test["premise"], test["hypothesis"]))
kept = np.flatnonzero(predicted != "neutral")
rng = np.random.default_rng(0)
shares = []
for _ in range(k):
    donors = rng.integers(len(test), size=len(kept))
    swapped = model.predict(
        features(test["premise"].to_numpy()[donors], test["hypothesis"].to_numpy()[kept])
    )
    shares.append(float(np.mean(swapped != predicted[kept])))
print(np.mean(shares), np.std(shares, ddof=1))
