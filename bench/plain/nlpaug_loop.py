"""The plain alternative of shortcutlab's perturbations: a loop over the texts per class, with
nlpaug's character augmenters for the typos (seeded through the global random state, the only way
nlpaug offers) and a line of Python for the classes nlpaug has no augmenter for. Writes one column
per class; prints the seconds the perturbing took (no reading, no writing).

    python bench/plain/nlpaug_loop.py ROWS.csv OUT.csv CLASS [CLASS ...]
"""

import random
import re
import sys
import time

import nlpaug.augmenter.char as nac
import numpy as np
import pandas as pd

CONTRACTIONS = {"don't": "do not", "can't": "cannot", "isn't": "is not", "it's": "it is",
                "i'm": "i am", "won't": "will not", "doesn't": "does not", "didn't": "did not",
                "that's": "that is", "there's": "there is", "you're": "you are"}  # fmt: skip
CONTRACTION = re.compile(r"\b(" + "|".join(map(re.escape, CONTRACTIONS)) + r")\b", re.I)
PUNCTUATION = re.compile(r"[^\w\s]")
no_digits = {"include_numeric": False, "include_special_char": False}
AUGMENTERS = {
    "typos-keyboard": lambda: nac.KeyboardAug(**no_digits, include_upper_case=False),
    "typos-swap": lambda: nac.RandomCharAug(action="swap"),
    "typos-ocr": lambda: nac.OcrAug(),
}


def perturbed(name: str, texts: list[str], rng: random.Random) -> list[str]:
    if name in AUGMENTERS:
        augmenter = AUGMENTERS[name]()
        return [augmenter.augment(text)[0] if text.strip() else text for text in texts]
    if name == "case-upper":
        return [text.upper() for text in texts]
    if name == "case-lower":
        return [text.lower() for text in texts]
    if name == "case-title":
        return [text.title() for text in texts]
    if name == "punctuation-strip":
        return [PUNCTUATION.sub("", text) for text in texts]
    if name == "punctuation-add":
        return [text + rng.choice("!?.") for text in texts]
    if name == "whitespace-newlines":
        return ["".join("\n" if c == " " and rng.random() < 0.2 else c for c in t) for t in texts]
    if name == "contractions-expand":
        return [CONTRACTION.sub(lambda m: CONTRACTIONS[m[0].lower()], text) for text in texts]
    raise SystemExit(f"no plain equivalent of {name}")


rows, out, *names = sys.argv[1:]
texts = pd.read_csv(rows, keep_default_na=False)["text"].tolist()
random.seed(0)  # nlpaug draws from the global random and numpy states
np.random.seed(0)
started = time.perf_counter()
columns = {name: perturbed(name, texts, random.Random(0)) for name in names}
print(f"{time.perf_counter() - started:.3f}")
pd.DataFrame(columns).to_csv(out, index=False)
