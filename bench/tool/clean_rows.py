"""The tool's side of bench/cleaning_throughput.py: remove a shortcut's pre-existing cue from every
row through the public API (``shortcutlab.make_shortcut(NAME).clean``) and write the cleaned rows
with their per-row counts; no CLI command cleans and does nothing else (`build maze` also draws,
inserts and writes every split).

    python bench/tool/clean_rows.py ROWS.csv SHORTCUT OUT.csv
"""

import sys

import pandas as pd

from shortcutlab import make_shortcut

rows, name, out = sys.argv[1:4]
frame = pd.read_csv(rows, keep_default_na=False)
cleaning = make_shortcut(name).clean(frame["text"].tolist())
pd.DataFrame({"text": cleaning.texts, "removed": cleaning.removed}).to_csv(out, index=False)
