"""The memory lifecycle: consolidation (merges, conflicts, links, decay, archive, summaries)
and its scheduler. ``MemoryGraph.consolidate`` and ``graphmem consolidate`` run it."""

from .consolidator import Consolidator
from .report import ConceptMerge, Conflict, ConsolidationReport, Discovered, Event, MemoryMerge, Summary
from .scheduler import ConsolidationScheduler

__all__ = [
    "Consolidator",
    "ConsolidationScheduler",
    "ConsolidationReport",
    "ConceptMerge",
    "MemoryMerge",
    "Conflict",
    "Discovered",
    "Summary",
    "Event",
]
