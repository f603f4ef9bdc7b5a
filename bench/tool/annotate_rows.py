"""The tool's side of bench/annotator_throughput.py: annotate every row with the negation and
question attributes through the public API (``shortcutlab.attributes.make_attribute``) and write
the values; no CLI command annotates and does nothing else (`build mps` also splits and writes).

    python bench/tool/annotate_rows.py ROWS.csv OUT.csv
"""

import sys

import pandas as pd

from shortcutlab.attributes import make_attribute

rows, out = sys.argv[1:3]
texts = pd.read_csv(rows, keep_default_na=False)["text"].tolist()
values = {name: make_attribute(name).annotate(texts).values for name in ("negation", "question")}
pd.DataFrame(values).to_csv(out, index=False)
