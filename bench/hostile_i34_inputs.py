"""The hostile cases of ``hostile_cases.py`` for issue 34's input classes A, C, E, H, I, J and L:
texts without words, damaged Hugging Face folders, compressed inputs, messages that list values,
control characters and case variants in labels, and numbers in exponent notation."""

from __future__ import annotations

import json
import shutil
import zlib
from collections.abc import Callable
from pathlib import Path

import pandas as pd
from hostile_cases import Case, Skip, changed, one_line_refusal, tree_state
from hostile_inputs import BUILD, case, spec


def _relabelled(case: Case, split: str, labels: Callable[[int, object], object], name: str) -> str:
    table = pd.read_csv(case.work / f"{split}.csv", dtype={"label": object})
    table["label"] = [labels(i, label) for i, label in enumerate(table["label"])]
    table.to_csv(case.work / name, index=False)
    return name


def _texts(case: Case, split: str, texts: Callable[[int], str], name: str) -> str:
    table = pd.read_csv(case.work / f"{split}.csv")
    table["text"] = [texts(i) for i in range(len(table))]
    table.to_csv(case.work / name, index=False)
    return name


def _build(train: str, test: str, *extra: object) -> tuple[object, ...]:
    return ("build", "maze", "--train", train, "--test", test, *BUILD[6:], *extra)


def _refused_saying(case: Case, words: str, *args: object, timeout: float = 60) -> str | None:
    """:meth:`Case.refused`, and for the reason ``words`` name (not another one met first)."""
    before = tree_state(case.base)
    outcome = case.cli(*args, timeout=timeout)
    broke = one_line_refusal(outcome) or changed(before, tree_state(case.base))
    if broke:
        return broke
    line = outcome.stderr.strip().splitlines()[-1]
    return None if words in line else f"refused for another reason: {line[:200]!r}"


# A. Texts with no word characters ------------------------------------------------------------
NO_TERM = "No training text has a term that"
EMOJI = ["😀🎉", "🙂 👍", "🔥🔥🔥", "❤️"]
ZERO_WIDTH = ["\u200b", "\u200b\u200c", "\u200d\ufeff", "\u2060"]


def _wordless(case: Case, kinds: list[str]) -> tuple[str, str]:
    return tuple(  # type: ignore[return-value]
        _texts(case, split, lambda i: kinds[i % len(kinds)], f"{split}-nowords.csv")
        for split in ("train", "test")
    )


def _evaluate_wordless(case: Case, kinds: list[str], model: str) -> str | None:
    train, test = _wordless(case, kinds)
    return _refused_saying(
        case, NO_TERM,
        "evaluate", "--train", train, "--test", test, "--anti-test", test, "--seeds", 1,
        "--model", model, "--out", "ev",
    )  # fmt: skip


@case("A-nowords")
def evaluate_emoji_only_texts(case: Case) -> str | None:
    return _evaluate_wordless(case, EMOJI, "tfidf-logreg")


@case("A-nowords")
def evaluate_tfidf_svm_zero_width_texts(case: Case) -> str | None:
    return _evaluate_wordless(case, ZERO_WIDTH, "tfidf-svm")


@case("A-nowords")
def evaluate_bow_mlp_emoji_only_texts(case: Case) -> str | None:
    return _evaluate_wordless(case, EMOJI, "bow-mlp")


@case("A-nowords")
def audit_tfidf_zero_width_texts(case: Case) -> str | None:
    train, test = _wordless(case, ZERO_WIDTH)
    return _refused_saying(
        case, NO_TERM, "audit", train, "--test", test, "--model", "tfidf-logreg", "--out", "a"
    )


@case("A-nowords")
def llm_server_trains_on_emoji_only_texts(case: Case) -> str | None:
    train, _ = _wordless(case, EMOJI)
    return _refused_saying(case, NO_TERM, "llm-server", "--train", train, "--port", 0, timeout=30)


# C. A damaged Hugging Face save_to_disk folder -----------------------------------------------
ARROW = "data-00000-of-00001.arrow"


def _saved(case: Case) -> Path:
    try:
        import datasets
    except ImportError as exc:
        raise Skip("the 'datasets' package is not installed") from exc
    splits = {
        split: datasets.Dataset.from_pandas(pd.read_csv(case.work / f"{split}.csv"))
        for split in ("train", "test")
    }
    datasets.disable_progress_bars()
    datasets.DatasetDict(splits).save_to_disk(str(case.work / "hf"))
    return case.work / "hf"


def _damaged_build(case: Case, damage: Callable[[bytes], bytes], file: str) -> str | None:
    saved = _saved(case)
    target = saved / "train" / file
    target.write_bytes(damage(target.read_bytes()))
    return _refused_saying(
        case, f"'hf/train/{file}' is damaged (", *_build("hf::train", "hf::test", "--out", "out")
    )


