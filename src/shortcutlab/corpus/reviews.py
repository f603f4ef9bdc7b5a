"""The embedded default corpus: deterministic product reviews with an ordinal rating.

Each row is a multi-sentence review rating one primary aspect (how well the product works, labels
1..K) and, in separate columns, short reviews of distractor aspects (appearance, delivery, service)
with their own ratings, like the Beer data's palate / aroma / appearance (Shortcut Maze, A.1).
Sentence sentiment scatters around the rating, and negations, hedges, mixed clauses and filler keep
a TF-IDF model clearly imperfect, as on real data.

Examples:
    >>> frame = generate_reviews(3, seed=1)
    >>> list(frame.columns)[:3]
    ['text', 'label', 'product']
    >>> generate_reviews(3, seed=1).equals(frame)
    True
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from shortcutlab.corpus import lexicon as lx
from shortcutlab.errors import ConfigError
from shortcutlab.params import quoted

DISTRACTOR_ASPECTS = tuple(lx.DISTRACTORS)
LEVELS = (4, 5)


class _Writer:
    """Draws words and sentences from the lexicon with one seeded generator."""

    def __init__(self, rng: np.random.Generator, noise: float) -> None:
        self.rng = rng
        self.noise = noise

    def pick(self, options):  # type: ignore[no-untyped-def]
        return options[int(self.rng.integers(len(options)))]

    def chance(self, p: float) -> bool:
        return bool(self.rng.random() < p)

    def bucket(self, centre: float, noise: float | None = None) -> int:
        spread = self.noise if noise is None else noise
        return int(np.clip(np.rint(centre + self.rng.normal(0.0, spread)), -2, 2))

    def fill(self, template: str, product: str, tasks: tuple[str, ...]) -> str:
        return template.format(
            relative=self.pick(lx.RELATIVES),
            duration=self.pick(lx.DURATIONS),
            product=f"pair of {product}" if product in lx.PLURAL_PRODUCTS else product,
            colour=self.pick(lx.COLOURS),
            frequency=self.pick(lx.FREQUENCIES),
            month=self.pick(lx.MONTHS),
            task=self.pick(tasks),
            place=self.pick(lx.PLACES),
            time=self.pick(lx.TIMES),
        )

    def described(self, bucket: int) -> str:
        """An adjective phrase for a sentiment bucket, maybe intensified or negated."""
        roll = self.rng.random()
        if bucket in lx.NEGATIONS and roll < 0.25:
            return self.pick(lx.NEGATIONS[bucket])
        adjective = self.pick(lx.ADJECTIVES[bucket])
        if roll < 0.6:
            return f"{self.pick(lx.INTENSIFIERS[bucket])} {adjective}"
        return adjective

    def feature_sentence(self, bucket: int, features, product: str, tasks) -> str:  # type: ignore[no-untyped-def]
        noun, plural = self.pick(features)
        kind = self.rng.random()
        if kind < 0.45:
            return f"The {noun} {'are' if plural else 'is'} {self.described(bucket)}."
        if kind < 0.75:
            subjects = (
                ("It", "This thing", "This one")
                if product in lx.PLURAL_PRODUCTS
                else (f"The {product}", "It", "This thing", "This one")
            )
            subject = self.pick(subjects)
            return f"{subject} {self.fill(self.pick(lx.VERB_PHRASES[bucket]), product, tasks)}."
        if kind < 0.9:
            return f"I found the {noun} {self.described(bucket)}."
        return f"{'Really' if abs(bucket) == 2 else 'Pretty'} {self.pick(lx.ADJECTIVES[bucket])} {noun}, {self.pick(('in my opinion', 'I would say', 'for what it is', 'if you ask me'))}."

    def mixed_sentence(self, bucket: int, features, product: str) -> str:  # type: ignore[no-untyped-def]
        (first, first_plural), (second, second_plural) = (
            features[i] for i in self.rng.choice(len(features), 2, replace=False)
        )
        up, down = (
            min(bucket + 1 + int(self.chance(0.4)), 2),
            max(bucket - 1 - int(self.chance(0.4)), -2),
        )
        good, bad = (up, down) if self.chance(0.5) else (down, up)
        joiner = self.pick((", but", ", while", "; on the other hand,", ", although"))
        return (
            f"The {first} {'are' if first_plural else 'is'} {self.described(good)}{joiner} "
            f"the {second} {'are' if second_plural else 'is'} {self.described(bad)}."
        )

    def distractor(self, aspect: str, rating_bucket: int) -> str:
        spec = lx.DISTRACTORS[aspect]
        sentences = []
        for _ in range(1 + int(self.chance(0.45))):
            bucket = self.bucket(rating_bucket, 0.45)
            if self.chance(0.45):
                sentences.append(self.pick(spec["phrases"][bucket]))  # type: ignore[index]
                continue
            noun, plural = self.pick(spec["nouns"])  # type: ignore[arg-type]
            own = spec["adjectives"][bucket]  # type: ignore[index]
            words = (
                self.pick(own)
                if self.chance(0.5)
                else _intensified(self, bucket, lx.GENERIC_ADJECTIVES[bucket])
            )
            sentences.append(f"The {noun} {'were' if plural else 'was'} {words}.")
        return " ".join(dict.fromkeys(sentences))


def _intensified(writer: _Writer, bucket: int, adjectives: tuple[str, ...]) -> str:
    adjective = writer.pick(adjectives)
    return (
        f"{writer.pick(lx.INTENSIFIERS[bucket])} {adjective}" if writer.chance(0.5) else adjective
    )


def _lowered(sentence: str) -> str:
    """Lower-case a sentence's first letter to follow a hedge, leaving "I" and "I'd" alone."""
    return (
        sentence
        if sentence.split(" ")[0].split("'")[0] == "I"
        else sentence[:1].lower() + sentence[1:]
    )


