"""Greedy batched generation with a causal LM: prompts, left padding, a pad-aware repetition penalty.

Kept apart from the client so the torch details sit in one place. Batched and one-by-one
generation give the same tokens: padding is on the left, masked, and excluded from the
repetition penalty (transformers' own penalty also penalises the pad token, which is often EOS,
so a padded row could stop later than the same prompt alone).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

_HASHED_WHOLE = (".json", ".jinja", ".model", ".txt", ".tiktoken")  # configs, tokenizers, templates
_HASHED_ENDS = (".safetensors", ".bin", ".pt", ".gguf")  # weights: size and both ends
_END_BYTES = 1 << 20


@dataclass(frozen=True)
class Generated:
    """The new tokens of one row, decoded, with the token counts."""

    text: str
    prompt_tokens: int
    completion_tokens: int


def folder_fingerprint(folder: Path) -> str:
    """A short hash of a model folder: its config and tokenizer files, and each weight file's size
    and first and last MiB, so retrained weights in the same place never hit an old cache entry."""
    digest = hashlib.sha256()
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        name = str(path.relative_to(folder))
        if path.suffix in _HASHED_WHOLE:
            digest.update(name.encode() + b"\0" + path.read_bytes())
        elif path.suffix in _HASHED_ENDS:
            size = path.stat().st_size
            with path.open("rb") as handle:
                head = handle.read(_END_BYTES)
                handle.seek(max(0, size - _END_BYTES))
                tail = handle.read(_END_BYTES)
            digest.update(f"{name}\0{size}\0".encode() + head + tail)
    return digest.hexdigest()[:16]


def prompt_text(tokenizer: Any, messages: Sequence[tuple[str, str]]) -> tuple[str, bool]:
    """The prompt string and whether special tokens still need adding.

    With a chat template the template adds them (BOS, role markers) and ends with the assistant
    turn; without one the contents are joined by blank lines, as a base model reads plain text.
    """
    if getattr(tokenizer, "chat_template", None):
        chat = [{"role": role, "content": content} for role, content in messages]
        text = tokenizer.apply_chat_template(chat, tokenize=False, add_generation_prompt=True)
        return str(text), False
    return "\n\n".join(content for _, content in messages), True


def generate_greedy(
    model: Any,
    tokenizer: Any,
    prompts: Sequence[list[int]],
    *,
    max_new_tokens: int,
    repetition_penalty: float,
    device: str,
) -> list[Generated]:
    """Greedy continuations of the token-id ``prompts`` in one left-padded batch; only new tokens decoded."""
    import torch
    from transformers import GenerationConfig, LogitsProcessorList

    pad_id = _pad_id(model, tokenizer)
    width = max(len(ids) for ids in prompts)
    input_ids = torch.full((len(prompts), width), pad_id, dtype=torch.long)
    attention_mask = torch.zeros((len(prompts), width), dtype=torch.long)
    for row, ids in enumerate(prompts):
        input_ids[row, width - len(ids) :] = torch.tensor(ids, dtype=torch.long)
        attention_mask[row, width - len(ids) :] = 1
    first_real = torch.tensor([width - len(ids) for ids in prompts], device=device)
    eos = model.generation_config.eos_token_id
    if eos is None:
        eos = tokenizer.eos_token_id
    eos_ids = set(eos if isinstance(eos, list) else [] if eos is None else [eos])
    # A fresh config, so a checkpoint's sampling defaults (do_sample, temperature, top_p) never apply.
    config = GenerationConfig(
        do_sample=False,
        num_beams=1,
        max_new_tokens=max_new_tokens,
        pad_token_id=pad_id,
        eos_token_id=eos,
    )
    processors = LogitsProcessorList()
    if repetition_penalty != 1.0:
        processors.append(_PaddingAwareRepetitionPenalty(repetition_penalty, first_real))
    with torch.inference_mode():
        output = model.generate(
            input_ids=input_ids.to(device),
            attention_mask=attention_mask.to(device),
            generation_config=config,
            logits_processor=processors,
        )
    results = []
    for row, ids in enumerate(prompts):
        new = output[row, width:].tolist()
        stop = next((i + 1 for i, token in enumerate(new) if token in eos_ids), len(new))
        text = tokenizer.decode(new[:stop], skip_special_tokens=True)
        results.append(Generated(text, len(ids), stop))
    return results


def _pad_id(model: Any, tokenizer: Any) -> int:
    for candidate in (tokenizer.pad_token_id, model.generation_config.pad_token_id):
        if isinstance(candidate, int):
            return candidate
    eos = tokenizer.eos_token_id
    if eos is None:
        eos = model.generation_config.eos_token_id
    return int(eos[0] if isinstance(eos, list) else eos or 0)  # masked anyway; any id will do


class _PaddingAwareRepetitionPenalty:
    """CTRL's repetition penalty (as transformers applies it) over each row's real tokens only."""

    def __init__(self, penalty: float, first_real: Any) -> None:
        self.penalty = penalty
        self.first_real = first_real  # per row: the position of its first non-pad token

    def __call__(self, input_ids: Any, scores: Any) -> Any:
        import torch

        positions = torch.arange(input_ids.shape[1], device=input_ids.device)
        real = (positions[None, :] >= self.first_real[:, None]).to(torch.int8)
        # amax: a token id seen at both a pad and a real position counts as seen.
        seen = torch.zeros(scores.shape, dtype=torch.int8, device=scores.device)
        seen.scatter_reduce_(1, input_ids, real, reduce="amax")
        penalised = torch.where(scores < 0, scores * self.penalty, scores / self.penalty)
        return torch.where(seen.bool(), penalised, scores)
