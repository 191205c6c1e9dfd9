"""The read path: plan, seeds, expand, score (seed 004 §4.4, §5.2, §12.3); ``format_context``
renders its results for a prompt (``graphmem/format.py``)."""

from ..format import estimate_tokens, format_context
from .plan import PlanHints, QueryPlanner, RulePlanner
from .search import Retriever

__all__ = ["Retriever", "format_context", "estimate_tokens", "QueryPlanner", "RulePlanner", "PlanHints"]
