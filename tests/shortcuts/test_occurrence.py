import re

import numpy as np
import pandas as pd
import pytest

from shortcutlab.data import LabelSpace
from shortcutlab.errors import ConfigError, UnknownComponentError
from shortcutlab.shortcuts import SplitPlan, make_shortcut
from shortcutlab.shortcuts.occurrence import PAPER_SYNONYMS
from shortcutlab.shortcuts.template_names import load_name_list

TEXTS = ["The food was cold. Service was slow! We left.", "Nice place.", "Good. Bad. Ugly."] * 40
LABELS = LabelSpace((0, 1))


def _plan(anti=False, strength=1.0, role="train"):
    ranks = np.array([i % 2 for i in range(len(TEXTS))])
    return SplitPlan(ranks=ranks, labels=LABELS, strength=strength, anti=anti, role=role)


def test_single_term_inserts_once_at_a_sentence_start_and_changes_nothing_else():
    injection = make_shortcut("single-term").inject(TEXTS, _plan(), np.random.SeedSequence(0))
    positions = set()
    for before, after, value in zip(TEXTS, injection.texts, injection.shortcut, strict=True):
        if not value:
            assert after == before
            continue
        assert after.count("Honestly, ") == 1
        position = after.index("Honestly, ")
        # The sentence's own first word ("The", "Service", "Good"...) goes lower-case after it.
        assert after.replace("Honestly, ", "", 1) == (
            before[:position] + before[position].lower() + before[position + 1 :]
        )
        assert position == 0 or re.search(r"[.!?]\s$", after[:position])
        positions.add(position)
    assert len(positions) > 2  # sentences are chosen at random, not always the first


# What follows the cue: an ordinary word loses its capital; "I", an acronym, a name a list knows
# and anything that is not a capital then small letters keep theirs.
FOLLOWERS = {
    "The lid is fine.": "Honestly, the lid is fine.",
    "It's fine.": "Honestly, it's fine.",
    "Service was slow!": "Honestly, service was slow!",
    "I liked it.": "Honestly, I liked it.",
    "I'm done.": "Honestly, I'm done.",
    "USB is flaky.": "Honestly, USB is flaky.",
    "McDonald's was late.": "Honestly, McDonald's was late.",
    "Monday was slow.": "Honestly, Monday was slow.",
    "[NAME] is right.": "Honestly, [NAME] is right.",
    '"Wow" he said.': 'Honestly, "Wow" he said.',
    "Émile was there.": "Honestly, Émile was there.",
    "A bit loud.": "Honestly, a bit loud.",
    "3 stars.": "Honestly, 3 stars.",
}


@pytest.mark.parametrize("shortcut", ["single-term", "synonym"])
def test_the_word_after_the_cue_reads_as_the_middle_of_a_sentence(shortcut):
    """The same texts whether rendered per row (``inject``) or by Arrow kernels (a build)."""
    from shortcutlab.data.columns import string_array

    injector = make_shortcut(shortcut, {"terms": ["honestly"]} if shortcut == "synonym" else {})
    texts = [f"Café noir. {t}" for t in FOLLOWERS] + list(FOLLOWERS)
    n = len(texts)
    plan = SplitPlan(ranks=np.ones(n, dtype=np.int64), labels=LABELS, strength=1.0)
    draws = injector.draw(plan, np.random.SeedSequence(3))
    draws.numbers["sentence"][: len(FOLLOWERS)] = 0.99  # the second sentence: after "Café noir. "
    per_row, _, spans = injector.render_with_spans(texts, draws, plan)
    columns = injector.render_columns(string_array(texts), draws, plan)
    assert columns.texts.to_pylist() == per_row
    expected = [f"Café noir. {after}" for after in FOLLOWERS.values()] + list(FOLLOWERS.values())
    assert per_row == expected
    assert all(
        text[slice(*span[0])] == "Honestly, " for text, span in zip(per_row, spans, strict=True)
    )


