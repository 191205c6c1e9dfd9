"""Rerankers: a second opinion on a search's best results (``[rerank]``, off by default).

A reranker reads the query beside each result's text and scores how well the text answers it,
which a vector's cosine (the query and the text embedded apart) cannot. Three kinds:

- ``cross_encoder.py``: a local cross-encoder, an ONNX file and its tokenizer.json run by
  onnxruntime, or any sentence-transformers ``CrossEncoder`` (the extra);
- ``remote.py``: an HTTP rerank endpoint (``/rerank``: query + documents → index +
  relevance_score), or the configured OpenAI-compatible LLM asked to rate each result.

``apply.reranked`` is what ``MemoryGraph.search_memories`` calls on its answer: the top
``top_n`` results are scored within ``budget_ms``, the score (in [0, 1]) becomes the result's
``score_parts.rerank``, ``weight`` × it is added to the result's score and those results are
ordered again. Past the budget, or when the reranker fails, the search returns its results as
they were and its plan says why.
"""

from __future__ import annotations

from .apply import KINDS, document, reranked, reranker_for
from .base import Reranker, unit_scores

__all__ = ["KINDS", "Reranker", "document", "reranked", "reranker_for", "unit_scores"]
