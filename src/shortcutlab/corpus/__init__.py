"""The embedded default corpus (deterministic generated product reviews).

It imports ``data`` and the bottom layer.
"""

from shortcutlab.corpus.reviews import DISTRACTOR_ASPECTS, generate_corpus, generate_reviews

__all__ = ["DISTRACTOR_ASPECTS", "generate_corpus", "generate_reviews"]


def save_corpus(
    out,  # type: ignore[no-untyped-def]
    *,
    train_size: int = 4000,
    test_size: int = 2000,
    levels: int = 5,
    seed: int = 0,
    fmt: str = "csv",
    overwrite: bool = False,
) -> dict:
    """Generate the corpus and write ``train`` / ``test`` and ``manifest.json`` into ``out``."""
    from pathlib import Path

    from shortcutlab.data.writing import (
        atomic_output_dir,
        sha256_file,
        split_file,
        write_json,
        write_table,
    )
    from shortcutlab.params import check_choice
    from shortcutlab.provenance import environment, tool_record

    check_choice("format", fmt, ("csv", "jsonl", "parquet"))
    corpus = generate_corpus(train_size=train_size, test_size=test_size, levels=levels, seed=seed)
    manifest = {
        "tool": tool_record(),
        "kind": "review-corpus",
        "arguments": {
            "train_size": train_size,
            "test_size": test_size,
            "levels": levels,
            "seed": seed,
            "format": fmt,
        },
        "seed": seed,
        "labels": list(range(1, levels + 1)),
        "environment": environment(),
        "distractor_aspects": list(DISTRACTOR_ASPECTS),
        "files": {},
    }
    with atomic_output_dir(Path(out), overwrite=overwrite) as tmp:
        for name, frame in corpus.items():
            path = write_table(frame, split_file(tmp, name, fmt), fmt)
            counts = frame["label"].value_counts().sort_index()
            manifest["files"][name] = {
                "file": path.name,
                "sha256": sha256_file(path),
                "rows": len(frame),
                "label_counts": {str(k): int(v) for k, v in counts.items()},
            }
        write_json(tmp / "manifest.json", manifest)
    return manifest


__all__ += ["save_corpus"]
