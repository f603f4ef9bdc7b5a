"""The plain alternative of a shortcut's cleaning: one case-insensitive regex of the cue phrases
(word-bounded, longest first) over the text column with pandas, the per-row count of matches, and
the cleaned rows written. No markers, joints or kept occurrences as shortcutlab handles them.

    python bench/plain/clean_regex.py ROWS.csv PHRASES.txt OUT.csv
"""

import re
import sys

import pandas as pd

rows, phrases, out = sys.argv[1:4]
with open(phrases, encoding="utf-8") as lines:
    terms = sorted({line.strip() for line in lines if line.strip()}, key=len, reverse=True)
pattern = re.compile(r"\b(?:" + "|".join(map(re.escape, terms)) + r")\b", re.IGNORECASE)
frame = pd.read_csv(rows, keep_default_na=False)
removed = frame["text"].str.count(pattern)
cleaned = frame["text"].str.replace(pattern, "", regex=True).str.replace(r"\s{2,}", " ", regex=True)
pd.DataFrame({"text": cleaned.str.strip(), "removed": removed}).to_csv(out, index=False)
