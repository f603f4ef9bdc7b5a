"""The local chat server's tests use the LLM clients' fixtures: an isolated cache, a served
backend and a client factory."""

from tests.llm.conftest import isolated, openai_client, server  # noqa: F401 (fixtures)
