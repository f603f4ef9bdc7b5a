"""The plain alternative of the `openai-chat` client: the official `openai` client called once per
prompt, sequentially (how most evaluation scripts call it).

    python bench/plain/openai_sequential.py BASE_URL MODEL PROMPTS.jsonl
"""

import json
import sys

import openai

base_url, model, prompts = sys.argv[1:4]
client = openai.OpenAI(base_url=base_url, api_key="x")
with open(prompts, encoding="utf-8") as lines:
    for line in lines:
        messages = [{"role": role, "content": content} for role, content in json.loads(line)]
        completion = client.chat.completions.create(
            model=model, messages=messages, temperature=0.0, max_tokens=5
        )
        if completion.choices[0].message.content is None:
            sys.exit("a prompt got no answer")
client.close()
