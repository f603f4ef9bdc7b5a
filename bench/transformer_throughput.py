"""Training throughput of the `transformer` backend next to a plain `transformers.Trainer`.

Builds the tiny BERT (models/tiny.py) on generated reviews and writes the training texts to a
temporary folder, once and untimed. Then, as whole processes in interleaved pairs
(bench/paired.py), the same fine-tuning twice: bench/tool/fit_transformer.py, which calls the public
API (``shortcutlab.make_model("transformer", ...).fit``: no CLI command trains a model and does
nothing else), and bench/plain/trainer_fit.py, a plain Hugging Face ``Trainer`` (same epochs,
batch size, learning rate and weight decay; fp32; no evaluation; default data loading). Both
cover the same work: start Python, import, load the checkpoint, tokenise, train. Prints the medians,
their ratio and the training examples per second they mean.

    python bench/transformer_throughput.py [--train 2000 --epochs 2 --batch-size 16] [--pairs 3]
        [--save]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

import paired
import torch
from paired import Side, compare, write_results

from shortcutlab.corpus import generate_reviews
from shortcutlab.models.tiny import build_tiny_bert

BENCH = Path(__file__).resolve().parent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--train", type=int, default=2000)
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--batch-size", type=int, default=16)
    parser.add_argument("--lr", type=float, default=5e-4)
    parser.add_argument("--max-length", type=int, default=128)
    parser.add_argument("--hidden-size", type=int, default=64)
    parser.add_argument("--layers", type=int, default=2)
    paired.add_options(parser)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as work:
        reviews = generate_reviews(args.train, seed=0)
        texts = reviews["text"].tolist()
        data = Path(work) / "train.csv"
        reviews.assign(label=reviews["label"] - 1)[["text", "label"]].to_csv(data, index=False)
        folder = build_tiny_bert(
            Path(work) / "tiny-bert",
            texts,
            hidden_size=args.hidden_size,
            num_layers=args.layers,
            intermediate_size=2 * args.hidden_size,
        )
        print(
            f"tiny BERT (hidden {args.hidden_size}, {args.layers} layers), {args.train} texts x "
            f"{args.epochs} epochs, batch {args.batch_size}, fp32, {torch.get_num_threads()} "
            f"torch threads, device {'cuda' if torch.cuda.is_available() else 'cpu'}"
        )
        options = [str(folder), str(data), str(args.epochs), str(args.batch_size)]
        options += [str(args.lr), str(args.max_length)]
        tool = Side("shortcutlab transformer fit (API)", lambda: tool_command(options))
        plain = [sys.executable, str(BENCH / "plain" / "trainer_fit.py"), *options]
        alternative = Side("plain transformers.Trainer", lambda: plain)
        note = f"{args.train} texts x {args.epochs} epochs, tiny BERT, fp32, CPU"
        result = compare("transformer fit", tool, alternative, pairs=args.pairs, note=note)
    examples = args.train * args.epochs
    ours = examples / statistics.median(result.tool_values)
    theirs = examples / statistics.median(result.alternative_values)
    print(f"training examples/s, whole process: ours {ours:.1f}, Trainer {theirs:.1f}")
    if args.save:
        write_results("transformer_throughput", [result])


def tool_command(options: list[str]) -> list[str]:
    return [sys.executable, str(BENCH / "tool" / "fit_transformer.py"), *options]


if __name__ == "__main__":
    main()
