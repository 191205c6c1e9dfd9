"""Conversations in, evidence out: episodes, extractors (rules, LLM) and the retry queue.

- ``episodes.py``: turns → ``:Episode`` nodes (split, embedded with context, chained by NEXT);
- ``rules.py`` / ``llm.py``: the offline zh+en extractor and the OpenAI-compatible LLM one;
- ``jobs.py``: persisted ``:ExtractionJob`` nodes, retries with exponential backoff;
- ``pipeline.py``: ``Ingestor`` (what ``MemoryGraph.ingest`` / ``retry_extractions`` run).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..lazy import exports

if TYPE_CHECKING:
    from .jobs import job_counts
    from .models import IngestReport, RetryReport
    from .pipeline import Conversation, Ingestor, ingestor_for

__all__ = ["Conversation", "IngestReport", "Ingestor", "RetryReport", "ingestor_for", "job_counts"]

# imported on first use: a search reads ``people`` alone and need not load the pipeline
_HOME = {
    "job_counts": "jobs",
    "IngestReport": "models",
    "RetryReport": "models",
    "Conversation": "pipeline",
    "Ingestor": "pipeline",
    "ingestor_for": "pipeline",
}

__getattr__ = exports(__name__, _HOME)
