"""Rerankers behind HTTP: a rerank endpoint, or the configured chat LLM rating each result.

``HttpReranker`` speaks the shape Cohere, Jina, vLLM, Infinity and llama.cpp's server share:
``POST {url}`` with ``{"model"?, "query", "documents", "top_n"}``, answered with
``{"results": [{"index", "relevance_score"}, ...]}`` (a bare list of ``{"index", "score"}``, as
text-embeddings-inference answers, is read too). Scores outside [0, 1] are read as logits.

``LLMReranker`` asks the ``[llm]`` OpenAI-compatible chat-completions endpoint to rate each
numbered result 0-10 for how well it answers the query, as JSON, and divides by ten.

Each request's timeout is what is left of the search's rerank budget.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Sequence
from typing import Any

import httpx

from ..config import LLMSettings, RerankSettings
from ..errors import ConfigError
from .base import unit_scores

MAX_DOCUMENT = 1000  # characters of a result an LLM is shown

RATE_PROMPT = (
    "为每条记忆打分（0-10）：它在多大程度上回答了问题或与问题相关。\n"
    "Rate each memory 0-10 for how well it answers or bears on the question.\n"
    'Answer with JSON only: {{"scores": [one number per memory, in order]}}\n'
    "Question: {query}\n{items}"
)


def _post(url: str, body: dict, api_key: str | None, deadline: float) -> Any:
    """``body`` posted as JSON, its JSON answer; the timeout is what is left until ``deadline``."""
    left = deadline - time.perf_counter()
    if left <= 0:
        raise TimeoutError("past the rerank budget")
    headers = {"Content-Type": "application/json"}
    if api_key:
        headers["Authorization"] = f"Bearer {api_key}"
    try:
        response = httpx.post(url, json=body, headers=headers, timeout=httpx.Timeout(left))
    except httpx.TimeoutException:
        raise TimeoutError(f"{url} did not answer within the rerank budget") from None
    if response.status_code >= 400:
        raise ValueError(f"{url} answered HTTP {response.status_code}: {response.text[:200]}")
    return response.json()


class HttpReranker:
    """A ``/rerank`` endpoint (see the module docstring)."""

    def __init__(self, settings: RerankSettings):
        if not settings.url:
            raise ConfigError("rerank.kind is http: set rerank.url to the endpoint, e.g. http://localhost:8080/rerank")
        self.settings = settings
        self.name = f"rerank endpoint {settings.url}"

    def scores(self, query: str, documents: Sequence[str], deadline: float) -> list[float]:
        body: dict[str, Any] = {"query": query, "documents": list(documents), "top_n": len(documents)}
        if self.settings.model:
            body["model"] = self.settings.model
        answer = _post(self.settings.url or "", body, self.settings.api_key, deadline)
        rows = answer.get("results", answer.get("data")) if isinstance(answer, dict) else answer
        if not isinstance(rows, list):
            raise ValueError(f"the rerank endpoint's answer has no results list: {str(answer)[:200]}")
        raw: list[float | None] = [None] * len(documents)
        for row in rows:
            index = int(row["index"])
            if 0 <= index < len(documents):
                raw[index] = float(row["relevance_score"] if "relevance_score" in row else row["score"])
        if any(r is None for r in raw):
            raise ValueError(
                f"the rerank endpoint scored {sum(r is not None for r in raw)} of {len(documents)} results"
            )
        return unit_scores([r for r in raw if r is not None])


class LLMReranker:
    """The configured chat LLM rating each result (see the module docstring)."""

    def __init__(self, settings: LLMSettings):
        if not settings.base_url:
            raise ConfigError(
                "rerank.kind is llm: set llm.base_url (and llm.model, llm.api_key) to an OpenAI-compatible endpoint"
            )
        self.settings = settings
        self.url = settings.base_url.rstrip("/") + "/chat/completions"
        self.name = f"LLM {settings.model}"

    def scores(self, query: str, documents: Sequence[str], deadline: float) -> list[float]:
        items = "\n".join(f"[{i}] {d[:MAX_DOCUMENT]}" for i, d in enumerate(documents, 1))
        body = {
            "model": self.settings.model,
            "temperature": 0,
            "messages": [{"role": "user", "content": RATE_PROMPT.format(query=query, items=items)}],
        }
        deadline = min(deadline, time.perf_counter() + self.settings.timeout_s)
        answer = _post(self.url, body, self.settings.api_key, deadline)
        return parse_ratings(answer["choices"][0]["message"]["content"] or "", len(documents))


def parse_ratings(text: str, n: int) -> list[float]:
    """The ``n`` ratings 0-10 of an LLM's answer, divided by ten: the JSON object's "scores", or
    else the first ``n`` numbers of the text. ValueError when there are fewer than ``n``."""
    values: list[Any] = []
    match = re.search(r"\{.*\}", text, re.S)
    if match:
        try:
            values = list(json.loads(match.group(0)).get("scores") or [])
        except (ValueError, AttributeError, TypeError):
            values = []
    if len(values) < n:
        values = re.findall(r"-?\d+(?:\.\d+)?", text.split(":", 1)[-1] if "scores" in text else text)
    if len(values) < n:
        raise ValueError(f"the LLM rated {len(values)} of {n} results: {text[:200]!r}")
    return [min(1.0, max(0.0, float(v) / 10.0)) for v in values[:n]]