@case("C-hfdamaged")
def hf_arrow_truncated(case: Case) -> str | None:
    return _damaged_build(case, lambda data: data[: len(data) // 2], ARROW)


@case("C-hfdamaged")
def hf_arrow_4kb_overwritten(case: Case) -> str | None:
    return _damaged_build(case, lambda data: data[:20000] + b"\xff" * 4096 + data[24096:], ARROW)


@case("C-hfdamaged")
def hf_arrow_empty(case: Case) -> str | None:
    return _damaged_build(case, lambda data: b"", ARROW)


@case("C-hfdamaged")
def hf_state_json_cut(case: Case) -> str | None:
    return _damaged_build(case, lambda data: data[: len(data) // 2], "state.json")


# E. Compressed input -------------------------------------------------------------------------
TOO_BIG = "expands to more than 1 GiB once decompressed"


def _gzip_bomb(path: Path, expanded: int) -> None:
    """About 3 MB of gzip that expand to ``expanded`` bytes of a valid CSV, written in blocks."""
    block = b'"a fine review that goes on",3\n"a poor one",4\n' * 16384
    compressor = zlib.compressobj(9, zlib.DEFLATED, 31)
    with open(path, "wb") as handle:
        handle.write(compressor.compress(b"text,label\n"))
        for _ in range(expanded // len(block) + 1):
            handle.write(compressor.compress(block))
        handle.write(compressor.flush())


@case("E-compressed")
def gzip_bomb_build(case: Case) -> str | None:
    _gzip_bomb(case.work / "train.csv.gz", 1100 << 20)
    return _refused_saying(case, TOO_BIG, *_build("train.csv.gz", "test.csv", "--out", "out"))


@case("E-compressed")
def gzip_bomb_audit_jsonl(case: Case) -> str | None:
    _gzip_bomb(case.work / "train.jsonl.gz", 1100 << 20)  # CSV lines: not JSON, but too big first
    return _refused_saying(case, TOO_BIG, "audit", "train.jsonl.gz", "--out", "a")


@case("E-compressed")
def gzip_cut_short(case: Case) -> str | None:
    import gzip

    packed = gzip.compress((case.work / "train.csv").read_bytes())
    (case.work / "train.csv.gz").write_bytes(packed[: len(packed) // 2])
    return _refused_saying(
        case, "is not a valid gzip file", *_build("train.csv.gz", "test.csv", "--out", "out")
    )


@case("E-compressed")
def gzip_valid_builds_as_plain(case: Case) -> str | None:
    import gzip

    (case.work / "train.csv.gz").write_bytes(gzip.compress((case.work / "train.csv").read_bytes()))
    for train, out in (("train.csv", "plain"), ("train.csv.gz", "packed")):
        _, broke = case.succeeded(*_build(train, "test.csv", "--out", out))
        if broke:
            return broke
    same = (case.work / "plain" / "train.csv").read_bytes() == (
        case.work / "packed" / "train.csv"
    ).read_bytes()
    return None if same else "the gzipped file built another benchmark"


# H. Messages that list values ----------------------------------------------------------------
@case("H-listed")
def audit_ten_thousand_labels(case: Case) -> str | None:
    rows = pd.DataFrame(
        {"text": [f"review number {i} is fine" for i in range(10_000)]}
        | {"label": [f"label_{i:05d}" for i in range(10_000)]}
    )
    rows.to_csv(case.work / "many.csv", index=False)
    return _refused_saying(
        case, "'label_00004' has 1 and 9,995 more;", "audit", "many.csv", "--out", "a"
    )


@case("H-listed")
def build_thousand_unseen_test_labels(case: Case) -> str | None:
    train = _relabelled(case, "train", lambda _, v: f"stars{v}", "train-named.csv")
    test = _relabelled(case, "test", lambda i, _: f"x{i}", "test-many.csv")
    return _refused_saying(
        case, "x0, x1, x2, x3, x4 and 295 more that never occur", *_build(train, test, "--out", "o")
    )


@case("H-listed")
def build_many_columns_missing_label(case: Case) -> str | None:
    table = pd.read_csv(case.work / "train.csv")
    wide = pd.concat([table] + [table["text"].rename(f"c{i}") for i in range(3000)], axis=1)
    wide.to_csv(case.work / "wide.csv", index=False)
    return _refused_saying(
        case,
        "c8, c9 and 2,990 more. Pass the right name with --label-col.",
        *_build("wide.csv", "test.csv", "--label-col", "stars", "--out", "out"),
    )


# I. A control character in a label cell ------------------------------------------------------
@case("I-labelnul")
def build_label_nul(case: Case) -> str | None:
    train = _relabelled(case, "train", lambda i, v: f"{v}\x00" if i == 5 else v, "train-nul.csv")
    return _refused_saying(
        case, "row 5, column 'label': the label", *_build(train, "test.csv", "--out", "out")
    )


@case("I-labelnul")
def run_label_escape_sequence(case: Case) -> str | None:
    train = _relabelled(case, "train", lambda i, v: f"\x1b[31m{v}" if i == 9 else v, "esc.csv")
    grid = spec(case, data={"train": train, "test": "test.csv"})
    return _refused_saying(case, "row 9, column 'label': the label", "run", grid, "--out", "r")


@case("I-labelnul")
def audit_label_nul_in_test(case: Case) -> str | None:
    test = _relabelled(case, "test", lambda i, v: f"{v}\x00" if i == 0 else v, "test-nul.csv")
    return _refused_saying(
        case, "row 0, column 'label': the label", "audit", "train.csv", "--test", test, "--out", "a"
    )


# J. Labels that differ only in case ----------------------------------------------------------
CASE_LABELS = {"1": "NEG", "2": "neg", "3": "Pos", "4": "pos", "5": "POS"}
CASE_CLASH = "has labels that differ only in case: "


def _case_labels(case: Case) -> tuple[str, str]:
    return tuple(  # type: ignore[return-value]
        _relabelled(case, split, lambda _, v: CASE_LABELS[str(v)], f"{split}-case.csv")
        for split in ("train", "test")
    )


@case("J-labelcase")
def build_labels_differing_in_case(case: Case) -> str | None:
    return _refused_saying(case, CASE_CLASH, *_build(*_case_labels(case), "--out", "out"))


@case("J-labelcase")
def evaluate_split_files_labels_differing_in_case(case: Case) -> str | None:
    train, test = _case_labels(case)
    return _refused_saying(
        case, CASE_CLASH,
        "evaluate", "--train", train, "--test", test, "--anti-test", test, "--out", "ev",
    )  # fmt: skip


@case("J-labelcase")
def export_lm_eval_of_an_old_benchmark_with_case_labels(case: Case) -> str | None:
    named = {"1": "neg", "2": "neg", "3": "neg", "4": "pos", "5": "pos"}
    files = [
        _relabelled(case, split, lambda _, v: named[str(v)], f"{split}-named.csv")
        for split in ("train", "test")
    ]
    _, broke = case.succeeded(*_build(*files, "--labels", "neg,pos", "--out", "bench"))
    if broke:
        return broke
    manifest = case.work / "bench" / "manifest.json"  # as a build before the check wrote it
    manifest.write_text(json.dumps(json.loads(manifest.read_text()) | {"labels": ["pos", "Pos"]}))
    return _refused_saying(
        case, "differ only in case: pos/Pos.", "export", "bench", "--to", "lm-eval", "--out", "lm"
    )


@case("J-labelcase")
def llm_prompt_label_names_differing_in_case(case: Case) -> str | None:
    _, broke = case.succeeded(*_build("train.csv", "test.csv", "--out", "bench"))
    if broke:
        return broke
    return _refused_saying(
        case, "differ only in case: Three/three.",
        "evaluate", "bench", "--model", "llm-prompt", "--seeds", 1,
        "-p", "label_names=[one, two, Three, three, five]",
        "-p", "client={name: openai-chat, base_url: 'http://127.0.0.1:9/v1', model: m}",
    )  # fmt: skip


# L. Numbers in any spelling Python reads -----------------------------------------------------
@case("L-numbers")
def evaluate_p_learning_rate_in_exponent_notation(case: Case) -> str | None:
    _, broke = case.succeeded(
        "evaluate", "--train", "train.csv", "--test", "test.csv", "--anti-test", "test.csv",
        "--model", "bow-mlp", "--seeds", 1, "-p", "lr=5e-3", "-p", "epochs=1", "--out", "ev",
    )  # fmt: skip
    if broke:
        return broke
    params = json.loads((case.work / "ev" / "results.json").read_text())["model"]["params"]
    return None if params["lr"] == 0.005 else f"lr recorded as {params['lr']!r}"


@case("L-numbers")
def run_spec_values_in_exponent_notation(case: Case) -> str | None:
    models = [{"name": "bow-mlp", "epochs": 1}, {"name": "tfidf-logreg"}]
    spec(case, models=models, strengths=[1.0])
    text = (case.work / "spec.yaml").read_text()
    text = text.replace("epochs: 1", "epochs: 1\n  lr: 5e-3\n  weight_decay: 1E-4")
    text = text.replace("name: tfidf-logreg", "name: tfidf-logreg\n  C: .1e2")
    (case.work / "spec.yaml").write_text(text.replace("- 1.0", "- 8e-1"))
    _, broke = case.succeeded("run", "spec.yaml", "--out", "r")
    if broke:
        return broke
    resolved = json.loads((case.work / "r" / "spec.resolved.json").read_text())
    found = [resolved["strengths"], *[m.get("lr", m.get("C")) for m in resolved["models"]]]
    return None if found == [[0.8], 0.005, 10.0] else f"read as {found!r}"


@case("L-numbers")
def transformer_p_learning_rate_5e_5(case: Case) -> str | None:
    _, broke = case.succeeded("make-tiny-model", "--out", "tiny")
    if broke:
        return broke
    _, broke = case.succeeded(
        "evaluate", "--train", "train.csv", "--test", "test.csv", "--anti-test", "test.csv",
        "--model", "transformer", "-p", "path=tiny", "-p", "lr=5e-5", "-p", "epochs=1",
        "--seeds", 1, "--out", "ev", timeout=300,
    )  # fmt: skip
    shutil.rmtree(case.work / "tiny", ignore_errors=True)
    return broke