def _centre(rating: int, levels: int) -> float:
    """Map rating 1..K onto the sentiment scale -2..+2."""
    return 4.0 * (rating - 1) / (levels - 1) - 2.0


def _natural_cue(writer: _Writer, sentence: str) -> str:
    template = writer.pick(lx.NATURAL_CUES)
    return template.format(
        sentence=_lowered(sentence),
        sentence_no_period=sentence.rstrip("."),
        place_name=writer.pick(lx.CUE_PLACES),
    )


def _review(writer: _Writer, rating: int, levels: int, vague_share: float) -> tuple[str, str]:
    product, features, tasks = writer.pick(lx.PRODUCTS)
    centre = _centre(rating, levels)
    # Real review sets mix explicit reviews with vague ones ("Bought it for my son. It works.");
    # on the vague ones a model has little to go on, which is where shortcuts take over.
    vague = writer.chance(vague_share)
    opinions = 1 if vague else int(writer.rng.integers(2, 5))
    noise = writer.noise * 1.6 if vague else None
    sentences: list[str] = []
    for _ in range(opinions):
        bucket = writer.bucket(centre, noise)
        if writer.chance(0.2):
            sentences.append(writer.mixed_sentence(bucket, features, product))
        else:
            sentences.append(writer.feature_sentence(bucket, features, product, tasks))
    if not vague and writer.chance(0.55):
        hedge = writer.pick(lx.HEDGES)
        summary = writer.pick(lx.SUMMARIES[writer.bucket(centre)])
        sentences.append(hedge + (_lowered(summary) if hedge else summary))
    for _ in range(int(writer.rng.integers(1 if vague else 0, 3))):
        position = int(writer.rng.integers(len(sentences) + 1))
        sentences.insert(position, writer.fill(writer.pick(lx.FILLERS), product, tasks))
    if writer.chance(0.03):  # a few natural occurrences of the occurrence-shortcut vocabulary
        position = int(writer.rng.integers(len(sentences)))
        sentences[position] = _natural_cue(writer, sentences[position])
    return " ".join(sentences), product


