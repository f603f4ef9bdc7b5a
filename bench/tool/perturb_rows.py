"""The tool's side of bench/perturb_speed.py: perturb every row with each named class through the
public API (``shortcutlab.perturb.perturb``) and write one column per class; prints the seconds the
perturbing took (no reading, no writing).

    python bench/tool/perturb_rows.py ROWS.csv OUT.csv CLASS [CLASS ...]
"""

import sys
import time

import pandas as pd

from shortcutlab.perturb import perturb

rows, out, *names = sys.argv[1:]
frame = pd.read_csv(rows, keep_default_na=False)
values = sorted(frame["label"].unique())
labels = frame["label"].map(values.index).to_numpy()
texts = frame["text"].tolist()
started = time.perf_counter()
columns = {name: perturb(name, texts, labels, label_values=values, seed=0).texts for name in names}
print(f"{time.perf_counter() - started:.3f}")
pd.DataFrame(columns).to_csv(out, index=False)
