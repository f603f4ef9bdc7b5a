"""transformer: learning, validation-loss selection, precision and device choice, bad input."""

import numpy as np
import pytest

from shortcutlab.errors import ConfigError
from shortcutlab.models import make_model
from shortcutlab.torch_runtime import resolve_device, resolve_precision

WORDS = ["alpha", "bravo", "charlie"]
FAST = {"epochs": 4, "lr": 2e-3, "batch_size": 16}


def toy(n, seed):
    """Three labels, each marked by one word among shared filler words."""
    labels = np.random.default_rng(seed).integers(0, 3, n)
    return [f"the item {WORDS[label]} was number {i % 7}" for i, label in enumerate(labels)], labels


def test_learns_a_separable_task(tiny_bert):
    texts, labels = toy(240, seed=0)
    test_texts, test_labels = toy(90, seed=1)
    model = make_model("transformer", {"path": str(tiny_bert), **FAST}, seed=0)
    model.fit(texts, labels, n_classes=3)
    assert (model.predict(test_texts) == test_labels).mean() > 0.8  # chance is 1/3
    assert [r["epoch"] for r in model.history_] == [1, 2, 3, 4] and model.best_epoch_ == 4
    assert model.history_[-1]["train_loss"] < model.history_[0]["train_loss"]


@pytest.mark.parametrize("select_by", ["val_loss", "last"])
def test_selection_keeps_the_weights_of_the_chosen_epoch(tiny_bert, select_by):
    texts, labels = toy(120, seed=0)
    flipped = (labels + 1) % 3  # validation loss rises as the training labels are learnt
    params = {"path": str(tiny_bert), **FAST, "select_by": select_by}
    model = make_model("transformer", params).fit(
        texts, labels, n_classes=3, validation=(texts, flipped)
    )
    losses = [record["val_loss"] for record in model.history_]
    expected = int(np.argmin(losses)) + 1 if select_by == "val_loss" else len(losses)
    assert model.best_epoch_ == expected
    proba = model.predict_proba(texts)
    kept_loss = -np.log(proba[np.arange(len(texts)), flipped]).mean()
    assert kept_loss == pytest.approx(losses[expected - 1], rel=1e-4)
    if select_by == "val_loss":
        assert expected < len(losses)  # the test only means something if an early epoch won


def test_gradient_accumulation_and_warmup_run_and_other_seeds_differ(tiny_bert):
    texts, labels = toy(40, seed=0)
    params = {"path": str(tiny_bert), "epochs": 1, "batch_size": 4, "grad_accum": 3}
    params["warmup_ratio"] = 0.5
    first = make_model("transformer", params, seed=0).fit(texts, labels, n_classes=3)
    second = make_model("transformer", params, seed=1).fit(texts, labels, n_classes=3)
    assert not np.array_equal(first.predict_proba(texts), second.predict_proba(texts))


@pytest.mark.parametrize(
    ("requested", "cuda", "mps", "expected"),
    [
        ("auto", True, True, "cuda"),
        ("auto", False, True, "mps"),
        ("auto", False, False, "cpu"),
        ("cuda:1", True, False, "cuda:1"),
        ("cpu", True, True, "cpu"),
    ],
)
def test_device_resolution(requested, cuda, mps, expected):
    assert (
        resolve_device(requested, "transformer", cuda_available=cuda, mps_available=mps) == expected
    )


def test_device_errors():
    with pytest.raises(ConfigError, match="'cuda', but torch sees no CUDA device"):
        resolve_device("cuda", "transformer", cuda_available=False, mps_available=False)
    with pytest.raises(ConfigError, match="'mps', but torch sees no MPS device"):
        resolve_device("mps", "transformer", cuda_available=True, mps_available=False)
    with pytest.raises(ConfigError, match="The 'device' parameter of transformer must be 'auto'"):
        resolve_device("gpu", "transformer", cuda_available=True, mps_available=False)


@pytest.mark.parametrize(
    ("requested", "device", "bf16", "expected"),
    [
        ("auto", "cuda", True, "bf16"),
        ("auto", "cuda:0", False, "fp16"),
        ("auto", "cpu", False, "fp32"),
        ("auto", "mps", True, "fp32"),
        ("fp32", "cuda", True, "fp32"),
        ("fp16", "cuda", True, "fp16"),
        ("bf16", "cuda", True, "bf16"),
    ],
)
def test_precision_resolution(requested, device, bf16, expected):
    assert resolve_precision(requested, "transformer", device, bf16_supported=bf16) == expected


