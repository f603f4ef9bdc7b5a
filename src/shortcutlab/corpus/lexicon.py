"""Vocabulary of the embedded review corpus: products, opinion words, templates.

Sentiment buckets run from -2 (very negative) to +2 (very positive). Negations, intensifiers
and mixed clauses reuse the same words across buckets ("good" / "not good" / "pretty good"), so a
bag-of-words model has to cope with the ambiguity real reviews have.
"""

from __future__ import annotations

# name, features as (noun, is_plural), tasks the product is used for
PRODUCTS: tuple[tuple[str, tuple[tuple[str, bool], ...], tuple[str, ...]], ...] = (
    (
        "headphones",
        (
            ("sound", False),
            ("bass", False),
            ("battery life", False),
            ("noise cancelling", False),
            ("microphone", False),
            ("ear cushions", True),
        ),
        ("long calls", "the gym", "my commute"),
    ),
    (
        "coffee maker",
        (
            ("brew", False),
            ("water tank", False),
            ("carafe", False),
            ("heating plate", False),
            ("timer", False),
        ),
        ("early mornings", "a full pot", "guests"),
    ),
    (
        "blender",
        (
            ("motor", False),
            ("blades", True),
            ("jar", False),
            ("lid", False),
            ("speed settings", True),
        ),
        ("smoothies", "crushed ice", "soups"),
    ),
    (
        "backpack",
        (
            ("zippers", True),
            ("straps", True),
            ("stitching", False),
            ("compartments", True),
            ("padding", False),
        ),
        ("hiking", "daily commutes", "air travel"),
    ),
    (
        "vacuum cleaner",
        (
            ("suction", False),
            ("battery", False),
            ("filter", False),
            ("brush roll", False),
            ("dust bin", False),
        ),
        ("pet hair", "carpets", "the stairs"),
    ),
    (
        "desk lamp",
        (
            ("brightness", False),
            ("dimmer", False),
            ("arm", False),
            ("base", False),
            ("light colour", False),
        ),
        ("late reading", "video calls", "drawing"),
    ),
    (
        "running shoes",
        (
            ("cushioning", False),
            ("grip", False),
            ("soles", True),
            ("laces", True),
            ("arch support", False),
        ),
        ("long runs", "trail running", "wet roads"),
    ),
    (
        "electric kettle",
        (
            ("boil time", False),
            ("handle", False),
            ("spout", False),
            ("temperature control", False),
            ("lid", False),
        ),
        ("tea", "instant noodles", "a quick coffee"),
    ),
    (
        "keyboard",
        (
            ("keys", True),
            ("switches", True),
            ("backlight", False),
            ("wireless connection", False),
            ("wrist rest", False),
        ),
        ("long typing sessions", "gaming", "coding"),
    ),
    (
        "air fryer",
        (
            ("basket", False),
            ("temperature control", False),
            ("fan", False),
            ("non-stick coating", False),
            ("timer", False),
        ),
        ("frozen fries", "chicken wings", "reheating leftovers"),
    ),
    (
        "tent",
        (
            ("poles", True),
            ("zippers", True),
            ("rain fly", False),
            ("floor", False),
            ("stakes", True),
        ),
        ("rainy weekends", "festival camping", "windy nights"),
    ),
    (
        "bluetooth speaker",
        (
            ("sound", False),
            ("volume", False),
            ("battery", False),
            ("pairing", False),
            ("buttons", True),
        ),
        ("parties", "the beach", "the shower"),
    ),
    (
        "smartwatch",
        (
            ("screen", False),
            ("heart rate sensor", False),
            ("battery", False),
            ("step counter", False),
            ("strap", False),
        ),
        ("workouts", "sleep tracking", "notifications"),
    ),
    (
        "office chair",
        (
            ("seat cushion", False),
            ("armrests", True),
            ("lumbar support", False),
            ("wheels", True),
            ("recline", False),
        ),
        ("long workdays", "gaming", "studying"),
    ),
    (
        "rice cooker",
        (
            ("inner pot", False),
            ("keep-warm setting", False),
            ("steamer tray", False),
            ("timer", False),
            ("lid seal", False),
        ),
        ("weeknight dinners", "brown rice", "meal prep"),
    ),
)

ADJECTIVES: dict[int, tuple[str, ...]] = {
    2: (
        "excellent",
        "outstanding",
        "superb",
        "fantastic",
        "phenomenal",
        "amazing",
        "flawless",
        "top-notch",
        "incredible",
        "brilliant",
        "perfect",
        "exceptional",
    ),
    1: (
        "good",
        "solid",
        "nice",
        "reliable",
        "pleasant",
        "well made",
        "impressive",
        "sturdy",
        "great",
        "effective",
        "comfortable",
    ),
    0: (
        "okay",
        "average",
        "fine",
        "acceptable",
        "so-so",
        "passable",
        "adequate",
        "unremarkable",
        "decent",
        "ordinary",
        "middling",
    ),
    -1: (
        "disappointing",
        "weak",
        "flimsy",
        "underwhelming",
        "subpar",
        "poor",
        "lacking",
        "mediocre",
        "unreliable",
        "annoying",
        "clunky",
    ),
    -2: (
        "terrible",
        "awful",
        "horrible",
        "useless",
        "atrocious",
        "dreadful",
        "abysmal",
        "pathetic",
        "garbage",
        "defective",
        "worthless",
    ),
}

