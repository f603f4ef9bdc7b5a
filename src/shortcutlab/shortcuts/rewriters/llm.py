"""The ``llm`` rewriter: style rewrites by an LLM, as the Shortcut Maze paper made them (2.2.2).

The default prompts reproduce the paper's (appendix A.2.2, figures 5 and 6: formal, casual,
Shakespeare, Hemingway); the Bible prompt follows the same format (the Shortcut Suite used the STRAP
style-transfer model instead, section 4.1). Calls go through the LLM client layer, so they are
concurrent, retried, cached and resumable; a failed or empty answer is a failed rewrite (None).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from shortcutlab.errors import ConfigError
from shortcutlab.params import quoted
from shortcutlab.shortcuts.rewriters.base import ORIGINAL, Rewriter

_FORMAT = 'Format:\nInput Text: [TEXT TO BE MODIFIED].\n### Output: [MODIFIED TEXT].\nInput Text: "{text}"\n### Output: \n'
PAPER_PROMPTS = {
    "formal": "### Instruction: Please rephrase the following text using complex sentence structures and professional language. And do not to change the original meaning. "
    + _FORMAT,
    "casual": "### Instruction: Please try to rewrite the following text in simple, short, and straightforward sentences and casual and spoken words, and avoid using complex, long, and difficult sentences as possible. And do not to change the original meaning. "
    + _FORMAT,
    "shakespeare": "### Instruction: Rewrite the following text as if it was written by William Shakespeare. "
    + _FORMAT,
    "hemingway": "### Instruction: Rewrite the following text as if it was written by Ernest Hemingway. "
    + _FORMAT,
    "bible": "### Instruction: Rewrite the following text in the style of the King James Bible. And do not change the original meaning. "
    + _FORMAT,
}
_ECHO = re.compile(r"^\s*(?:###\s*)?Output:\s*", re.IGNORECASE)
_CONTINUATION = re.compile(r"\n\s*(?:Input Text:|###)")


def clean_output(text: str | None) -> str | None:
    """The rewrite in a completion: no echoed "### Output:" label, no wrapping quotes, nothing after
    a next "Input Text:" the model may have started; empty means failed (None).

    Examples:
        >>> clean_output('### Output: "Verily, it is good."\\nInput Text: more')
        'Verily, it is good.'
    """
    if text is None:
        return None
    text = _CONTINUATION.split(_ECHO.sub("", text), maxsplit=1)[0].strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'":
        text = text[1:-1].strip()
    return text or None


class LLMRewriter(Rewriter):
    """Rewrite with ``client`` (an openai-chat or hf-causal config) and per-style ``prompts``."""

    name = "llm"

    def __init__(
        self,
        client: Mapping[str, Any] | None = None,
        prompts: Mapping[str, str] | None = None,
        max_tokens: int = 512,
        temperature: float = 0.0,
    ) -> None:
        self.client = client
        self.prompts = prompts
        self.max_tokens = max_tokens
        self.temperature = temperature
        self._client: Any = None

    def _prompts(self) -> dict[str, str]:
        prompts = dict(PAPER_PROMPTS if self.prompts is None else self.prompts)
        for style, prompt in prompts.items():
            if not isinstance(prompt, str) or prompt.count("{text}") != 1:
                raise ConfigError(
                    f"The llm rewriter's prompt for {quoted(style)} must contain '{{text}}' exactly once. Got {quoted(prompt)} instead."
                )
        return prompts

    def supported_styles(self) -> tuple[str, ...]:
        return (*self._prompts(), ORIGINAL)

    def unsupported_hint(self, style: str) -> str:
        return (
            f" Add a prompt for it: rewriter_options: {{prompts: {{{style}: '... {{text}} ...'}}}}."
        )

    def _llm(self) -> Any:
        if self._client is None:
            if not isinstance(self.client, Mapping):
                raise ConfigError(
                    "The llm rewriter needs a 'client' option, e.g. rewriter_options: {client: {name: openai-chat, "
                    "base_url: http://127.0.0.1:8000/v1, model: my-model}}."
                )
            from shortcutlab.llm import make_client

            self._client = make_client(dict(self.client))
            self._client.check()
        return self._client

    def rewrite(
        self, texts: Sequence[str], style: str, *, role: str, row_ids: Sequence[int] | np.ndarray
    ) -> list[str | None]:
        self.check_supports(style)
        if style == ORIGINAL:
            return list(texts)
        from shortcutlab.llm.base import ChatRequest

        prompt = self._prompts()[style]
        requests = [
            ChatRequest(
                messages=(("user", prompt.replace("{text}", text)),),
                temperature=self.temperature,
                max_tokens=self.max_tokens,
            )
            for text in texts
        ]
        return [clean_output(response.text) for response in self._llm().complete(requests)]

    def provenance(self, style: str, role: str) -> dict[str, Any] | None:
        if self._client is None:
            return None
        # The client serves every style, so its usage is the running total at this point.
        return {
            "client": self._client.identity(),
            "client_usage_so_far": self._client.usage.to_json(),
        }
