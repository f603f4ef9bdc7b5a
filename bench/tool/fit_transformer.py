"""The tool's side of bench/transformer_throughput.py: fine-tune the `transformer` backend through
the public API (``shortcutlab.make_model``), as no CLI command trains a model and does nothing
else.

    python bench/tool/fit_transformer.py MODEL_FOLDER DATA.csv EPOCHS BATCH_SIZE LR MAX_LENGTH
"""

import sys

import pandas as pd

from shortcutlab import make_model

folder, data, epochs, batch_size, lr, max_length = sys.argv[1:7]
frame = pd.read_csv(data)
params = {
    "path": folder,
    "epochs": int(epochs),
    "batch_size": int(batch_size),
    "lr": float(lr),
    "max_length": int(max_length),
    "precision": "fp32",
}
model = make_model("transformer", params, seed=0)
model.fit(
    frame["text"].tolist(), frame["label"].to_numpy(), n_classes=int(frame["label"].max()) + 1
)
