"""Conversations in, evidence out: episodes, extractors (rules, LLM) and the retry queue.

- ``episodes.py``: turns → ``:Episode`` nodes (split, embedded with context, chained by NEXT);
- ``rules.py`` / ``llm.py``: the offline zh+en extractor and the OpenAI-compatible LLM one;
- ``jobs.py``: persisted ``:ExtractionJob`` nodes, retries with exponential backoff;
- ``pipeline.py``: ``Ingestor`` (what ``MemoryGraph.ingest`` / ``retry_extractions`` run).
"""

from .jobs import job_counts
from .models import IngestReport, RetryReport
from .pipeline import Conversation, Ingestor, ingestor_for

__all__ = ["Conversation", "IngestReport", "Ingestor", "RetryReport", "ingestor_for", "job_counts"]
