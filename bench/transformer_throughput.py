"""Training throughput of the `transformer` backend next to a plain `transformers.Trainer`.

Builds the tiny BERT (models/tiny.py) on generated reviews, then in the same run fine-tunes it on
the same training texts twice per repeat: with our backend and with a plain Trainer (same epochs,
batch size, learning rate and weight decay; fp32; no evaluation; default data loading). Both
timings cover the same work: load the checkpoint, tokenise, train. Prints examples/s and the ratio.

    python bench/transformer_throughput.py [--train 2000 --epochs 2 --batch-size 16 --repeats 2]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
import warnings
from pathlib import Path

import numpy as np
import torch
import transformers
from transformers import (
    AutoModelForSequenceClassification,
    AutoTokenizer,
    PrinterCallback,
    Trainer,
    TrainingArguments,
)

from shortcutlab.corpus import generate_reviews
from shortcutlab.models import make_model
from shortcutlab.models.tiny import build_tiny_bert


def train_ours(
    folder: Path, texts: list[str], labels: np.ndarray, args: argparse.Namespace
) -> float:
    params = {
        "path": str(folder),
        "epochs": args.epochs,
        "batch_size": args.batch_size,
        "lr": args.lr,
        "max_length": args.max_length,
        "precision": "fp32",
    }
    started = time.perf_counter()
    make_model("transformer", params, seed=0).fit(texts, labels, n_classes=5)
    return time.perf_counter() - started


def train_trainer(
    folder: Path, texts: list[str], labels: np.ndarray, args: argparse.Namespace
) -> tuple[float, float]:
    """Wall seconds of load + tokenise + train, and Trainer's own train_samples_per_second."""
    started = time.perf_counter()
    tokenizer = AutoTokenizer.from_pretrained(folder)
    model = AutoModelForSequenceClassification.from_pretrained(folder, num_labels=5)
    encoded = tokenizer(texts, truncation=True, max_length=args.max_length)
    dataset = [
        {"input_ids": ids, "attention_mask": mask, "labels": int(label)}
        for ids, mask, label in zip(
            encoded["input_ids"], encoded["attention_mask"], labels, strict=True
        )
    ]
    with tempfile.TemporaryDirectory() as out:
        arguments = TrainingArguments(
            output_dir=out,
            num_train_epochs=args.epochs,
            per_device_train_batch_size=args.batch_size,
            learning_rate=args.lr,
            weight_decay=0.01,
            eval_strategy="no",
            save_strategy="no",
            logging_strategy="no",
            report_to=[],
            disable_tqdm=True,
            seed=0,
        )
        trainer = Trainer(
            model=model, args=arguments, train_dataset=dataset, processing_class=tokenizer
        )
        trainer.remove_callback(PrinterCallback)  # it prints the final metrics dict
        metrics = trainer.train().metrics
    return time.perf_counter() - started, metrics["train_samples_per_second"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--train", type=int, default=2000)
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--batch-size", type=int, default=16)
    parser.add_argument("--lr", type=float, default=5e-4)
    parser.add_argument("--max-length", type=int, default=128)
    parser.add_argument("--hidden-size", type=int, default=64)
    parser.add_argument("--layers", type=int, default=2)
    parser.add_argument("--repeats", type=int, default=2)
    args = parser.parse_args()
    transformers.logging.set_verbosity_error()  # the "classifier weights are new" report
    transformers.logging.disable_progress_bar()
    warnings.filterwarnings("ignore", message=".*pin_memory.*")  # Trainer's default, on a CPU

    reviews = generate_reviews(args.train, seed=0)
    texts, labels = reviews["text"].tolist(), reviews["label"].to_numpy() - 1
    folder = build_tiny_bert(
        Path(tempfile.mkdtemp()) / "tiny-bert",
        texts,
        hidden_size=args.hidden_size,
        num_layers=args.layers,
        intermediate_size=2 * args.hidden_size,
    )
    examples = args.train * args.epochs
    print(
        f"tiny BERT (hidden {args.hidden_size}, {args.layers} layers), {args.train} texts x "
        f"{args.epochs} epochs, batch {args.batch_size}, fp32, {torch.get_num_threads()} torch "
        f"threads, device {'cuda' if torch.cuda.is_available() else 'cpu'}"
    )
    ours, theirs, theirs_loop = [], [], []
    for repeat in range(1, args.repeats + 1):
        ours.append(examples / train_ours(folder, texts, labels, args))
        wall, loop_rate = train_trainer(folder, texts, labels, args)
        theirs.append(examples / wall)
        theirs_loop.append(loop_rate)
        print(
            f"repeat {repeat}: ours {ours[-1]:8.1f} ex/s | Trainer {theirs[-1]:8.1f} ex/s "
            f"(its own train loop figure: {loop_rate:.1f} ex/s)"
        )
    ours_rate, theirs_rate = statistics.median(ours), statistics.median(theirs)
    print(f"median: ours {ours_rate:.1f} ex/s, Trainer {theirs_rate:.1f} ex/s")
    print(f"ratio ours / Trainer: {ours_rate / theirs_rate:.2f}x (load + tokenise + train)")
    print(f"ratio ours / Trainer loop only: {ours_rate / statistics.median(theirs_loop):.2f}x")


if __name__ == "__main__":
    main()
