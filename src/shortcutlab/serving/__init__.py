"""Local servers run as processes: the project's deterministic chat backends and a clean shutdown.

This package sits above ``llm``, ``models`` and ``shortcuts``: its backends answer label prompts
with a fitted model (``models``) and rewrite prompts with the rules rewriter (``shortcuts``), for
the chat server that lives in ``llm``. Keeping them here, rather than in ``llm``, lets ``models``
and ``shortcuts`` use the LLM clients without an import cycle (tests/test_layering.py checks it).
"""
