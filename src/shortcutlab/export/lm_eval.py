"""Export a benchmark as lm-evaluation-harness tasks: one task per evaluation split, in a group.

Every task sends the prompt ``llm-prompt`` sends for the same labels (zero-shot, its default
template), asks for as many tokens at the same temperature, and reads the answer with one regular
expression equivalent to ``llm-prompt``'s parser (:meth:`AnswerParser.extraction_regex`); its
``exact_match`` (case ignored) is then ``llm-prompt``'s accuracy, an unreadable answer counting as
wrong in both. Chat-completions servers give no log-likelihoods, so the tasks generate.

The folder: ``GROUP.yaml`` (the group), ``GROUP_SPLIT.yaml`` (a task each), ``data/SPLIT.jsonl``
(row_id, text, text_pair, label, prompt), ``shortcutlab_data.py`` (reads the JSONL files next to
the YAMLs, wherever the folder is; lm-eval resolves its ``!function`` there) and ``README.md``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any, cast

import yaml

from shortcutlab.data.benchmark import FITTING_SPLITS
from shortcutlab.data.pairs import model_inputs
from shortcutlab.errors import ConfigError, listed
from shortcutlab.export.hf import split_name
from shortcutlab.export.source import BenchmarkFolder
from shortcutlab.models import make_model
from shortcutlab.models.llm_prompt import LLMPrompt

LOADER = "shortcutlab_data"
INVALID = "[invalid]"  # what the regex filter answers when no label is found: never a label
# Written beside the YAMLs: `custom_dataset: !function shortcutlab_data.load` imports it from there.
LOADER_SOURCE = '''"""Reads the data files of the shortcutlab tasks in this folder (for lm-evaluation-harness).

Written by `shortcutlab export --to lm-eval`: the task YAMLs name their files relative to this
folder, so the tasks run from any working directory.
"""

from pathlib import Path

import datasets


def load(data_files, **_metadata):
    here = Path(__file__).resolve().parent
    files = {split: str(here / path) for split, path in data_files.items()}
    return datasets.load_dataset("json", data_files=files)
'''


def evaluation_splits(benchmark: BenchmarkFolder) -> list[str]:
    """The splits a model is evaluated on, in the benchmark's order (every non-fitting split)."""
    return [name for name in benchmark.splits if name not in FITTING_SPLITS]


def group_name(benchmark: BenchmarkFolder) -> str:
    """The task group: ``shortcutlab_`` and the benchmark folder's name, as a task name spells it.

    Examples:
        >>> from pathlib import Path
        >>> group_name(BenchmarkFolder(Path("runs/my-st-0.8"), {}, {}, None))
        'shortcutlab_my_st_0_8'
    """
    return "shortcutlab_" + re.sub(r"\W+", "_", benchmark.path.resolve().name).strip("_").lower()


def write_lm_eval(
    benchmark: BenchmarkFolder,
    folder: Path,
    *,
    license: str,
    params: Mapping[str, Any] | None = None,
) -> None:
    """Write the group, one task and one JSONL file per evaluation split, and the loader;
    ``params`` are ``llm-prompt``'s (``label_names``, ``task``, ``template``, ...)."""
    splits = evaluation_splits(benchmark)
    if not splits:
        raise ConfigError(
            f"The benchmark '{benchmark.path}' has no evaluation split (it has "
            f"{listed(benchmark.splits) or 'none'}); lm-eval tasks evaluate test, anti_test, "
            "original_test or Suite sets. Export it with --to hf instead."
        )
    group = group_name(benchmark)
    model = _prompting(benchmark, params or {})
    (folder / "data").mkdir()
    tasks = []
    for split in splits:
        task = f"{group}_{split_name(split)}"
        data_file = f"data/{split_name(split)}.jsonl"
        _write_rows(folder / data_file, benchmark, split, model)
        metadata = {"version": 1, **_perturbation_of(benchmark, split)}
        (folder / f"{task}.yaml").write_text(
            _task_yaml(task, data_file, model, metadata), encoding="utf-8"
        )
        tasks.append(task)
    group_config = {
        "group": group,
        "task": tasks,
        # Test and anti-test accuracy are compared, never averaged: no aggregate metric.
        "metadata": {"version": 1, "license": license, "kind": benchmark.kind},
    }
    (folder / f"{group}.yaml").write_text(_dump(group_config), encoding="utf-8")
    (folder / f"{LOADER}.py").write_text(LOADER_SOURCE, encoding="utf-8")
    # A build whose manifest lists perturbation classes pairs their rows with the test task's.
    paired = "perturbations" in benchmark.manifest
    readme = _readme(group, tasks, license) + (PAIRED if paired else "")
    (folder / "README.md").write_text(readme, encoding="utf-8")


