"""The local OpenAI-compatible chat server, in one package: the HTTP server (:mod:`.server`), its
injectable faults (:mod:`.faults`), the project's deterministic answers (:mod:`.backends`: label
prompts answered by a fitted model, rewrite prompts by the rules rewriter) and a clean stop on
SIGINT/SIGTERM (:mod:`.shutdown`, also used by the annotation app).

It serves ``shortcutlab llm-server``, the tests of every LLM client and the benchmarks. It sits
above ``llm``, ``models`` and ``shortcuts`` (its backends use them), so those can use the LLM
clients without an import cycle (tests/test_layering.py checks it).
"""
