"""Category lists of the concept annotators (SCS, CCS): names, descriptions and keywords.

A list is a YAML file, a packaged list's name, or the same content inline::

    dataset_name: Rotten Tomatoes        # optional; names the data set in the LLM prompt
    categories:                          # at least two, in order (the order breaks ties)
      Comedy:
        description: humorous elements, joke design, comedic effects, focusing on entertainment
        keywords: [comedy, funny, laugh, hilarious]   # used by method: keywords
      Thriller: tense atmosphere, suspenseful plots    # a bare string is the description

The description is what the LLM prompt lists after "e.g." (paper 002, figures 3-4) and what the
embedding method compares texts with ("Comedy: humorous elements, ..."). Keywords are whole
words or phrases, matched ignoring case (see :mod:`~shortcutlab.attributes.words`). The packaged
lists copy the paper's Rotten Tomatoes prompts (figures 15 and 16) and add keywords:
``rotten-tomatoes-sentence`` and ``rotten-tomatoes-core-word``.

Examples:
    >>> listed = load_categories({"Comedy": "jokes", "Drama": {"keywords": ["tears"]}}, "demo")
    >>> [(c.name, c.description, c.keywords) for c in listed.categories]
    [('Comedy', 'jokes', ()), ('Drama', '', ('tears',))]
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from shortcutlab.attributes.words import spaced_phrases
from shortcutlab.errors import ConfigError, listed
from shortcutlab.params import PATH_LIMIT, quoted
from shortcutlab.yaml_reading import read_yaml, read_yaml_file

PACKAGED_LISTS = (
    "reviews-aspects",
    "reviews-products",
    "rotten-tomatoes-core-word",
    "rotten-tomatoes-sentence",
)
_CATEGORY_KEYS = ("description", "keywords")
_FILE_KEYS = ("dataset_name", "categories")


@dataclass(frozen=True)
class Category:
    """One category: its name (the attribute value), description and keywords."""

    name: str
    description: str = ""
    keywords: tuple[str, ...] = ()

    def sentence(self) -> str:
        """``"Name: description"``, the text the embedding method embeds."""
        return f"{self.name}: {self.description}" if self.description else self.name

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "description": self.description, "keywords": list(self.keywords)}


@dataclass(frozen=True)
class CategoryList:
    """The categories in order, the data set they describe (may be None) and where they came from."""

    categories: tuple[Category, ...]
    dataset_name: str | None
    source: str  # a file path, "packaged:<name>" or "inline"

    @property
    def names(self) -> list[str]:
        return [c.name for c in self.categories]


def load_categories(spec: Any, owner: str) -> CategoryList:
    """The list ``spec`` names (a path, a packaged name or a mapping); ``owner`` names the annotator."""
    if isinstance(spec, Mapping):
        return _from_content(spec, owner, "inline")
    if isinstance(spec, str | Path) and str(spec).strip():
        path = Path(spec).expanduser()
        if path.is_file():
            content = read_yaml_file(path, _file_source(path, owner))
            return _from_content(content, owner, str(spec))
        if str(spec) in PACKAGED_LISTS:
            text = resources.files("shortcutlab.attributes.resources").joinpath(f"{spec}.yaml")
            content = read_yaml(text.read_text("utf-8"), _file_source(spec, owner))
            return _from_content(content, owner, f"packaged:{spec}")
        raise ConfigError(
            f"The 'categories' option of {owner} names {quoted(str(spec), PATH_LIMIT)}, which is neither a file nor "
            f"a packaged list ({', '.join(PACKAGED_LISTS)}). Check the path."
        )
    raise ConfigError(
        f"{owner} needs the 'categories' option: a YAML file, a packaged list "
        f"({', '.join(PACKAGED_LISTS)}) or a mapping of category names to descriptions. "
        f"Got {quoted(spec)} instead."
    )


def _file_source(where: Any, owner: str) -> str:
    return f"The category file {where} of {owner}"


def _from_content(content: Any, owner: str, source: str) -> CategoryList:
    dataset_name = None
    if isinstance(content, Mapping) and "categories" in content:
        unknown = sorted(set(map(str, content)) - set(_FILE_KEYS))
        if unknown:
            raise ConfigError(
                f"The category list of {owner} ({source}) has unknown keys {listed(unknown, show=repr)}; "
                f"it takes {', '.join(_FILE_KEYS)}."
            )
        dataset_name = content.get("dataset_name")
        if dataset_name is not None and not (isinstance(dataset_name, str) and dataset_name):
            raise ConfigError(
                f"The dataset_name of {owner}'s category list ({source}) must be text. Got {quoted(dataset_name)}."
            )
        content = content["categories"]
    if not isinstance(content, Mapping):
        raise ConfigError(
            f"The category list of {owner} ({source}) must map category names to descriptions "
            f"(categories: {{Comedy: jokes and gags, ...}}). Got {type(content).__name__} instead."
        )
    categories = tuple(_category(name, entry, owner) for name, entry in content.items())
    if len(categories) < 2:
        raise ConfigError(
            f"{owner} needs at least two categories to tell rows apart; {source} lists "
            f"{len(categories)} ({listed(c.name for c in categories) or 'none'}). Add categories."
        )
    seen: dict[str, str] = {}
    for category in categories:
        key = folded(category.name)
        if key in seen:
            raise ConfigError(
                f"The category list of {owner} ({source}) names {quoted(seen[key])} and "
                f"{quoted(category.name)}, which read the same in an answer. Rename one."
            )
        seen[key] = category.name
    return CategoryList(categories, dataset_name, source)


def _category(name: Any, entry: Any, owner: str) -> Category:
    if not isinstance(name, str) or not folded(name):
        raise ConfigError(
            f"The category names of {owner} must be text with a letter or digit; {quoted(name)} is not "
            "(YAML reads yes/no/on/off and numbers as other types: quote the name)."
        )
    if entry is None or isinstance(entry, str):
        return Category(name.strip(), (entry or "").strip())
    if not isinstance(entry, Mapping) or set(map(str, entry)) - set(_CATEGORY_KEYS):
        raise ConfigError(
            f"The category {quoted(name)} of {owner} must be a description or a mapping with the keys "
            f"{', '.join(_CATEGORY_KEYS)}. Got {quoted(entry)} instead."
        )
    description = entry.get("description") or ""
    keywords = entry.get("keywords") or []
    valid = (
        isinstance(keywords, list)
        and all(isinstance(k, str) for k in keywords)
        and all(spaced_phrases(keywords))
    )
    if not isinstance(description, str) or not valid:
        raise ConfigError(
            f"The category {quoted(name)} of {owner} needs a text description and a list of keywords "
            f"(each with a letter or digit). Got description={quoted(description)}, keywords={quoted(keywords)}."
        )
    return Category(name.strip(), description.strip(), tuple(k.strip() for k in keywords))


def folded(name: str) -> str:
    """A name as an answer may spell it: lower case, punctuation as single spaces."""
    return re.sub(r"[\W_]+", " ", name.lower()).strip()
