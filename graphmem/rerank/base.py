"""What every reranker is: one method from a query and texts to one score per text."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import numpy as np


class Reranker(Protocol):
    name: str  # what the plan's ``why`` calls it

    def scores(self, query: str, documents: Sequence[str], deadline: float) -> list[float]:
        """One relevance score per document, in [0, 1], higher is better. ``deadline`` is a
        ``time.perf_counter()`` value: work past it is wasted (the search has moved on), so a
        reranker that works in steps stops there (raising ``TimeoutError``)."""
        ...


def unit_scores(raw: Sequence[float] | np.ndarray) -> list[float]:
    """Scores in [0, 1]: kept when they all are (probabilities, Cohere's relevance_score), else
    read as logits through the logistic function (a cross-encoder's raw output)."""
    values = np.asarray(raw, np.float64)
    if values.size and (values.min() < 0.0 or values.max() > 1.0):
        values = 1.0 / (1.0 + np.exp(-np.clip(values, -60.0, 60.0)))
    return [float(v) for v in values]
