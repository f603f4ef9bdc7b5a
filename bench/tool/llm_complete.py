"""The tool's side of bench/llm_throughput.py: send every prompt of a JSON-lines file through the
`openai-chat` client of the public API (``shortcutlab.llm.make_client``) at a concurrency, with a
fresh answer cache; no CLI command sends prompts and does nothing else.

    python bench/tool/llm_complete.py BASE_URL MODEL PROMPTS.jsonl CACHE.sqlite CONCURRENCY
"""

import json
import sys

from shortcutlab.llm import ChatRequest, make_client

base_url, model, prompts, cache, concurrency = sys.argv[1:6]
with open(prompts, encoding="utf-8") as lines:
    requests = [
        ChatRequest(messages=tuple(map(tuple, json.loads(line))), max_tokens=5) for line in lines
    ]
config = {"name": "openai-chat", "base_url": base_url, "model": model, "api_key_env": None}
with make_client(config | {"cache": cache, "concurrency": int(concurrency)}) as client:
    answers = client.complete(requests)
if any(answer.text is None for answer in answers):
    sys.exit("some prompt got no answer")
