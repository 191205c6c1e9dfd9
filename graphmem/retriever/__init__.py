"""The read path: plan, seeds, expand, score; ``format_context``
renders its results for a prompt (``graphmem/format.py``)."""

from ..format import estimate_tokens, format_context
from .plan import PlanHints, QueryPlanner, RulePlanner
from .search import Retriever

__all__ = ["Retriever", "format_context", "estimate_tokens", "QueryPlanner", "RulePlanner", "PlanHints"]