def test_precision_errors():
    with pytest.raises(ConfigError, match="'fp16', which needs a CUDA device; the device is 'cpu'"):
        resolve_precision("fp16", "transformer", "cpu", bf16_supported=False)
    with pytest.raises(ConfigError, match="does not support bfloat16. Use precision: auto or fp16"):
        resolve_precision("bf16", "transformer", "cuda", bf16_supported=False)
    with pytest.raises(ConfigError, match="must be one of 'auto', 'fp32', 'bf16', 'fp16'"):
        resolve_precision("half", "transformer", "cuda", bf16_supported=True)


def test_a_missing_or_malformed_local_path_is_a_config_error(tmp_path):
    missing = tmp_path / "nowhere"
    with pytest.raises(
        ConfigError,
        match=f"The transformer 'path' parameter points to '{missing}', which does not exist. ",
    ):
        make_model("transformer", {"path": str(missing)}).check()
    with pytest.raises(ConfigError, match="which has no config.json"):
        make_model("transformer", {"path": str(tmp_path)}).check()
    with pytest.raises(ConfigError, match="needs a 'path' parameter"):
        make_model("transformer").check()
    texts, labels = toy(6, seed=0)
    with pytest.raises(ConfigError, match="does not exist"):  # fit checks too
        make_model("transformer", {"path": "./no/such/model"}).fit(texts, labels, n_classes=3)


def test_a_hub_name_that_cannot_load_offline_is_mapped_to_a_config_error():
    with pytest.raises(
        ConfigError, match="'shortcutlab-tests/no-such-model', which is not a local"
    ) as info:
        make_model("transformer", {"path": "shortcutlab-tests/no-such-model"}).check(3)
    assert isinstance(info.value.__cause__, OSError)
    assert "\n" not in str(info.value)


@pytest.fixture(scope="module")
def three_label_checkpoint(tiny_bert, tmp_path_factory):
    """The tiny BERT saved with a 3-label classification head."""
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    folder = tmp_path_factory.mktemp("heads") / "three-labels"
    AutoModelForSequenceClassification.from_pretrained(tiny_bert, num_labels=3).save_pretrained(
        folder
    )
    AutoTokenizer.from_pretrained(tiny_bert).save_pretrained(folder)
    return folder


def test_a_head_of_another_size_needs_reinit_head(three_label_checkpoint):
    texts, labels = toy(20, seed=0)
    labels = labels + 2  # ranks 2..4 of 5
    with pytest.raises(
        ConfigError,
        match="has a 3-label classification head but the data has 5 labels. Pass reinit_head: true",
    ):
        make_model("transformer", {"path": str(three_label_checkpoint)}).check(5)
    params = {"path": str(three_label_checkpoint), "epochs": 1, "reinit_head": True}
    proba = make_model("transformer", params).fit(texts, labels, n_classes=5).predict_proba(texts)
    assert proba.shape == (20, 5) and np.all(proba[:, :2] == 0)


@pytest.mark.parametrize("reinit_head", [False, True])
def test_a_same_sized_head_is_kept_unless_reinit_head(three_label_checkpoint, reinit_head):
    from safetensors.torch import load_file

    saved = load_file(three_label_checkpoint / "model.safetensors")["classifier.weight"]
    texts, labels = toy(8, seed=0)
    params = {"path": str(three_label_checkpoint), "epochs": 1, "lr": 1e-12}
    params["reinit_head"] = reinit_head
    model = make_model("transformer", params).fit(texts, labels, n_classes=3)
    kept = model.model_.classifier.weight.detach().cpu()
    assert np.allclose(kept.numpy(), saved.numpy(), atol=1e-6) is not reinit_head


def test_bad_numeric_parameters_are_config_errors(tiny_bert):
    with pytest.raises(
        ConfigError,
        match=r"The 'lr' parameter of transformer must be a positive float. Got -1 instead.",
    ):
        make_model("transformer", {"path": str(tiny_bert), "lr": -1}).check()
    with pytest.raises(
        ConfigError, match=r"'warmup_ratio' parameter of transformer must be a float in \[0, 1\)"
    ):
        make_model("transformer", {"path": str(tiny_bert), "warmup_ratio": 1.5}).check()
    with pytest.raises(
        ConfigError, match="'select_by' parameter of transformer must be one of 'val_loss', 'last'"
    ):
        make_model("transformer", {"path": str(tiny_bert), "select_by": "best"}).check()
