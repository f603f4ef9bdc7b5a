"""Export a built benchmark to the tools people already use (``shortcutlab export``).

Each target is one entry of :data:`EXPORT_TARGETS`: a writer ``(benchmark, folder, *, license)``
that fills an empty folder, with its capabilities declared on its line (``hub``: the folder can be
pushed to the Hugging Face Hub; ``prompts``: it writes ``llm-prompt``'s prompts, and its writer
also takes ``params``, that model's parameters). A new target is one module and one line here.

Examples:
    >>> EXPORT_TARGETS.names()
    ['hf', 'lm-eval']
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from shortcutlab.data.writing import atomic_output_dir, check_output_dir
from shortcutlab.errors import ConfigError, knob
from shortcutlab.export.source import BenchmarkFolder, read_benchmark_folder
from shortcutlab.registry import Registry

Writer = Callable[..., None]
EXPORT_TARGETS: Registry[Writer] = Registry(
    "export target", capabilities={"hub": False, "prompts": False, "summary": ""}
)
EXPORT_TARGETS.add(
    "hf",
    "shortcutlab.export.hf:write_hf",
    hub=True,
    summary="a Hugging Face DatasetDict (save_to_disk) plus the Hub's layout: README.md, data/*.parquet",
)
EXPORT_TARGETS.add(
    "lm-eval",
    "shortcutlab.export.lm_eval:write_lm_eval",
    prompts=True,
    summary="lm-evaluation-harness tasks (one per evaluation split, in a group) with llm-prompt's prompt",
)


def export_benchmark(
    benchmark: str | Path,
    *,
    to: str,
    out: str | Path,
    license: str = "unknown",
    push_to_hub: str | None = None,
    overwrite: bool = False,
    params: Mapping[str, Any] | None = None,
) -> Path:
    """Write the benchmark folder ``benchmark`` as the target ``to`` into ``out`` (atomically:
    a failed export leaves nothing); with ``push_to_hub``, upload it to that Hub repository.

    Args:
        benchmark: a folder written by ``shortcutlab build maze|mps|robustness|suite``.
        to: the export target (see :data:`EXPORT_TARGETS`).
        out: the output folder; it must not exist or be empty, unless ``overwrite``.
        license: the license named in the dataset card (an SPDX id or "other"/"unknown").
        push_to_hub: a Hub dataset repository ("user/name") to upload the export to.
        overwrite: replace a non-empty ``out``.
        params: ``llm-prompt``'s parameters for a target that writes its prompts (lm-eval),
            e.g. ``{"label_names": ["negative", "positive"]}``.
    """
    writer = EXPORT_TARGETS.get(to)
    if push_to_hub is not None and not EXPORT_TARGETS.capabilities(to)["hub"]:
        raise ConfigError(
            f"--push-to-hub works with --to {', '.join(EXPORT_TARGETS.having('hub'))}, not "
            f"--to {to}. Drop --push-to-hub or change --to."
        )
    prompts = EXPORT_TARGETS.capabilities(to)["prompts"]
    if params and not prompts:
        raise ConfigError(
            f"{knob('params', flag='-p')} sets the llm-prompt parameters of the prompts that "
            f"{knob('to', ' or '.join(EXPORT_TARGETS.having('prompts')))} writes, and "
            f"{knob('to', to)} writes none: drop it."
        )
    if not license.strip():
        raise ConfigError("The 'license' parameter must name a license. Got '' instead.")
    check_output_dir(Path(out), overwrite=overwrite, inputs=[benchmark])
    source: BenchmarkFolder = read_benchmark_folder(benchmark)
    with atomic_output_dir(out, overwrite=overwrite, inputs=[benchmark]) as tmp:
        writer(source, tmp, license=license, **({"params": params or {}} if prompts else {}))
    if push_to_hub is not None:
        from shortcutlab.export.hub import push_to_hub as push

        push(Path(out), push_to_hub)
    return Path(out)
