"""Search results rendered for a prompt under their type's headings, best score
first while they fit in ``max_tokens`` (one that does not fit is skipped). Tokens are estimated:
one per CJK character, 1.3 per English word or number, one per other symbol (close to what
GPT/Llama tokenizers count, never far below).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable

from .lang import CJK_PUNCTUATION, HAN_CHARS
from .types import SearchResponse, SearchResult

SECTIONS = [
    ("FACT", "Facts"),
    ("EVENT", "Events"),
    ("RELATION", "Relations"),
    ("OPINION", "Opinions"),
    ("EPISODE", "From conversations"),
]
TITLE = "# USER MEMORY"

_CJK = re.compile(f"[{CJK_PUNCTUATION}{HAN_CHARS}]")
_WORD = re.compile(r"[A-Za-z0-9\u00c0-\u024f]+(?:['’][A-Za-z]+)?")
_SYMBOL = re.compile(rf"[^\sA-Za-z0-9\u00c0-\u024f{CJK_PUNCTUATION}{HAN_CHARS}]")


def estimate_tokens(text: str) -> int:
    cjk = len(_CJK.findall(text))
    words = len(_WORD.findall(text))
    symbols = len(_SYMBOL.findall(text))
    return math.ceil(cjk + 1.3 * words + symbols)


def _line(result: SearchResult, texts: dict[str, str]) -> str:
    if result.kind == "episode":
        e = result.evidence[0] if result.evidence else None
        when = (result.occurred_at or "")[:16].replace("T", " ")
        who = (e.speaker or e.role) if e else None
        head = ", ".join(x for x in (when, who) if x)
        return f"- [{head}] {result.text}" if head else f"- {result.text}"
    line = f"- {result.text}"
    if not result.current:  # superseded by a newer memory: say so, when it held, and what replaced it
        newer = texts.get(result.superseded_by or "")
        held = f"held {(result.valid_from or '?')[:10]} → {(result.valid_until or '?')[:10]}; "
        return line + (
            f" [no longer true 已过时; {held}now: {newer}]" if newer else f" [no longer true 已过时; {held[:-2]}]"
        )
    if result.path:
        step = result.path[-1]
        other = texts.get(step.from_id)
        if other and step.edge == "CAUSALITY":
            line += f" [{'cause of' if step.direction == 'in' else 'effect of'}: {other}]"
        elif other and step.edge == "REFERENCE":
            line += f" [{step.relation or 'related'}: {other}]"
    return line


def format_context(results: SearchResponse | Iterable[SearchResult], max_tokens: int = 1000, title: str = TITLE) -> str:
    """The results as a prompt section within ``max_tokens`` (estimated); "" when none fits."""
    items = list(results.results if isinstance(results, SearchResponse) else results)
    texts = {r.memory_id: r.text for r in items}
    budget = max_tokens - estimate_tokens(title) - 1
    chosen: dict[str, list[str]] = {}
    for result in sorted(items, key=lambda r: -r.score):
        key = result.memory_type if result.kind == "memory" else "EPISODE"
        line = _line(result, texts)
        cost = estimate_tokens(line) + 1
        if key not in chosen:
            cost += estimate_tokens(dict(SECTIONS).get(key, key.title())) + 4  # "\n\n## " + heading
        if cost > budget:
            continue
        budget -= cost
        chosen.setdefault(key, []).append(line)
    if not chosen:
        return ""
    sections = [f"## {heading}\n" + "\n".join(chosen[key]) for key, heading in SECTIONS if key in chosen]
    sections += [f"## {key.title()}\n" + "\n".join(lines) for key, lines in chosen.items() if key not in dict(SECTIONS)]
    return title + "\n\n" + "\n\n".join(sections)
