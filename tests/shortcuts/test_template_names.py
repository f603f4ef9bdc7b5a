"""The category cue counter: the RE2 pass over many texts agrees with the one-text regex."""

import random

import numpy as np

from shortcutlab.shortcuts.phrases import parse_phrase
from shortcutlab.shortcuts.template_names import NamedSentences, load_name_list

LEAD = "I wrote this review in"


def _texts(names, rng, n):
    pieces = ["Good food.", "", " ", "\u00a0", "\n", "é", "Iwrote", "_", "2", LEAD, LEAD.upper()]
    out = []
    for _ in range(n):
        if rng.random() < 0.6:  # a template sentence, spelled and spaced in many ways
            case = rng.choice([str, str.lower, str.upper])
            space = rng.choice([" ", "  ", "\u00a0", "\n", "\t"])
            touching = f"Nice.{LEAD} {names[0]}."  # two sentences with no space between them
            before = rng.choice(["", "x", "2", "_", ". ", "(", "é", touching])
            after = rng.choice([".", ". ", "!", "", ".x", "s."])
            text = before + case(LEAD) + space + case(rng.choice(names)) + after
        else:
            text = ""
        out.append(text + "".join(rng.choice(pieces) for _ in range(rng.randrange(4))))
    return out


def test_re2_count_equals_the_regex_count_on_tricky_texts():
    countries, cities = load_name_list("countries_train"), load_name_list("cities_train")
    count = NamedSentences(
        parse_phrase(LEAD, everywhere=True), ".", [*countries, *cities], wanted=set(countries)
    )
    texts = _texts([*countries, *cities, "Nowhere"], random.Random(3), 5000)
    fast = count(texts)
    slow = np.array([count.count_one(t) for t in texts])
    assert (slow > 0).sum() > 500 and (slow > 1).any()
    assert fast.tolist() == slow.tolist()


def test_the_re2_white_space_ranges_are_pythons_white_space():
    import re

    from shortcutlab.shortcuts.text_ops import RE2_WHITESPACE_RANGES

    spans = re.findall(r"\\x\{([0-9a-f]+)\}(?:-\\x\{([0-9a-f]+)\})?", RE2_WHITESPACE_RANGES)
    listed = {c for a, b in spans for c in range(int(a, 16), int(b or a, 16) + 1)}
    assert listed == {c for c in range(0x110000) if chr(c).isspace()}
