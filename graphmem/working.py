"""Working memory: what an agent keeps during one session, beside the long-term graph.

- a scratchpad: key -> value notes (any JSON value) with an optional time to live,
  stored as ``:ScratchNote`` nodes and read back oldest first;
- a recent-turns buffer: ``:BufferedTurn`` nodes in conversation
  order, kept beside the ``:Episode`` nodes until the session ends: then they are dropped, or
  promoted into long-term memory through ``ingest`` (episodes, extracted memories);
- ``render_context``: one prompt section with the scratchpad, the recent turns and the retrieved
  memories (best score first, each with the conversation turn it came from) that never exceeds
  its token budget, estimated for Chinese and English alike (``format.estimate_tokens``).

>>> graph.set_note("alice", "s1", "plan", {"step": 2, "todo": "book the train"}, ttl_seconds=3600)
>>> graph.add_turns("alice", "s1", [{"role": "user", "content": "我昨晚没睡好"}])
>>> print(graph.context("alice", "s1", "我为什么今天不开心？", max_tokens=400))
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any

from .errors import ValidationError
from .format import _line, estimate_tokens
from .store.driver import Store
from .types import MAX_KEY, MAX_NAME, MAX_TEXT, SearchResponse, SearchResult, _clean, validate_group_id, validate_id

MAX_NOTE_BYTES = 20000  # one note's value as JSON: a scratchpad holds notes, not documents
MAX_TURNS_READ = 10000  # turns a session's buffer hands to ingest at most
MAX_ROLE = 32  # user, assistant, system, tool: a role is a word
NOTE_SHARE = 0.25  # of the budget the scratchpad may use
TURN_SHARE = 0.40  # of what the scratchpad left that the recent turns may use; memories get the rest
MAX_TURN_CHARS = 600  # a longer turn is cut (with …) so one long turn cannot crowd out the others
MAX_EVIDENCE_CHARS = 160  # the quoted turn a memory came from

TITLE = "# CONTEXT"
NOTES_HEADING = "## Scratchpad"
TURNS_HEADING = "## Recent turns"
MEMORIES_HEADING = "## Memories"


def _now() -> tuple[str, int]:
    now = datetime.now(UTC)
    return now.isoformat(), int(now.timestamp() * 1000)


def _session(value: Any) -> str:
    return validate_id(value, "session_id")


def _key(value: Any) -> str:
    try:
        return _clean(value, "key", MAX_KEY)
    except ValueError as exc:
        raise ValidationError(f"key: {exc}", field="key") from None


class WorkingMemory:
    """The scratchpad and recent-turns buffer of sessions, on the graph's Neo4j."""

    def __init__(self, store: Store):
        self.store = store
        self._ready = False
        self._lock = threading.Lock()

    def _ensure(self) -> None:
        if self._ready:
            return
        with self._lock:
            if not self._ready:
                for name in ("agents_note_unique", "agents_turn_index"):
                    self.store.write(name)
                self._ready = True

    # --- scratchpad ------------------------------------------------------------------------
    def set_note(self, group_id: str, session_id: str, key: str, value: Any, ttl_seconds: float | None = None) -> dict:
        group_id, session_id, key = validate_group_id(group_id), _session(session_id), _key(key)
        try:
            encoded = json.dumps(value, ensure_ascii=False)
        except (TypeError, ValueError):
            raise ValidationError(
                "value: must be JSON (strings, numbers, booleans, lists, objects)", field="value"
            ) from None
        if len(encoded.encode()) > MAX_NOTE_BYTES:
            raise ValidationError(
                f"value: at most {MAX_NOTE_BYTES} bytes as JSON; keep documents in long-term "
                f"memory (ingest) and a short note here",
                field="value",
            )
        if ttl_seconds is not None and (isinstance(ttl_seconds, bool) or not ttl_seconds > 0):
            raise ValidationError(
                "ttl_seconds: must be a positive number of seconds (or None: until the session ends)",
                field="ttl_seconds",
            )
        self._ensure()
        now, now_ms = _now()
        expires = None if ttl_seconds is None else now_ms + int(ttl_seconds * 1000)
        self.store.write(
            "note_put",
            group_id=group_id,
            session_id=session_id,
            key=key,
            value=encoded,
            now=now,
            now_ms=now_ms + _tiebreak(),
            expires_ms=expires,
        )
        return {"key": key, "expires_ms": expires}

    def notes(self, group_id: str, session_id: str) -> dict[str, Any]:
        """The live notes (not expired), oldest first; expired ones are deleted on the way."""
        group_id, session_id = validate_group_id(group_id), _session(session_id)
        now_ms = _now()[1]
        self.store.write("notes_purge_expired", group_id=group_id, session_id=session_id, now_ms=now_ms)
        rows = self.store.read("notes_live", group_id=group_id, session_id=session_id, now_ms=now_ms)
        return {r["key"]: json.loads(r["value"]) for r in rows}

    def delete_note(self, group_id: str, session_id: str, key: str) -> bool:
        rows = self.store.write(
            "note_delete", group_id=validate_group_id(group_id), session_id=_session(session_id), key=_key(key)
        )
        return bool(rows and rows[0]["deleted"])

    # --- recent turns ----------------------------------------------------------------------
    def add_turns(self, group_id: str, session_id: str, messages: Iterable[dict]) -> list[int]:
        """Append turns ({role, content, speaker?, timestamp?}) to the session's buffer, in order."""
        group_id, session_id = validate_group_id(group_id), _session(session_id)
        turns = []
        for i, m in enumerate(messages):
            if not isinstance(m, dict) or not isinstance(m.get("content"), str) or not m["content"].strip():
                raise ValidationError(
                    f"messages[{i}]: each turn is an object with role and non-empty content", field="messages"
                )
            if len(m["content"]) > MAX_TEXT:
                raise ValidationError(f"messages[{i}].content: at most {MAX_TEXT} characters", field="messages")
            role, speaker = str(m.get("role") or "user"), m.get("speaker")
            if len(role) > MAX_ROLE or (speaker is not None and len(str(speaker)) > MAX_NAME):
                raise ValidationError(
                    f"messages[{i}]: role at most {MAX_ROLE} characters, speaker at most {MAX_NAME}", field="messages"
                )
            ts = m.get("timestamp")
            turns.append(
                {
                    "role": role,
                    "content": m["content"],
                    "speaker": None if speaker is None else str(speaker),
                    "timestamp": ts.isoformat() if isinstance(ts, datetime) else ts,
                }
            )
        if not turns:
            return []
        self._ensure()
        rows = self.store.write("turn_append", group_id=group_id, session_id=session_id, turns=turns, now=_now()[0])
        return [r["order"] for r in rows]

    def recent_turns(self, group_id: str, session_id: str, limit: int = 20) -> list[dict]:
        """The last ``limit`` turns, in conversation order."""
        rows = self.store.read(
            "turns_recent",
            group_id=validate_group_id(group_id),
            session_id=_session(session_id),
            limit=max(0, min(int(limit), MAX_TURNS_READ)),
        )
        return list(reversed(rows))

    def clear(self, group_id: str, session_id: str) -> int:
        rows = self.store.write("session_clear", group_id=validate_group_id(group_id), session_id=_session(session_id))
        return rows[0]["deleted"] if rows else 0