#: The README's note for a robustness build: its class tasks hold the changed rows only.
PAIRED = (
    "\nEach perturbation class is a task holding only the rows it changed; `row_id` pairs each\n"
    "with its original row in the test task. The accuracy drop is the test task's exact_match on\n"
    "those row_ids minus the class task's (run with --log_samples and join on doc.row_id); a DIR\n"
    "class's label is the label its rows should move to (task metadata: perturbation_kind).\n"
)


def _perturbation_of(benchmark: BenchmarkFolder, split: str) -> dict[str, Any]:
    """A robustness class's name and kind (INV or DIR) for its task's metadata; {} otherwise."""
    record = benchmark.manifest.get("perturbations", {}).get(split)
    if record is None:
        return {}
    return {"perturbation": split, "perturbation_kind": record["kind"], "pairs_with": "test"}


def _prompting(benchmark: BenchmarkFolder, params: Mapping[str, Any]) -> LLMPrompt:
    """``llm-prompt`` with ``params`` (its defaults otherwise), prepared for the benchmark's
    labels and inputs."""
    model = cast(LLMPrompt, make_model("llm-prompt", params))
    model.set_label_values(benchmark.labels.values)
    paired = any("text_pair" in frame.columns for frame in benchmark.splits.values())
    return model.prepare_prompts(len(benchmark.labels), paired=paired)


def _write_rows(path: Path, benchmark: BenchmarkFolder, split: str, model: LLMPrompt) -> None:
    frame = benchmark.splits[split]
    ranks = benchmark.labels.ranks(frame["label"], where=f"The {split} split")
    inputs = model_inputs(frame)
    with path.open("w", encoding="utf-8", newline="\n") as handle:
        for index, (item, rank) in enumerate(zip(inputs, ranks, strict=True)):
            first, second = item if isinstance(item, tuple) else (item, None)
            row: dict[str, Any] = {}
            if "row_id" in frame.columns:
                row["row_id"] = int(frame["row_id"].iloc[index])
            row["text"] = first
            if second is not None:
                row["text_pair"] = second
            row["label"] = model.names_[int(rank)]
            row["prompt"] = model.prompt(item)
            handle.write(json.dumps(row, ensure_ascii=False) + "\n")


def _task_yaml(task: str, data_file: str, model: LLMPrompt, metadata: dict[str, Any]) -> str:
    split = data_file.rpartition("/")[2].removesuffix(".jsonl")
    config = {
        "task": task,
        "dataset_kwargs": {"data_files": {split: data_file}},
        "test_split": split,
        "output_type": "generate_until",
        "doc_to_text": "prompt",  # a column name: the prompt is sent as written, no template
        "doc_to_target": "label",
        "generation_kwargs": {
            "until": [],  # llm-prompt sends no stop sequence
            "max_gen_toks": model.answer_tokens(),
            "temperature": float(model.temperature),
            "do_sample": False,
        },
        "filter_list": [
            {
                "name": "llm-prompt-answer",
                "filter": [
                    {
                        "function": "regex",
                        "regex_pattern": model.parser_.extraction_regex(),
                        "group_select": 0,
                        "fallback": INVALID,
                    },
                    {"function": "take_first"},
                ],
            }
        ],
        "metric_list": [
            {
                "metric": "exact_match",
                "aggregation": "mean",
                "higher_is_better": True,
                "ignore_case": True,
            }
        ],
        "metadata": metadata,
    }
    # lm-eval's own YAML tag: import load() from the module beside this file.
    return f"custom_dataset: !function {LOADER}.load\n" + _dump(config)


def _dump(config: dict[str, Any]) -> str:
    return yaml.safe_dump(config, sort_keys=False, allow_unicode=True, width=100)


def _readme(group: str, tasks: list[str], license: str) -> str:
    return (
        f"# {group}: lm-evaluation-harness tasks exported by shortcutlab\n\n"
        f"Tasks: {', '.join(tasks)} (group {group}); license: {license}.\n"
        "Each task sends shortcutlab's llm-prompt zero-shot prompt and scores the answer as\n"
        "llm-prompt does (exact_match of the extracted label, case ignored). Run them with:\n\n"
        "    lm_eval --model local-chat-completions --apply_chat_template \\\n"
        "        --model_args base_url=http://HOST:PORT/v1/chat/completions,model=NAME \\\n"
        f"        --tasks {group} --include_path THIS_FOLDER --output_path results\n"
    )
