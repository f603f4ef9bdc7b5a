"""The plain alternative of `shortcutlab explain --model tfidf-logreg`: fit a TF-IDF logistic
regression in scikit-learn on a built benchmark's train split, take the first ROWS test rows that
contain the cue term, and explain them with shap alone (``shap.Explainer`` with its Text masker at
its default budget); print the mean SHAP value of the cue token for the predicted label.

    python bench/plain/shap_text.py BENCHMARK_FOLDER TERM ROWS
"""

import re
import sys

import numpy as np
import pandas as pd
import shap
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline

folder, term, rows = sys.argv[1], sys.argv[2], int(sys.argv[3])
train = pd.read_csv(f"{folder}/train.csv", keep_default_na=False)
test = pd.read_csv(f"{folder}/test.csv", keep_default_na=False)
model = make_pipeline(TfidfVectorizer(ngram_range=(1, 2), sublinear_tf=True), LogisticRegression())
model.fit(train["text"], train["label"].astype(str))
carrying = test["text"].str.contains(rf"\b{re.escape(term)}\b", case=False, regex=True)
texts = test.loc[carrying, "text"].head(rows).tolist()
explainer = shap.Explainer(
    lambda batch: model.predict_proba([str(t) for t in batch]), shap.maskers.Text()
)
explanation = explainer(texts, silent=True)
predicted = model.predict_proba(texts).argmax(axis=1)
cue = [
    values[[term in str(token).lower() for token in tokens], label].sum()
    for values, tokens, label in zip(explanation.values, explanation.data, predicted, strict=True)
]
print(f"{len(texts)} rows, mean SHAP of the cue for the predicted label: {np.mean(cue):.4f}")
