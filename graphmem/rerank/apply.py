"""A search's answer reordered by the configured reranker, within its time budget."""

from __future__ import annotations

import json
import logging
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Any

from ..config import Settings
from ..errors import ConfigError
from .base import Reranker

log = logging.getLogger(__name__)

MAX_EVIDENCE = 500  # characters of a memory's source turn sent beside it
_lock = threading.Lock()
_rerankers: dict[str, Reranker] = {}
_pool: ThreadPoolExecutor | None = None
KINDS = ("cross-encoder", "http", "llm")


def reranker_for(settings: Settings) -> Reranker:
    """The reranker ``settings.rerank`` describes, made once per process (a model loads once)."""
    config = settings.rerank
    key = json.dumps([config.model_dump(mode="json"), settings.llm.model_dump(mode="json")], sort_keys=True)
    with _lock:
        found = _rerankers.get(key)
        if found is None:
            if config.kind == "cross-encoder":
                from .cross_encoder import cross_encoder

                found = cross_encoder(config.path, config.engine, config.max_length)
            elif config.kind == "http":
                from .remote import HttpReranker

                found = HttpReranker(config)
            elif config.kind == "llm":
                from .remote import LLMReranker

                found = LLMReranker(settings.llm)
            else:
                raise ConfigError(
                    "no reranker is configured: set [rerank] kind to one of "
                    f"{', '.join(KINDS)} (and its path, url or [llm]) in graphmem.toml, "
                    "or GRAPHMEM_RERANK__KIND"
                )
            _rerankers[key] = found
        return found


def document(result: Any) -> str:
    """What the reranker reads of a result: its text, and for a memory the turn it came from."""
    text = result.text
    if result.kind == "memory" and result.evidence and result.evidence[0].content:
        source = result.evidence[0].content[:MAX_EVIDENCE]
        if source not in text:
            text = f"{text}\n{source}"
    return text


def reranked(response: Any, settings: Settings, wanted: bool | None = None) -> Any:
    """``response`` with its best ``rerank.top_n`` results scored by the reranker and ordered
    again (see graphmem/rerank/__init__.py). ``wanted``: None reranks when a reranker is
    configured, True always (ConfigError when none is), False never."""
    config = settings.rerank
    if wanted is False or (wanted is None and config.kind == "none"):
        return response
    reranker = reranker_for(settings)
    head = response.results[: config.top_n]
    if not head:
        return response
    started = time.perf_counter()
    budget = config.budget_ms / 1000.0
    future = _executor().submit(reranker.scores, response.query, [document(r) for r in head], started + budget)
    try:
        scores = future.result(timeout=budget)
        if len(scores) != len(head):
            raise ValueError(f"{len(scores)} scores for {len(head)} results")
    except (FutureTimeout, TimeoutError):
        return _unreranked(response, started, f"{reranker.name} gave no answer within {config.budget_ms:g} ms")
    except Exception as exc:  # noqa: BLE001 - an optional stage: the search still answers
        log.warning("rerank: %s failed (%s: %s)", reranker.name, exc.__class__.__name__, exc)
        return _unreranked(response, started, f"{reranker.name} failed ({exc.__class__.__name__}: {exc})")
    for result, score in zip(head, scores):
        part = round(min(1.0, max(0.0, float(score))), 6)
        result.score_parts.rerank = part
        result.score = round(result.score + config.weight * part, 6)
    # the reranked results only gain, so they stay ahead of the rest
    head = sorted(head, key=lambda r: -r.score)
    response.results = head + response.results[config.top_n :]
    response.plan.weights["rerank"] = config.weight
    ms = _timed(response, started)
    response.plan.why.append(
        f"rerank: {reranker.name} scored the top {len(head)} in {ms:.0f} ms (weight {config.weight:g})"
    )
    return response


def _unreranked(response: Any, started: float, reason: str) -> Any:
    _timed(response, started)
    response.plan.why.append(f"rerank: {reason}; the results as ranked without it")
    return response


def _timed(response: Any, started: float) -> float:
    ms = round((time.perf_counter() - started) * 1000.0, 1)
    response.timings_ms["rerank"] = ms
    if "total" in response.timings_ms:
        response.timings_ms["total"] = round(response.timings_ms["total"] + ms, 1)
    return ms


def _executor() -> ThreadPoolExecutor:
    global _pool
    with _lock:
        if _pool is None:
            # a reranker past its budget still holds its thread until it stops: two let the next search in
            _pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="graphmem-rerank")
        return _pool
