"""The plain alternative of the negation and question annotators: pandas string methods with one
regex each (the lexicon of negation words as whole words, any n't contraction; a question mark).

    python bench/plain/annotate_regex.py ROWS.csv OUT.csv
"""

import sys

import numpy as np
import pandas as pd

rows, out = sys.argv[1:3]
text = pd.read_csv(rows, keep_default_na=False)["text"].str.lower().str.replace("\u2019", "'")
text = text.str.replace(r"\s+n't", "n't", regex=True)
negation = text.str.contains(r"\b(?:not|no|none|nobody|never|nothing|[a-z0-9]*n't)(?![a-z0-9'])")
question = text.str.contains("[?\uff1f]")
values = {
    "negation": np.where(negation, "with_negation", "without_negation"),
    "question": np.where(question, "with_question", "without_question"),
}
pd.DataFrame(values).to_csv(out, index=False)