def _with_question(rng: np.random.Generator, text: str, centre: float, noise: float) -> str:
    """Insert a rhetorical question (answered in the rating's sentiment) or an aside question."""
    sentences = text.split(". ")
    if rng.random() < 0.75:
        bucket = int(np.clip(np.rint(centre + rng.normal(0.0, noise)), -2, 2))
        answers = lx.ANSWERS[bucket]
        question = (
            f"{lx.QUESTIONS[int(rng.integers(len(lx.QUESTIONS)))]} "
            f"{answers[int(rng.integers(len(answers)))]}"
        )
    else:
        question = lx.ASIDE_QUESTIONS[int(rng.integers(len(lx.ASIDE_QUESTIONS)))]
    position = int(rng.integers(len(sentences) + 1))
    if position == len(sentences):
        return f"{text} {question}"
    # The question keeps its own "?" (or its answer's "."): the sentence before it gets its "."
    # back, and no ". " follows a "?" (it wrote "thin?. We" in 62 training texts).
    before, after = ". ".join(sentences[:position]), ". ".join(sentences[position:])
    return f"{before}. {question} {after}" if before else f"{question} {after}"


def generate_reviews(
    n: int,
    *,
    levels: int = 5,
    seed: int | np.random.SeedSequence = 0,
    noise: float = 0.6,
    vague_share: float = 0.3,
    question_share: float = 0.08,
) -> pd.DataFrame:
    """Generate ``n`` reviews with balanced ratings 1..``levels``.

    Columns: ``text``, ``label``, ``product`` and, for each distractor aspect, ``ASPECT_text`` and
    ``ASPECT_label`` (its own rating: equal to the main rating 40 % of the time, otherwise uniform,
    so aspects correlate moderately as in real multi-aspect data). ``noise`` is the spread of
    sentence sentiment around the rating, in buckets; ``vague_share`` the share of short reviews
    with one noisy opinion; ``question_share`` the share of reviews holding a question (MPS's QBS).
    """
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ConfigError(f"The 'n' parameter must be a positive integer. Got {quoted(n)} instead.")
    if levels not in LEVELS:
        raise ConfigError(f"The 'levels' parameter must be 4 or 5. Got {quoted(levels)} instead.")
    rng = np.random.default_rng(seed)
    writer = _Writer(rng, noise)
    ratings = np.resize(np.arange(1, levels + 1), n)
    rng.shuffle(ratings)
    columns: dict[str, list] = {"text": [], "label": [], "product": []}
    for aspect in DISTRACTOR_ASPECTS:
        columns[f"{aspect}_text"], columns[f"{aspect}_label"] = [], []
    for rating in ratings.tolist():
        text, product = _review(writer, rating, levels, vague_share)
        columns["text"].append(text)
        columns["label"].append(rating)
        columns["product"].append(product)
        for aspect in DISTRACTOR_ASPECTS:
            own = rating if writer.chance(0.4) else int(rng.integers(1, levels + 1))
            columns[f"{aspect}_text"].append(writer.distractor(aspect, round(_centre(own, levels))))
            columns[f"{aspect}_label"].append(own)
    # Questions come from their own stream, so adding them left every other draw unchanged.
    sequence = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed)
    asking = np.random.default_rng(
        np.random.SeedSequence(sequence.entropy, spawn_key=(*sequence.spawn_key, 7))
    )
    for i, rating in enumerate(ratings.tolist()):
        if asking.random() < question_share:
            columns["text"][i] = _with_question(
                asking, columns["text"][i], _centre(rating, levels), noise
            )
    return pd.DataFrame(columns)


def generate_corpus(
    *,
    train_size: int = 4000,
    test_size: int = 2000,
    levels: int = 5,
    seed: int = 0,
    noise: float = 0.6,
    vague_share: float = 0.3,
) -> dict[str, pd.DataFrame]:
    """Independent ``train`` and ``test`` tables (child seeds of ``seed``)."""
    train_seed, test_seed = np.random.SeedSequence(seed).spawn(2)
    options = dict(levels=levels, noise=noise, vague_share=vague_share)
    return {
        "train": generate_reviews(train_size, seed=train_seed, **options),
        "test": generate_reviews(test_size, seed=test_seed, **options),
    }