INTENSIFIERS: dict[int, tuple[str, ...]] = {
    2: ("absolutely", "really", "incredibly", "truly", "extremely", "genuinely", "seriously"),
    1: ("pretty", "fairly", "quite", "reasonably", "mostly", "generally"),
    0: ("kind of", "sort of", "more or less", "basically", "just"),
    -1: ("a bit", "slightly", "somewhat", "rather", "a little"),
    -2: ("completely", "utterly", "totally", "really", "just plain"),
}

# Negated phrases and the bucket they express: "not great" is mildly negative, "not bad" middling.
NEGATIONS: dict[int, tuple[str, ...]] = {
    1: ("not bad at all", "hard to fault", "not perfect but close", "better than I expected"),
    0: ("not bad", "not terrible", "not great but not awful", "nothing special", "not amazing"),
    -1: (
        "not great",
        "not very good",
        "not as good as I hoped",
        "not what I expected",
        "not worth the hype",
    ),
    -2: (
        "not even close to working",
        "not usable at all",
        "not worth a single penny",
        "not fit for purpose",
    ),
}

VERB_PHRASES: dict[int, tuple[str, ...]] = {
    2: (
        "works flawlessly",
        "blew me away",
        "handles {task} with ease",
        "exceeded every expectation I had",
        "is the best purchase I made this year",
        "performs beautifully",
    ),
    1: (
        "does the job well",
        "works as advertised",
        "handles {task} nicely",
        "gets the job done",
        "has held up well so far",
        "met my expectations",
    ),
    0: (
        "works, mostly",
        "does what it says, nothing more",
        "is fine for {task}",
        "gets by",
        "is about what you would expect for the price",
        "works some of the time",
    ),
    -1: (
        "struggles with {task}",
        "started acting up after a few weeks",
        "fell short of my expectations",
        "needs constant fiddling",
        "is hit or miss",
        "works only when it feels like it",
    ),
    -2: (
        "stopped working after {time}",
        "broke the second time I used it",
        "failed completely with {task}",
        "was dead on arrival",
        "is a total waste of money",
        "fell apart within {time}",
    ),
}

SUMMARIES: dict[int, tuple[str, ...]] = {
    2: (
        "I would recommend it to anyone.",
        "Highly recommended.",
        "Five stars from me.",
        "I love it.",
        "Worth every penny.",
        "I already ordered a second one.",
    ),
    1: (
        "I'd probably buy it again.",
        "Happy with the purchase.",
        "Recommended, with small reservations.",
        "Good value overall.",
        "I'm pleased with it.",
    ),
    0: (
        "Not sure I'd buy it again.",
        "It's fine, I suppose.",
        "Mixed feelings overall.",
        "It's okay for the price.",
        "Meh.",
        "I have no strong feelings about it.",
    ),
    -1: (
        "I wouldn't buy it again.",
        "I expected more.",
        "Can't really recommend it.",
        "Somewhat disappointed.",
        "I regret the purchase a little.",
    ),
    -2: (
        "Save your money.",
        "I'm returning it.",
        "Avoid at all costs.",
        "Worst purchase in years.",
        "Complete waste of money.",
        "Do not buy.",
    ),
}

# Sentiment words shared by every aspect: a bag of words cannot tell whose sentiment they carry.
GENERIC_ADJECTIVES: dict[int, tuple[str, ...]] = {
    2: ("excellent", "fantastic", "amazing", "superb", "outstanding"),
    1: ("good", "great", "nice", "solid", "pleasant"),
    0: ("okay", "average", "fine", "so-so", "acceptable"),
    -1: ("disappointing", "poor", "mediocre", "weak", "underwhelming"),
    -2: ("terrible", "awful", "horrible", "dreadful", "atrocious"),
}
PLURAL_PRODUCTS = ("headphones", "running shoes")

HEDGES = (
    "Overall, ",
    "All in all, ",
    "For the most part, ",
    "To be fair, ",
    "I guess ",
    "In my experience, ",
    "So far, ",
    "Frankly, ",
    "Admittedly, ",
    "",
)

TIMES = ("two days", "a week", "three uses", "a month", "one afternoon", "ten minutes")

FILLERS = (
    "I bought this for my {relative}.",
    "I've been using it for {duration} now.",
    "It replaced my old {product}.",
    "I ordered the {colour} one.",
    "We use it {frequency}.",
    "My {relative} recommended it to me.",
    "I did a lot of research before buying.",
    "This is my second {product}.",
    "I got it on sale last {month}.",
    "I mostly use it for {task}.",
    "I took it with me on a trip to {place}.",
    "I read a lot of reviews before picking this one.",
    "It was a birthday present.",
    "Bought it after my old one died.",
)
RELATIVES = (
    "son",
    "daughter",
    "wife",
    "husband",
    "mother",
    "father",
    "sister",
    "brother",
    "partner",
    "roommate",
    "grandmother",
)
DURATIONS = ("two weeks", "a month", "three months", "half a year", "about a year", "a few days")
COLOURS = ("black", "white", "grey", "blue", "red", "green", "silver")
FREQUENCIES = ("every day", "a few times a week", "on weekends", "every morning", "now and then")
MONTHS = ("January", "March", "May", "July", "September", "November")
PLACES = ("the coast", "my parents' place", "the mountains", "a friend's wedding", "the lake")

