"""Decay to archive, and summaries of old trivia.

Strength: importance · exp(-rate · days) · (1 + ln(1 + access_count)), with the
rate of the memory's type (``retrieval.decay``: EVENT 0.05, FACT 0.01, RELATION 0.005, OPINION
0.03 per day) and days since it was written or last read, whichever is later: a memory fades
when nobody needs it. Below ``archive_floor`` it is archived (status ``archived``, never
deleted; ``restore`` brings it back). Memories at least ``protect_importance`` important never
are.

Summaries: old (``summarize_after_days``), unimportant (< ``SUMMARIZE_MAX_IMPORTANCE``), current
memories of one subject and topic in one calendar month, at least ``SUMMARIZE_MIN_GROUP`` of
them, are folded into one summary memory whose text lists what they said; it links to each with
SUMMARIZES and they are archived, reachable from it. The summary is written, linked and the
originals archived in one transaction.
"""

from __future__ import annotations

import math
import uuid
from collections import Counter
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from ..config import ConsolidationSettings, DecayRates
from ..textsim import cjk_share
from ..timeparse.stamps import days_between, parse_time
from ..types import MemoryInput, MemoryStatus, MemoryType
from .report import Summary
from .work import Work

PAGE = 2000  # memories read per decay query
SUMMARY_NAMESPACE = uuid.UUID("6f1d0c8e-7a4b-4c1e-9a51-3c0f8f7d2b10")  # summary ids from their sources
MAX_LISTED = 12  # objects named in a summary's text; the rest are counted
MAX_WHAT = 300  # characters of that list at most
SUMMARIZE_MAX_IMPORTANCE = 0.4  # only memories less important than this are folded into a summary
SUMMARIZE_MIN_GROUP = 3  # memories of one subject and topic in one month that make a summary


def strength(importance: float, memory_type: str, days: float, access_count: int, rates: DecayRates) -> float:
    return importance * math.exp(-rates.rate(memory_type) * max(0.0, days)) * (1 + math.log1p(max(0, access_count)))


