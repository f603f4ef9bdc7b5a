"""``hf-causal``: a local Hugging Face causal LM answering chat requests by greedy decoding.

The Shortcut Maze paper's label-answer settings: temperature 0, ``max_tokens`` new tokens
(default 5) and a repetition penalty of 1.1 unless a request sets its own. Requests are generated
in left-padded batches of similar length; the same requests give the same answers whatever the
batching. The model loads on the first cache miss, so a fully cached re-run never loads it.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from shortcutlab.errors import ConfigError
from shortcutlab.llm.base import ChatRequest, ChatResponse, LLMClient
from shortcutlab.llm.hf_generation import folder_fingerprint, generate_greedy, prompt_text
from shortcutlab.params import check_positive_int, quoted, require
from shortcutlab.torch_runtime import length_batches, resolve_device, resolve_precision

DEFAULT_REPETITION_PENALTY = 1.1  # Shortcut Maze, LLM prompting setup


class HFCausalClient(LLMClient):
    """Greedy answers from the causal LM saved in the folder ``path`` (``save_pretrained`` output)."""

    name = "hf-causal"

    def __init__(
        self,
        path: str | Path,
        batch_size: int = 8,
        device: str = "auto",
        precision: str = "auto",
        cache: str | Path | None = None,
    ) -> None:
        super().__init__()
        self.path = path
        self.batch_size = batch_size
        self.device = device
        self.precision = precision
        self.cache = cache
        check_positive_int(self.name, "batch_size", batch_size)
        self._loaded: tuple[Any, Any, str] | None = None
        self._identity: str | None = None
        self._generate_lock = threading.Lock()

    def identity(self) -> str:
        if self._identity is None:
            folder = self._folder()
            precision = resolve_precision(self.precision, self.name, self._device())
            self._identity = f"{self.name}|{folder}|{folder_fingerprint(folder)}|{precision}"
        return self._identity

    def check(self) -> None:
        """Refuse early: no such folder, no config.json, or a device or precision this machine lacks."""
        from transformers import AutoConfig

        folder = self._folder()
        resolve_precision(self.precision, self.name, self._device())
        config = AutoConfig.from_pretrained(folder, local_files_only=True)
        if getattr(config, "is_encoder_decoder", False):
            raise ConfigError(
                f"The 'path' parameter of {self.name} points to '{folder}', an encoder-decoder "
                f"model ({config.model_type}). Pass a decoder-only causal LM."
            )

    def close(self) -> None:
        self._loaded = None
        super().close()

    def _generate(
        self, requests: list[ChatRequest], save: Callable[[int, ChatResponse], None]
    ) -> Iterator[tuple[int, ChatResponse]]:
        for request in requests:
            if request.temperature != 0:
                raise ConfigError(
                    f"{self.name} decodes greedily, so requests must have temperature 0. Got "
                    f"temperature {request.temperature}. Use 0, or an openai-chat server to sample."
                )
        model, tokenizer, device = self._model()
        prompts = [self._encode(tokenizer, request) for request in requests]
        groups: dict[tuple[int, float], list[int]] = {}
        for index, request in enumerate(requests):
            penalty = request.repetition_penalty
            settings = (
                request.max_tokens,
                DEFAULT_REPETITION_PENALTY if penalty is None else penalty,
            )
            groups.setdefault(settings, []).append(index)
        for (max_tokens, penalty), members in groups.items():
            for batch in length_batches([len(prompts[i]) for i in members], self.batch_size):
                indices = [members[i] for i in batch]
                with self._generate_lock:
                    generated = generate_greedy(
                        model,
                        tokenizer,
                        [prompts[i] for i in indices],
                        max_new_tokens=max_tokens,
                        repetition_penalty=penalty,
                        device=device,
                    )
                self.usage.add(
                    requests=1,
                    prompt_tokens=sum(g.prompt_tokens for g in generated),
                    completion_tokens=sum(g.completion_tokens for g in generated),
                )
                for index, answer in zip(indices, generated, strict=True):
                    response = ChatResponse(
                        _cut_at_stop(answer.text, requests[index].stop),
                        prompt_tokens=answer.prompt_tokens,
                        completion_tokens=answer.completion_tokens,
                    )
                    save(index, response)
                    yield index, response

    def _encode(self, tokenizer: Any, request: ChatRequest) -> list[int]:
        text, add_special = prompt_text(tokenizer, request.messages)
        ids = tokenizer(text, add_special_tokens=add_special)["input_ids"]
        if not ids:
            raise ConfigError(
                f"A request to {self.name} tokenises to no tokens: {quoted(request.messages)}. "
                "Give every request some text."
            )
        return list(ids)

    def _model(self) -> tuple[Any, Any, str]:
        if self._loaded is None:
            import torch
            from transformers import AutoModelForCausalLM, AutoTokenizer

            folder = self._folder()
            device = self._device()
            precision = resolve_precision(self.precision, self.name, device)
            dtype = {"fp32": torch.float32, "bf16": torch.bfloat16, "fp16": torch.float16}
            tokenizer = AutoTokenizer.from_pretrained(folder, local_files_only=True)
            model = AutoModelForCausalLM.from_pretrained(
                folder, local_files_only=True, dtype=dtype[precision]
            )
            self._loaded = (model.to(device).eval(), tokenizer, device)
        return self._loaded

    def _device(self) -> str:
        return resolve_device(self.device, self.name)

    def _folder(self) -> Path:
        require(
            isinstance(self.path, str | os.PathLike) and str(self.path).strip() != "",
            self.name,
            "path",
            "a local model folder",
            self.path,
        )
        folder = Path(os.fspath(self.path)).expanduser()
        problem = None
        if not folder.exists():
            problem = "does not exist"
        elif not folder.is_dir():
            problem = "is a file"
        elif not (folder / "config.json").is_file():
            problem = "has no config.json"
        if problem:
            raise ConfigError(
                f"The 'path' parameter of {self.name} points to '{self.path}', which {problem}. "
                "Pass a folder written by save_pretrained (for a hub model: huggingface-cli "
                "download NAME --local-dir DIR)."
            )
        return folder.resolve()


def _cut_at_stop(text: str, stop: tuple[str, ...]) -> str:
    """The text before the first stop sequence, as OpenAI servers return it."""
    cut = min((position for s in stop if (position := text.find(s)) >= 0), default=len(text))
    return text[:cut]
