"""The plain alternative of a `shortcutlab run` grid of tfidf-logreg x [erm, reweight]: fit both in
scikit-learn on a built benchmark (group-balanced sample weights by hand) and print the accuracies.

    python bench/plain/reweight_sklearn.py BENCHMARK_FOLDER
"""

import sys

import pandas as pd
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import LogisticRegression

folder = sys.argv[1]


def read(split):
    return pd.read_csv(f"{folder}/{split}.csv", keep_default_na=False)


train, test, anti = read("train"), read("test"), read("anti_test")
groups = train["label"].astype(str) + "|" + train["shortcut"].astype(str)
weights = groups.map(1 / groups.value_counts()).to_numpy()
weights = weights / weights.mean()
for name, w in (("erm", None), ("reweight", weights)):
    vectorizer = TfidfVectorizer(ngram_range=(1, 2), sublinear_tf=True)
    X = vectorizer.fit_transform(train["text"])
    model = LogisticRegression(C=10, max_iter=1000).fit(X, train["label"], sample_weight=w)
    for split, frame in (("test", test), ("anti", anti)):
        accuracy = (model.predict(vectorizer.transform(frame["text"])) == frame["label"]).mean()
        print(name, split, round(accuracy, 3))
