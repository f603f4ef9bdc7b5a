"""Property: the spec parser answers any file with a spec or a ShortcutlabError, never another
exception, and its messages are one line of bounded length.

Three kinds of input: random text and bytes as a spec file, random YAML mappings, and valid Maze,
MPS and CAT specs with one part replaced, removed or added. The profile (tests/conftest.py) fixes
the seed in CI."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from shortcutlab.engine.mitigation_spec import MITIGATION_KEYS
from shortcutlab.engine.spec_entries import BUILTIN_DATA_KEYS, FILE_DATA_KEYS, RESOURCE_KEYS
from shortcutlab.errors import ShortcutlabError
from shortcutlab.families import load_spec, parse_spec
from shortcutlab.families.cat.spec import CAT_KEYS, CAT_TOP_KEYS
from shortcutlab.families.maze.spec import TOP_KEYS
from shortcutlab.families.mps.spec import BUILD_KEYS, MPS_TOP_KEYS

VALID = {
    "maze": {
        "name": "t",
        "data": {"builtin": "reviews", "train_size": 200, "test_size": 100},
        "shortcuts": ["single-term", {"name": "synonym", "terms": ["to be honest", "frankly"]}],
        "strengths": [1.0, 0.6],
        "models": [{"name": "tfidf-logreg", "C": 1.0}, {"name": "majority", "id": "b"}],
        "seeds": [0, 1],
        "mitigations": ["erm"],
    },
    "mps": {
        "family": "mps",
        "data": {"builtin": "reviews", "train_size": 200, "test_size": 100},
        "attributes": ["negation", {"name": "question"}],
        "mps": {"dominance": 0.8, "size": 300, "test_size": 0.2},
        "models": [{"name": "bow-mlp", "epochs": 4, "resources": {"cpus": 2}}],
        "cross_test": False,
    },
    "cat": {
        "family": "cat",
        "name": "tiny-cat",
        "datasets": [
            {"name": "cue", "train": "train.csv", "test": "test.csv", "text": "premise"}
            | {"text_pair": "hypothesis", "labels": ["neutral", "entailment"]}
        ],
        "models": [{"name": "tfidf-logreg", "id": "tfidf"}],
        "seeds": [0],
        "cat": {"k": 3, "default_label": "neutral", "augment": [False, True]},
    },
}
KNOWN_KEYS = sorted(
    {*TOP_KEYS, *MPS_TOP_KEYS, *BUILD_KEYS, *CAT_TOP_KEYS, *CAT_KEYS, *MITIGATION_KEYS}
    | {*FILE_DATA_KEYS, *BUILTIN_DATA_KEYS, *RESOURCE_KEYS, "C", "id", "epochs", "terms"}
)
AWKWARD_TEXT = [
    "", " ", ".", "..", "../../x", "/tmp/abs", "a\x00b", "a\nb", "x" * 500, "train.csv",
    "train.csv::train", "reviews", "majority", "erm", "same", "mix", "even", "nan", "-1", "1e999",
]  # fmt: skip
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(),
    st.text(max_size=12),
    st.sampled_from(AWKWARD_TEXT),
    st.sampled_from(KNOWN_KEYS),
    st.dates(),
    st.binary(max_size=4),  # !!binary
)
KEYS = st.sampled_from(KNOWN_KEYS) | st.text(max_size=6) | st.integers() | st.none() | st.booleans()
VALUES = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.sets(st.text(max_size=4), max_size=3)  # !!set
        | st.dictionaries(KEYS, inner, max_size=4)
    ),
    max_leaves=12,
)


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The data files the specs name (module-scoped: hypothesis reruns a test in one folder)."""
    path = tmp_path_factory.mktemp("specs")
    for name in ("train.csv", "test.csv"):
        (path / name).write_text("premise,hypothesis,label\na b,b,neutral\nc d,e,entailment\n")
    return path


def _problem(call: Any) -> str | None:
    """None when ``call()`` returns or raises a ShortcutlabError whose message is one short line;
    else what is wrong with the message (any other exception propagates, with its traceback)."""
    try:
        call()
    except ShortcutlabError as error:
        message = str(error)
        if "\n" in message or "\x00" in message:
            return f"a refusal that is not one line: {message!r}"
        if len(message) >= 2000:
            return f"a refusal of {len(message)} characters: {message[:300]!r}"
    return None


def _paths(value: Any, prefix: tuple = ()) -> list[tuple]:
    """Every place in a spec: keys of mappings and positions of lists, at every depth."""
    places = [prefix] if prefix else []
    if isinstance(value, dict):
        for key, inner in value.items():
            places += _paths(inner, (*prefix, key))
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            places += _paths(inner, (*prefix, index))
    return places


def _mutated(spec: dict, place: tuple, action: str, value: Any, key: Any) -> dict:
    spec = copy.deepcopy(spec)
    *parents, last = place
    holder = spec
    for step in parents:
        holder = holder[step]
    if action == "replace":
        holder[last] = value
    elif action == "remove":
        del holder[last]
    elif isinstance(holder[last], dict):
        holder[last][key] = value
    elif isinstance(holder[last], list):
        holder[last].append(value)
    else:
        spec[key] = value
    return spec


@pytest.mark.slow
@given(data=st.data(), family=st.sampled_from(sorted(VALID)))
def test_a_valid_spec_with_one_part_changed_is_parsed_or_refused(folder, data, family):
    spec = VALID[family]
    place = data.draw(st.sampled_from(_paths(spec)), label="place")
    action = data.draw(st.sampled_from(["replace", "remove", "add"]), label="action")
    value = data.draw(VALUES, label="value")
    key = data.draw(KEYS, label="key")
    changed = _mutated(spec, place, action, value, key)
    assert _problem(lambda: parse_spec(changed, source="spec.yaml", base_dir=folder)) is None


@pytest.mark.slow
@given(raw=st.dictionaries(KEYS, VALUES, max_size=8))
def test_a_random_mapping_is_parsed_or_refused(folder, raw):
    assert _problem(lambda: parse_spec(raw, source="spec.yaml", base_dir=folder)) is None


def _write(folder: Path, content: bytes) -> Path:
    path = folder / "spec.yaml"  # beside the data files its entries name
    path.write_bytes(content)
    return path


@given(
    content=st.one_of(
        st.binary(max_size=200),
        st.text(max_size=200).map(str.encode),
        st.text(alphabet="{}[]:,-&*!|>'\"#%@ \n\tabc01", max_size=120).map(str.encode),
        st.builds(
            lambda spec, text: (yaml.safe_dump(spec) + text).encode(),
            st.sampled_from(sorted(VALID)).map(VALID.get),
            st.text(alphabet="{}[]:,-&*!|>'\"# \nab1", max_size=40),
        ),
    )
)
def test_a_random_file_is_read_or_refused(folder, content):
    assert _problem(lambda: load_spec(_write(folder, content))) is None


@pytest.mark.parametrize("family", sorted(VALID))
def test_the_valid_specs_parse(folder, family):
    """The mutations start from specs that parse, so a refusal is the mutation's doing."""
    parse_spec(VALID[family], source="spec.yaml", base_dir=folder)
    assert load_spec(_write(folder, yaml.safe_dump(VALID[family]).encode())) is not None