class Fader:
    def __init__(
        self,
        work: Work,
        settings: ConsolidationSettings,
        rates: DecayRates,
        writes_summary: Callable[[list[str]], str | None] | None = None,
    ):
        self.work = work
        self.settings = settings
        self.rates = rates
        self.writes_summary = writes_summary  # an LLM's sentence for what a summary folds, if configured

    def decay(self, group_id: str, as_of: datetime, run_id: str, now: str) -> tuple[int, list[str]]:
        """Update every live memory's strength; archive the faded ones. (updated, archived ids)"""
        s = self.settings
        after, updated = "", 0
        archived: list[str] = []
        while True:
            rows = self.work.read("lifecycle_decay_page", group_id=group_id, after=after, limit=PAGE)
            if not rows:
                return updated, archived
            after = rows[-1]["id"]
            values, fading = [], []
            for r in rows:
                # since it was written or last read, whichever is later
                since = max(
                    filter(None, (parse_time(r["created_at"]), parse_time(r["last_accessed_at"]))), default=None
                )
                days = days_between(since, as_of) or 0.0
                importance = 0.5 if r["importance"] is None else float(r["importance"])
                value = round(strength(importance, r["memory_type"], days, int(r["access_count"] or 0), self.rates), 6)
                values.append({"id": r["id"], "strength": value})
                if value < s.archive_floor and importance < s.protect_importance:
                    fading.append(r["id"])
            self.work.write("lifecycle_set_strength", group_id=group_id, rows=values, as_of=as_of.isoformat())
            updated += len(values)
            if fading:
                rows = self.work.write(
                    "lifecycle_archive", group_id=group_id, ids=fading, now=now, reason="decayed", run_id=run_id
                )
                archived.extend(rows[0]["archived"] if rows else [])

    def summarize(
        self,
        group_id: str,
        as_of: datetime,
        run_id: str,
        now: str,
        writer,
        on_summary: Callable[[Summary], None] | None = None,
    ) -> list[Summary]:
        s = self.settings
        before = (as_of - timedelta(days=s.summarize_after_days)).isoformat()
        rows = self.work.read(
            "lifecycle_summary_candidates",
            group_id=group_id,
            before=before,
            max_importance=min(SUMMARIZE_MAX_IMPORTANCE, s.protect_importance),
        )
        groups: dict[tuple, list[dict]] = {}
        for r in rows:
            at = parse_time(r["at"]) or parse_time(r["created_at"])
            month = at.strftime("%Y-%m") if at else "?"
            groups.setdefault((r["subject_id"], r["topic_id"], month), []).append(r)
        chosen = [
            (month, members) for (_, _, month), members in sorted(groups.items()) if len(members) >= SUMMARIZE_MIN_GROUP
        ]
        planned = [self._prepare(group_id, month, members, self._sentence(members)) for month, members in chosen]
        if planned:
            writer.embed([p for p, _, _ in planned])  # one embedding batch for every summary
        made: list[Summary] = []
        for p, reference, summary in planned:
            if self._write(group_id, p, reference, summary, run_id, now, writer):
                made.append(summary)
                if on_summary:
                    on_summary(summary)
        return made

    def _sentence(self, members: list[dict]) -> str | None:
        return self.writes_summary([m["text"] for m in members]) if self.writes_summary else None

    @staticmethod
    def _prepare(
        group_id: str, month: str, members: list[dict], sentence: str | None = None
    ) -> tuple[Any, datetime, Summary]:
        """The summary memory of ``members`` (prepared for the writer), its reference time, its report.
        ``sentence``: an LLM's one-sentence summary, kept as an attribute beside the listed objects."""
        from ..builder.create import prepare

        first = members[0]
        chinese = cjk_share(" ".join(m["text"] for m in members)) > 0.3
        objects = list(dict.fromkeys(m["object"] for m in members if m["object"]))
        listed = objects[:MAX_LISTED]
        more = len(objects) - len(listed)
        if chinese:
            what = ("、".join(listed) + (f" 等 {len(objects)} 项" if more > 0 else ""))[:MAX_WHAT]
            attributes = {"时间": f"{month[:4]}年{int(month[5:7])}月", "次数": f"{len(members)} 次"}
            if what:
                attributes["内容"] = what
            if sentence:
                attributes["概要"] = sentence
        else:
            what = (", ".join(listed) + (f" and {more} more" if more > 0 else ""))[:MAX_WHAT]
            attributes = {"time": datetime.strptime(month, "%Y-%m").strftime("%B %Y"), "times": str(len(members))}
            if what:
                attributes["what"] = what
            if sentence:
                attributes["summary"] = sentence
        kinds = Counter(m["memory_type"] for m in members)
        memory = MemoryInput(
            subject=first["subject"],
            memory_type=MemoryType(kinds.most_common(1)[0][0]),
            topic=first["topic"],
            object=None,
            attributes=attributes,
            importance=max(float(m["importance"] or 0) for m in members),
        )
        sources = sorted(m["id"] for m in members)
        reference = datetime.strptime(month + "-15", "%Y-%m-%d").replace(tzinfo=UTC)
        p = prepare(memory, reference)
        p.id = uuid.uuid5(SUMMARY_NAMESPACE, group_id + "|" + "|".join(sources)).hex
        return (
            p,
            reference,
            Summary(
                summary_id=p.id,
                text=p.text,
                subject=first["subject"],
                topic=first["topic"],
                sources=sources,
                period=month,
            ),
        )

    def _write(
        self, group_id: str, p: Any, reference: datetime, summary: Summary, run_id: str, now: str, writer: Any
    ) -> bool:
        """Write the summary, link it to its sources and archive them: one transaction."""
        from ..store.driver import tx_run

        def work(tx):
            if tx_run(tx, "lifecycle_memory_exists", group_id=group_id, id=p.id):
                return False
            writer.write_in(
                tx,
                group_id,
                [p],
                session_id=None,
                reference_time=reference,
                source="summary",
                status=MemoryStatus.CONSOLIDATED,
                now=now,
                extras=[{"summary_of": summary.sources, "summarized_period": summary.period}],
            )
            tx_run(
                tx,
                "lifecycle_summarize",
                group_id=group_id,
                summary_id=p.id,
                ids=summary.sources,
                now=now,
                run_id=run_id,
            )
            return True

        return bool(self.work.commit(work))
