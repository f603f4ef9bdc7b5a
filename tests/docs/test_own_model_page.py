"""docs/how-to/your-own-model.md: its Python examples run, in order, in one namespace and one
folder (a pipeline, a plain class and its registration, a tiny Hugging Face checkpoint, a fitted
function audited), and give what the page says; its grid spec is the one its commands run."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import joblib
import pytest
import yaml
from sklearn.metrics import accuracy_score
from sklearn.pipeline import Pipeline

from tests.docs.page_examples import run_python_blocks
from tools.doc_pages import fenced_blocks, parse_page

PAGE = Path(__file__).parents[2] / "docs" / "how-to" / "your-own-model.md"


# The examples fine-tune a tiny BERT (about 30 s on two cores): the quick loop leaves them out.
@pytest.fixture(scope="module")
def page_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], list[Any], Path]:
    """The namespace after every block, the value of ``result`` after each block, and the folder."""
    pytest.importorskip(
        "transformers", reason="the page's checkpoint example needs the torch extra"
    )
    folder = tmp_path_factory.mktemp("own-model")
    # The example builds its checkpoint: nothing may download.
    namespace, results = run_python_blocks(PAGE, folder, env={"HF_HUB_OFFLINE": "1"})
    return namespace, results, folder


@pytest.mark.slow
def test_the_pipeline_gives_the_accuracies_of_fitting_it_by_hand_and_is_saved(page_run):
    namespace, results, folder = page_run
    bench, pipe = namespace["bench"], namespace["pipe"]
    result = results[1]  # the block of the pipeline
    assert result.statistics["model"] == "Pipeline(TfidfVectorizer, MultinomialNB)"
    by_hand = joblib.load(folder / "pipe.joblib")
    assert isinstance(by_hand, Pipeline) and not hasattr(by_hand, "classes_")
    by_hand.fit(bench["train"]["text"].tolist(), bench["train"]["label"])
    for split, scores in result.runs[0]["splits"].items():
        predicted = by_hand.predict(bench[split]["text"].tolist())
        assert scores["accuracy"] == accuracy_score(bench[split]["label"], predicted), split
    assert not hasattr(pipe, "classes_")  # the user's object is cloned, never fitted


@pytest.mark.slow
def test_the_plain_class_runs_alone_and_registered_by_name(page_run):
    _, results, _ = page_run
    alone, registered = results[2], results[3]
    assert alone.statistics["model"] == "Centroids"
    assert registered.statistics["model"] == "centroids"
    accuracy = alone.runs[0]["splits"]["test"]["accuracy"]
    assert accuracy > 0.3  # 5 labels: chance is 0.2
    assert registered.runs[0]["splits"]["test"]["accuracy"] == accuracy  # the same fit


@pytest.mark.slow
def test_the_checkpoint_is_fine_tuned_from_its_path(page_run):
    namespace, results, folder = page_run
    result = results[4]
    assert result.statistics["model"] == "transformer"
    assert (folder / namespace["checkpoint"] / "config.json").is_file()  # written where it ran
    assert set(result.runs[0]["splits"]) >= {"test", "anti_test"}


@pytest.mark.slow
def test_the_fitted_function_is_audited_as_it_is(page_run):
    namespace, _, _ = page_run
    audit = namespace["audit"]
    table = audit.to_pandas()
    assert len(table) > 0
    assert set(table["model"].dropna()) == {"predict_proba"}


def test_the_grid_spec_shown_is_the_one_the_commands_run():
    text = PAGE.read_text(encoding="utf-8")
    (shown,) = fenced_blocks(text, "yaml")
    (written,) = [c for c in parse_page(text).setup if c.startswith("printf")]
    spec = re.fullmatch(r"printf '(.*)' > pipe-grid\.yaml", written, flags=re.DOTALL)
    assert spec is not None, written
    assert yaml.safe_load(spec[1].replace("\\n", "\n")) == yaml.safe_load("\n".join(shown))
    assert yaml.safe_load("\n".join(shown))["models"] == [
        {"name": "sklearn", "path": "pipe.joblib"}
    ]