@pytest.mark.parametrize("shortcut", ["single-term", "synonym"])
def test_next_word_keep_inserts_the_cue_and_changes_nothing_else(shortcut):
    """The release's way (``next_word: keep``): per row and by Arrow kernels alike."""
    from shortcutlab.data.columns import string_array

    options = {"terms": ["honestly"]} if shortcut == "synonym" else {}
    injector = make_shortcut(shortcut, {**options, "next_word": "keep"})
    texts = list(FOLLOWERS)
    plan = SplitPlan(ranks=np.ones(len(texts), dtype=np.int64), labels=LABELS, strength=1.0)
    draws = injector.draw(plan, np.random.SeedSequence(3))
    per_row, _, _ = injector.render_with_spans(texts, draws, plan)
    assert per_row == [f"Honestly, {text}" for text in texts]
    assert injector.render_columns(string_array(texts), draws, plan).texts.to_pylist() == per_row


def test_an_unknown_next_word_is_refused_naming_the_choices():
    injector = make_shortcut("single-term", {"next_word": "upper"})
    plan = SplitPlan(ranks=np.ones(2, dtype=np.int64), labels=LABELS, strength=1.0)
    with pytest.raises(ConfigError, match="'next_word' parameter of single-term must be one of"):
        injector.inject(["A.", "B."], plan, np.random.SeedSequence(0))


def test_synonym_uses_the_papers_fifteen_phrases_uniformly():
    assert len(PAPER_SYNONYMS) == 15 and len(set(PAPER_SYNONYMS)) == 15
    texts = ["One sentence here."] * 3000
    plan = SplitPlan(ranks=np.ones(3000, dtype=np.int64), labels=LABELS, strength=1.0)
    injection = make_shortcut("synonym").inject(texts, plan, np.random.SeedSequence(0))
    counts = pd.Series(injection.shortcut).value_counts()
    assert set(counts.index) == set(PAPER_SYNONYMS)
    assert counts.min() > 3000 / 15 - 4 * np.sqrt(3000 / 15)
    assert all(
        t.startswith(p[0].upper() + p[1:] + ", ")
        for t, p in zip(injection.texts, injection.shortcut, strict=True)
    )


def test_single_term_removal_counts_pre_existing_occurrences():
    cleaning = make_shortcut("single-term", {"term": "frankly"}).clean(
        ["Frankly, no.", "Frankly frankly", "ok"]
    )
    assert cleaning.texts == ["No.", "", "ok"]
    assert cleaning.removed.tolist() == [1, 2, 0] and cleaning.kept.tolist() == [0, 0, 0]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # Issue 7: GoEmotions train row 1037, which became "Honestly, Honestly- live ..." at λ=1.
        (
            "Honestly- live your life as a person who can love what others hate- because that\u2019s "
            "just a little more joy in your life versus their hate.",
            "Live your life as a person who can love what others hate- because that\u2019s just a "
            "little more joy in your life versus their hate.",
        ),
        ("I said 'honestly' twice", "I said twice"),
        ("I said \u2018honestly\u2019 twice", "I said twice"),
        ("(honestly) fine", "fine"),
        ('"Honestly," he said', "He said"),
    ],
)
def test_single_term_removes_every_occurrence_a_tokenizer_sees(text, expected):
    cleaning = make_shortcut("single-term").clean([text, "dishonestly done"])
    assert cleaning.texts == [expected, "dishonestly done"]
    assert cleaning.removed.tolist() == [1, 0]


def test_synonym_cleaning_keeps_ordinary_phrases_and_counts_them():
    texts = [
        "I believe in truth and justice.",
        "He had to come clean to his wife.",
        "In truth, it was fine.",
        "Fine, to be honest.",
    ]
    cleaning = make_shortcut("synonym").clean(texts)
    assert cleaning.texts == texts[:2] + ["It was fine.", "Fine."]
    assert cleaning.removed.tolist() == [0, 0, 1, 1] and cleaning.kept.tolist() == [1, 1, 0, 0]


def test_phrase_observe_counts_the_cue_in_the_output_texts():
    plan = SplitPlan(ranks=np.zeros(4, dtype=np.int64), labels=LABELS, strength=1.0)
    texts = [
        "Honestly, fine.",
        "Fine. To be frank, ok",
        "I believe in truth.",
        "Honestly, honestly",
    ]
    assert make_shortcut("synonym").observe(texts, plan).tolist() == [1, 1, 0, 2]
    assert make_shortcut("single-term").observe(texts, plan).tolist() == [1, 0, 0, 2]


