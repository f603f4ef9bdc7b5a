"""Where and how torch runs: device and precision choice, and length-sorted prediction batches.

Shared by the torch model backends and the ``hf-causal`` LLM client; a neutral module (it imports
only ``errors`` and ``params``, and torch lazily), so neither package imports the other. The
resolution functions take the hardware facts as arguments, so tests can cover every branch.
"""

from __future__ import annotations

import importlib.util
import re
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np

from shortcutlab.errors import ConfigError
from shortcutlab.params import quoted, require

PRECISIONS = ("auto", "fp32", "bf16", "fp16")
_DEVICE_PATTERN = re.compile(r"auto|cpu|mps|cuda(:\d+)?")


def require_torch(component: str) -> None:
    """Refuse ``component`` (``"The bow-mlp model"``) where torch is not installed, naming the
    extra that brings it; imports nothing."""
    if importlib.util.find_spec("torch") is None:
        raise ConfigError(
            f"{component} needs torch. Install it with: pip install 'shortcutlab[torch]'."
        )


def resolve_device(
    requested: Any,
    owner: str,
    *,
    cuda_available: bool | None = None,
    mps_available: bool | None = None,
) -> str:
    """Turn ``device`` ("auto", "cpu", "cuda", "cuda:N", "mps") into an available torch device.

    "auto" prefers CUDA, then Apple's MPS, then the CPU. Availability defaults to asking torch.
    """
    require(
        isinstance(requested, str) and _DEVICE_PATTERN.fullmatch(requested) is not None,
        owner,
        "device",
        "'auto', 'cpu', 'cuda', 'cuda:N' or 'mps'",
        requested,
    )
    if cuda_available is None or mps_available is None:
        import torch

        cuda_available = torch.cuda.is_available() if cuda_available is None else cuda_available
        if mps_available is None:
            mps_available = torch.backends.mps.is_available()
    if requested == "auto":
        return "cuda" if cuda_available else "mps" if mps_available else "cpu"
    if requested.startswith("cuda") and not cuda_available:
        raise ConfigError(
            f"The 'device' parameter of {owner} is {quoted(requested)}, but torch sees no CUDA device. "
            "Use device: auto or cpu."
        )
    if requested == "mps" and not mps_available:
        raise ConfigError(
            f"The 'device' parameter of {owner} is 'mps', but torch sees no MPS device. "
            "Use device: auto or cpu."
        )
    return requested


def resolve_precision(
    requested: Any, owner: str, device: str, *, bf16_supported: bool | None = None
) -> str:
    """Turn ``precision`` into "fp32", "bf16" or "fp16" for ``device``.

    "auto" is bf16 on CUDA cards that support it, else fp16 (with a GradScaler) on CUDA, and fp32
    on the CPU and MPS, where mixed precision rarely pays off. Half precisions need CUDA.
    """
    require(
        requested in PRECISIONS,
        owner,
        "precision",
        "one of " + ", ".join(map(repr, PRECISIONS)),
        requested,
    )
    on_cuda = device.startswith("cuda")
    if requested == "fp32":
        return "fp32"
    if not on_cuda:
        if requested == "auto":
            return "fp32"
        raise ConfigError(
            f"The 'precision' parameter of {owner} is {quoted(requested)}, which needs a CUDA device; "
            f"the device is {quoted(device)}. Use precision: auto or fp32."
        )
    if bf16_supported is None:
        import torch

        bf16_supported = torch.cuda.is_bf16_supported()
    if requested == "auto":
        return "bf16" if bf16_supported else "fp16"
    if requested == "bf16" and not bf16_supported:
        raise ConfigError(
            f"The 'precision' parameter of {owner} is 'bf16', but this CUDA device does not support "
            "bfloat16. Use precision: auto or fp16."
        )
    return requested


def length_batches(lengths: Sequence[int], batch_size: int) -> Iterator[np.ndarray]:
    """Index batches of similar lengths (longest first), so padding is small at prediction time."""
    order = np.argsort(-np.asarray(lengths), kind="stable")
    for start in range(0, len(order), batch_size):
        yield order[start : start + batch_size]