_last_ms = 0
_last_lock = threading.Lock()


def _tiebreak() -> int:
    """0, or the few milliseconds that keep notes written within one millisecond in call order."""
    global _last_ms
    with _last_lock:
        now = int(time.time() * 1000)
        bump = max(0, _last_ms + 1 - now)
        _last_ms = now + bump
        return bump


# --- one prompt section within a budget ------------------------------------------------------------


def _cut(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _note_line(key: str, value: Any) -> str:
    shown = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return f"- {key}: {_cut(shown, MAX_TURN_CHARS)}"


def _turn_line(turn: dict) -> str:
    who = turn.get("speaker") or turn.get("role") or "user"
    return f"- {who}: {_cut(turn.get('content') or '', MAX_TURN_CHARS)}"


def _memory_line(result: SearchResult, texts: dict[str, str]) -> str:
    line = _line(result, texts)
    if result.kind == "memory" and result.evidence and result.evidence[0].content:
        line += f' (said: "{_cut(result.evidence[0].content, MAX_EVIDENCE_CHARS)}")'
    return line


def render_context(
    notes: dict[str, Any], turns: list[dict], results: SearchResponse | Iterable[SearchResult] | None, max_tokens: int
) -> str:
    """The scratchpad, the recent turns (newest kept first, shown in order) and the memories (best
    score first, stopping at the first that does not fit, so what is shown is always the top of the
    ranking) as one section whose estimated size never exceeds ``max_tokens``; "" when nothing fits."""
    items = list(results.results if isinstance(results, SearchResponse) else (results or []))
    budget = max_tokens - estimate_tokens(TITLE) - 1

    def take(lines: Iterable[str], heading: str, allowance: float) -> tuple[list[str], int]:
        chosen: list[str] = []
        used = 0
        for line in lines:
            cost = estimate_tokens(line) + 1 + (0 if chosen else estimate_tokens(heading) + 2)
            if used + cost > allowance:
                break
            chosen.append(line)
            used += cost
        return chosen, used

    note_lines, used = take((_note_line(k, v) for k, v in notes.items()), NOTES_HEADING, budget * NOTE_SHARE)
    budget -= used
    turn_lines, used = take((_turn_line(t) for t in reversed(turns)), TURNS_HEADING, budget * TURN_SHARE)
    turn_lines.reverse()
    budget -= used
    texts = {r.memory_id: r.text for r in items}
    ranked = sorted(items, key=lambda r: -r.score)  # stable: equal scores keep the engine's order
    memory_lines, _ = take((_memory_line(r, texts) for r in ranked), MEMORIES_HEADING, budget)

    sections = [(NOTES_HEADING, note_lines), (TURNS_HEADING, turn_lines), (MEMORIES_HEADING, memory_lines)]
    while True:
        body = [f"{heading}\n" + "\n".join(lines) for heading, lines in sections if lines]
        if not body:
            return ""
        text = TITLE + "\n\n" + "\n\n".join(body)
        if estimate_tokens(text) <= max_tokens:
            return text
        for _, lines in reversed(sections):  # estimates add up, so this never runs; kept as a guard
            if lines:
                lines.pop()
                break