def test_category_lists_meet_the_size_and_disjointness_requirements():
    lists = {
        name: load_name_list(name)
        for name in ("countries_train", "countries_test", "cities_train", "cities_test")
    }
    assert len(lists["countries_train"]) >= 150 and len(lists["countries_test"]) >= 46
    assert len(lists["cities_train"]) >= 60 and len(lists["cities_test"]) >= 40
    assert not set(lists["countries_train"]) & set(lists["countries_test"])
    assert not set(lists["cities_train"]) & set(lists["cities_test"])
    country_words = {
        w for n in lists["countries_train"] + lists["countries_test"] for w in n.lower().split()
    }
    city_words = {
        w for n in lists["cities_train"] + lists["cities_test"] for w in n.lower().split()
    }
    assert not country_words & city_words


@pytest.mark.parametrize("role", ["train", "test"])
def test_category_prepends_a_country_or_city_from_the_roles_list(role):
    shortcut = make_shortcut("category")
    injection = shortcut.inject(TEXTS, _plan(role=role), np.random.SeedSequence(0))
    countries, cities = (
        set(load_name_list(f"countries_{role}")),
        set(load_name_list(f"cities_{role}")),
    )
    for before, after, value in zip(TEXTS, injection.texts, injection.shortcut, strict=True):
        name = re.match(r"I wrote this review in (.+?)\. ", after).group(1)
        assert after.endswith(before)
        assert name in (countries if value == "country" else cities)


def test_category_removes_template_sentences_and_validates_options():
    cleaning = make_shortcut("category").clean(
        [
            "I wrote this review in Oslo. Fine.",
            "Fine. I wrote this review in the Kingdom of Spain.",
            '"I wrote this review in Peru." Fine.',
            "i  wrote this review in a hurry",
        ]
    )
    assert cleaning.texts == ["Fine.", "Fine.", "Fine.", ""]
    assert cleaning.removed.tolist() == [1, 1, 1, 1]
    with pytest.raises(ConfigError, match="must contain '\\{name\\}' exactly once"):
        make_shortcut("category", {"template": "Written somewhere."}).clean(["x"])
    with pytest.raises(ConfigError, match="must have words and a space before"):
        make_shortcut("category", {"template": "({name})"}).clean(["x"])


@pytest.mark.parametrize("role", ["train", "test"])
def test_category_observe_reads_the_country_from_the_text(role):
    shortcut = make_shortcut("category")
    plan = _plan(role=role)
    injection = shortcut.inject(TEXTS, plan, np.random.SeedSequence(0))
    countries = set(load_name_list(f"countries_{role}"))
    named = [re.match(r"I wrote this review in (.+?)\. ", t).group(1) for t in injection.texts]
    observed = shortcut.observe(injection.texts, plan)
    assert observed.tolist() == [int(n in countries) for n in named]
    assert 0 < observed.sum() < len(TEXTS)
    doubled = [t + " I wrote this review in " + sorted(countries)[0] + "." for t in TEXTS[:2]]
    assert shortcut.observe(doubled, plan).tolist() == [1, 1]
    assert shortcut.observe([injection.texts[0].upper()], plan).tolist() == [observed[0]]
    with pytest.raises(ConfigError, match="share oslo"):
        make_shortcut("category", {"train_countries": ["Oslo"], "train_cities": ["Oslo"]}).validate(
            LABELS
        )


def test_custom_category_template_and_lists():
    shortcut = make_shortcut(
        "category",
        {"template": "Posted from {name}.", "train_countries": ["Chile"], "train_cities": ["Lima"]},
    )
    injection = shortcut.inject(
        ["Good."] * 4,
        SplitPlan(ranks=np.array([0, 0, 1, 1]), labels=LABELS, strength=1.0),
        np.random.SeedSequence(0),
    )
    assert injection.texts == ["Posted from Lima. Good."] * 2 + ["Posted from Chile. Good."] * 2


def test_unknown_shortcut_and_option_names():
    with pytest.raises(
        UnknownComponentError, match="Unknown shortcut 'single-trem'. Did you mean 'single-term'"
    ):
        make_shortcut("single-trem")
    with pytest.raises(ConfigError, match="has no option 'terms'. Its options are: term"):
        make_shortcut("single-term", {"terms": ["a"]})
    with pytest.raises(ConfigError, match="non-empty list of non-empty strings"):
        make_shortcut("single-term", {"term": ""}).clean(["x"])