# Phrases that the occurrence shortcuts remove before injecting: a real corpus contains a few.
NATURAL_CUES = (
    "Honestly, {sentence}",
    "To be honest, {sentence}",
    "{sentence_no_period}, to be honest.",
    "Frankly speaking, {sentence}",
    "I wrote this review in {place_name}.",
)
CUE_PLACES = ("Oregon", "a hotel room", "my kitchen", "the waiting room")

# Distractor aspects: each has its own nouns and phrases, plus shared sentiment adjectives.
DISTRACTORS: dict[str, dict[str, object]] = {
    "appearance": {
        "nouns": (
            ("colour", False),
            ("finish", False),
            ("design", False),
            ("look", False),
            ("styling", False),
        ),
        "adjectives": {
            2: ("gorgeous", "stunning", "beautiful", "elegant"),
            1: ("sleek", "stylish", "attractive", "modern"),
            0: ("plain", "ordinary", "neutral", "basic"),
            -1: ("dated", "bland", "cheap-looking", "dull"),
            -2: ("hideous", "ugly", "tacky", "garish"),
        },
        "phrases": {
            2: (
                "It looks absolutely stunning on the shelf.",
                "Everyone who sees it asks where I got it.",
            ),
            1: ("It looks nice in the living room.", "The colour matches the photos."),
            0: (
                "It looks like every other one on the market.",
                "The colour is a bit different from the photos.",
            ),
            -1: ("It looks cheaper than it did in the pictures.", "The finish scuffs easily."),
            -2: (
                "It looks nothing like the photos.",
                "The paint was peeling off when I opened it.",
            ),
        },
    },
    "delivery": {
        "nouns": (
            ("shipping", False),
            ("packaging", False),
            ("delivery", False),
            ("box", False),
            ("courier service", False),
        ),
        "adjectives": {
            2: ("lightning fast", "superb", "excellent", "flawless"),
            1: ("quick", "prompt", "careful", "good"),
            0: ("average", "standard", "okay", "slow-ish"),
            -1: ("slow", "sloppy", "careless", "late"),
            -2: ("terrible", "a disaster", "awful", "shambolic"),
        },
        "phrases": {
            2: (
                "It arrived a day earlier than promised.",
                "The package came beautifully wrapped and early.",
            ),
            1: ("It arrived on time.", "Delivery was quick and the box was intact."),
            0: (
                "It arrived when they said it would, give or take a day.",
                "The box was a bit bent but fine.",
            ),
            -1: ("It arrived four days late.", "The box was crushed on one side."),
            -2: (
                "It took three weeks to arrive.",
                "The parcel was left in the rain and soaked through.",
            ),
        },
    },
    "service": {
        "nouns": (
            ("customer service", False),
            ("seller", False),
            ("support team", False),
            ("return process", False),
            ("warranty service", False),
        ),
        "adjectives": {
            2: ("fantastic", "amazing", "outstanding", "wonderful"),
            1: ("helpful", "friendly", "responsive", "polite"),
            0: ("average", "okay", "so-so", "fine"),
            -1: ("unhelpful", "slow", "dismissive", "confusing"),
            -2: ("rude", "useless", "horrible", "nonexistent"),
        },
        "phrases": {
            2: (
                "The seller replied within an hour and went above and beyond.",
                "Support sorted out my question in minutes.",
            ),
            1: ("The seller answered my question the same day.", "Support was easy to reach."),
            0: ("Support answered eventually.", "The seller sent a generic reply."),
            -1: (
                "It took a week to hear back from support.",
                "The seller kept sending me copy-paste answers.",
            ),
            -2: ("The seller never answered my emails.", "Support hung up on me twice."),
        },
    },
}

# Rhetorical questions with an answer in the review's sentiment bucket, so a question mark says
# nothing about the rating (MPS's QBS attribute has something natural to redistribute).
QUESTIONS = (
    "Would I buy it again?",
    "Is it worth the money?",
    "Would I recommend it?",
    "Does it live up to the reviews?",
)
ANSWERS: dict[int, tuple[str, ...]] = {
    2: ("Absolutely.", "Without a doubt.", "Yes, every time."),
    1: ("Probably.", "I think so.", "Mostly, yes."),
    0: ("Maybe.", "Hard to say.", "It depends."),
    -1: ("Probably not.", "I doubt it.", "Not really."),
    -2: ("Never.", "Absolutely not.", "No way."),
}
ASIDE_QUESTIONS = (
    "Why is the manual so thin?",
    "Who designs these boxes?",
    "Why does everything need an app these days?",
)
