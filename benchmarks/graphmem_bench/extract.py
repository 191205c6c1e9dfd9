"""`graphmem bench extract [--lang zh|en] [--json]`: how well the offline extractor reads everyday talk.

The labelled lines are ``data/extract_zh.txt`` and ``data/extract_en.txt`` (written for graphmem;
their header says the format): short conversations, some in several sessions, each line with the
facts a reader takes from it. Every conversation is read by today's extractor (``after``) and by
the extractor of main 7d6b7fc (``before``, frozen in ``_before_rules.py``), session by session;
the after extractor is told the people the earlier sessions named, as the pipeline tells it from
the database. No database and no model are needed: the figures are the extractor's alone.

A memory matches a labelled fact when its subject, its relation and its object agree:
- the relation is read from the memory as consolidation reads it: the slot it states (the one its
  extractor named, else its topic's), else a relation's role, a stance (like, dislike, stop), a
  possession, a plan, an identity, a name, an origin, else an event;
- an object agrees when one contains the other after case, width, articles and "my" are set
  aside; an event's or a plan's labelled key words must all appear in what the memory says;
- flags: ``time`` needs a time attribute, ``place=X`` a place attribute holding X, ``ends`` a memory
  that ends its slot; a change needs the slot it updates.
A causal link matches when its cause holds the cause's key words and its effect the effect's.
Precision counts every memory of a labelled line against that line's facts (a noise line's every
memory is wrong); recall counts every labelled fact. Per kind, and "resolved": the facts whose
subject is reached through a pronoun or a role.
"""

from __future__ import annotations

import json
import platform
import re
import time
import unicodedata
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import typer

DATA = Path(__file__).with_name("data")
LANGS = ("zh", "en")
KINDS = (
    "residence",
    "work",
    "school",
    "relation",
    "preference",
    "possession",
    "plan",
    "event",
    "fact",
    "change",
    "cause",
    "resolved",
)
TZ = timezone(timedelta(hours=8))
SAID = datetime(2025, 11, 5, 9, 0, tzinfo=TZ)  # the first session; each later one a week after


@dataclass
class Fact:
    kind: str
    subject: str
    relation: str
    object: str
    flags: dict[str, str] = field(default_factory=dict)


@dataclass
class Line:
    text: str
    session: int
    facts: list[Fact] = field(default_factory=list)
    causes: list[tuple[str, str]] = field(default_factory=list)


@dataclass
class Conversation:
    id: str
    speaker: str | None
    lines: list[Line] = field(default_factory=list)


def load(lang: str) -> list[Conversation]:
    """The labelled conversations of one language."""
    out: list[Conversation] = []
    session = 0
    for raw in (DATA / f"extract_{lang}.txt").read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("=="):
            out.append(Conversation(line[2:].strip(), None))
            session = 0
        elif line == "--":
            session += 1
        elif line.startswith("@speaker"):
            out[-1].speaker = line.split(None, 1)[1]
        else:
            text, _, labels = line.partition("::")
            item = Line(text.strip(), session)
            for label in filter(None, (x.strip() for x in labels.split(";"))):
                parts = label.split("|")
                if parts[0] == "cause":
                    item.causes.append((parts[1], parts[2]))
                    continue
                flags = {}
                for flag in (parts[4] if len(parts) > 4 else "").split():
                    key, _, value = flag.partition("=")
                    flags[key] = value or "yes"
                item.facts.append(Fact(parts[0], parts[1], parts[2], parts[3], flags))
            out[-1].lines.append(item)
    return out


# --- reading a memory as the benchmark compares it ------------------------------------------
def _norm(text: str | None) -> str:
    t = unicodedata.normalize("NFKC", text or "").casefold().replace("’", "'")
    t = re.sub(r"\b(?:the|a|an|my|his|her|our)\b", " ", t)
    return re.sub(r"[\s\W_]+", "", t)


def _subject_key(name: str) -> str:
    from graphmem.ingest.people import role_of
    from graphmem.lang import USER_KEY, person_key

    if person_key(name) == USER_KEY:
        return "@user"
    words = name.strip()
    if words.lower().startswith("my "):
        found = role_of(words[3:])
        return "@my:" + (found[0] if found else words[3:].lower())
    if words.startswith("我") and len(words) > 1:
        found = role_of(words[1:].lstrip("的"))
        return "@my:" + (found[0] if found else words[1:])
    return _norm(words)


_POSSESS = {"have", "has", "own", "owns", "got", "bought", "adopted", "有", "买了", "养了", "领养了", "买", "养"}
_PLANS = (
    "plan to",
    "plans to",
    "want to",
    "wants to",
    "打算",
    "想",
    "准备",
    "计划",
    "将",
    "am going to",
    "is going to",
)


def relation_of(memory: dict, slot: str | None) -> str:
    """The relation a memory states, read as consolidation reads it (see the module's docstring)."""
    from graphmem.ingest.people import role_of
    from graphmem.lifecycle.rules import is_stance_topic, is_stop, slot_of, stance

    topic = memory["topic"]
    if memory["memory_type"] == "RELATION":  # the role (a partner's too: wife, 男朋友), not its slot
        found = role_of(topic)
        return found[0] if found else topic.lower()
    slot = slot or slot_of(topic)
    if slot:
        return slot
    low = topic.lower()
    if memory.get("object") and is_stop(topic):
        return "stop"
    if memory.get("object") and is_stance_topic(topic):
        s = stance(topic)
        if is_stop(topic) or (s and s.sign < 0 and any(n in low for n in ("不再", "no longer", "anymore"))):
            return "stop"
        if s and s.base == "like":
            return "like" if s.sign > 0 else "dislike"
        if low.startswith(("最喜欢", "favorite", "is a fan", "is into", "is obsessed", "is passionate")):
            return "like"
    if low.startswith(("最喜欢", "favorite", "is a fan", "is into", "is obsessed", "is passionate")):
        return "like"
    if low in _POSSESS:
        return "has"
    if low.startswith(_PLANS):
        return "plan"
    if low in ("is a", "是", "am a"):
        return "is"
    if low in ("name", "叫"):
        return "name"
    if low in ("is from", "来自"):
        return "from"
    return "event"


@dataclass
class Memory:
    line: int
    subject: str
    relation: str
    text: str  # topic, object and attribute values: what an event's key words are looked for in
    object: str
    attributes: dict[str, str]
    ends: bool
    slot: str | None
    key: str


def memories_of(plan: Any, line_of: dict[str, int]) -> tuple[list[Memory], list[tuple[Memory, Memory]]]:
    from graphmem.lifecycle.rules import slot_of

    out: dict[str, Memory] = {}
    for pm in plan.memories:
        m = pm.memory
        slot = getattr(pm, "slot", None) or slot_of(m["topic"])
        out[pm.key] = Memory(
            line=line_of[pm.episode_ids[0]],
            subject=m["subject"],
            relation=relation_of(m, getattr(pm, "slot", None)),
            text=" ".join([m["topic"], m.get("object") or "", *(m.get("attributes") or {}).values()]),
            object=m.get("object") or "",
            attributes=m.get("attributes") or {},
            ends=bool(getattr(pm, "ends", False)),
            slot=slot,
            key=pm.key,
        )
    links = [(out[x.source], out[x.target]) for x in plan.links if x.source in out and x.target in out]
    return list(out.values()), links


def matches(fact: Fact, m: Memory) -> bool:
    if _subject_key(fact.subject) != _subject_key(m.subject) or fact.relation != m.relation:
        return False
    if fact.kind in ("event", "plan"):
        text = _norm(m.text)
        if not all(_norm(w) in text for w in fact.object.split()):
            return False
    elif fact.object:
        a, b = _norm(fact.object), _norm(m.object)
        if not a or not b or (a not in b and b not in a):
            return False
    if "time" in fact.flags and not any(k in ("time", "时间") for k in m.attributes):
        return False
    place = fact.flags.get("place")
    if place and not any(k in ("place", "地点") and _norm(place) in _norm(v) for k, v in m.attributes.items()):
        return False
    if "ends" in fact.flags and not m.ends:
        return False
    if (
        fact.kind == "change"
        and fact.relation in ("residence", "employer", "school", "job")
        and m.slot != fact.relation
    ):
        return False
    return True


# --- running the extractors -------------------------------------------------------------------
def _episodes(conv: Conversation, session: int, first: int) -> list[Any]:
    from graphmem.ingest.models import EpisodeView

    return [
        EpisodeView(
            id=f"{conv.id}:{first + i}",
            session_id=f"{conv.id}:{session}",
            role="user",
            content=line.text,
            timestamp=SAID + timedelta(days=7 * session, minutes=i),
            order=i,
            speaker=conv.speaker,
        )
        for i, line in enumerate(x for x in conv.lines if x.session == session)
    ]


def read(conv: Conversation, which: str) -> tuple[list[Memory], list[tuple[Memory, Memory]]]:
    """One conversation read session by session by one extractor (``before`` or ``after``)."""
    from graphmem.ingest.people import People

    if which == "before":
        from ._before_rules import RuleExtractor as Before

        extractor: Any = Before()
    else:
        from graphmem.ingest.rules import RuleExtractor

        extractor = RuleExtractor()
    memories: list[Memory] = []
    links: list[tuple[Memory, Memory]] = []
    relations: list[tuple[dict, int]] = []  # (people_known row, when) of the sessions read
    described: list[tuple[dict, int]] = []  # (people_described row, when)
    first = 0
    for session in sorted({line.session for line in conv.lines}):
        eps = _episodes(conv, session, first)
        line_of = {ep.id: first + i for i, ep in enumerate(eps)}
        if which == "before":
            plan = extractor.extract(eps)
        else:
            people = People.from_rows(
                _rows(relations, memories) + [{**d, "last_said": f"{when:06d}"} for d, when in described]
            )
            plan = extractor.extract(eps, people=people)
        found, found_links = memories_of(plan, line_of)
        for pm in plan.memories:
            if pm.memory["memory_type"] == "RELATION" and pm.memory["object"]:
                relations.append(
                    (
                        {"role": pm.memory["topic"], "name": pm.memory["object"], "subject": pm.memory["subject"]},
                        line_of[pm.episode_ids[0]],
                    )
                )
        for pm in plan.memories:  # what a person named with a role is said to be (people_described)
            m = pm.memory
            if m["memory_type"] == "FACT" and m["topic"] in ("is a", "是") and m.get("object"):
                if any(r["name"] == m["subject"] for r, _ in relations):
                    described.append(({"name": m["subject"], "description": m["object"]}, line_of[pm.episode_ids[0]]))
        for m in found:
            m.key = f"{session}:{m.key}"
        memories.extend(found)
        links.extend(found_links)
        first += len(eps)
    return memories, links


def _rows(relations: list[tuple[dict, int]], memories: list[Memory]) -> list[dict]:
    from graphmem.lang import USER_KEY, person_key

    rows = []
    for rel, when in relations:
        owner = USER_KEY if person_key(rel["subject"]) == USER_KEY else rel["subject"].casefold()
        last = max([when] + [m.line for m in memories if m.subject == rel["name"]])
        rows.append({"owner": owner, "role": rel["role"], "name": rel["name"], "last_said": f"{last:06d}"})
    return rows


# --- scoring ----------------------------------------------------------------------------------
def _kind_of(m: Memory) -> str:
    return {
        "residence": "residence",
        "employer": "work",
        "job": "work",
        "school": "school",
        "like": "preference",
        "dislike": "preference",
        "stop": "change",
        "has": "possession",
        "plan": "plan",
        "event": "event",
        "is": "fact",
        "name": "fact",
        "from": "fact",
    }.get(m.relation, "relation")


def score(convs: list[Conversation], which: str) -> dict:
    counts = {k: {"tp_p": 0, "n_p": 0, "tp_r": 0, "n_r": 0} for k in KINDS + ("all",)}
    noise_memories = 0
    for conv in convs:
        memories, links = read(conv, which)
        gold = [(i, f) for i, line in enumerate(conv.lines) for f in line.facts]
        used: set[int] = set()
        for i, fact in gold:
            hit = next((j for j, m in enumerate(memories) if m.line == i and j not in used and matches(fact, m)), None)
            for k in (fact.kind, "all") + (("resolved",) if "via" in fact.flags else ()):
                counts[k]["n_r"] += 1
                counts[k]["tp_r"] += hit is not None
            if hit is not None:
                used.add(hit)
        gold_links = [(i, c) for i, line in enumerate(conv.lines) for c in line.causes]
        linked = {
            id(x)
            for a, b in links
            if any(i == a.line and _has(a, c) and _has(b, e) for i, (c, e) in gold_links)
            for x in (a, b)
        }
        for j, m in enumerate(memories):
            facts = [f for f in conv.lines[m.line].facts]
            good = j in used or any(matches(f, m) for f in facts) or id(m) in linked
            if not facts and not conv.lines[m.line].causes:
                noise_memories += 1
            kind = next((f.kind for f in facts if matches(f, m)), "cause" if id(m) in linked else _kind_of(m))
            resolved = any("via" in f.flags and matches(f, m) for f in facts) or (
                any("via" in f.flags for f in facts) and _subject_key(m.subject) not in ("@user",)
            )
            for k in (kind, "all") + (("resolved",) if resolved else ()):
                counts[k]["n_p"] += 1
                counts[k]["tp_p"] += good
        found = [(a.line, a, b) for a, b in links]
        hits = 0
        for i, (cause, effect) in gold_links:
            if any(line == i and _has(a, cause) and _has(b, effect) for line, a, b in found):
                hits += 1
        good_links = sum(
            1 for line, a, b in found if any(i == line and _has(a, c) and _has(b, e) for i, (c, e) in gold_links)
        )
        counts["cause"]["n_r"] += len(gold_links)
        counts["cause"]["tp_r"] += hits
        counts["cause"]["n_p"] += len(found)
        counts["cause"]["tp_p"] += good_links
    out: dict[str, Any] = {}
    for k, c in counts.items():
        out[k] = {
            "precision": round(c["tp_p"] / c["n_p"], 3) if c["n_p"] else None,
            "recall": round(c["tp_r"] / c["n_r"], 3) if c["n_r"] else None,
            "found": c["n_p"],
            "labelled": c["n_r"],
        }
    out["noise_memories"] = noise_memories
    return out


def _has(m: Memory, words: str) -> bool:
    text = _norm(f"{m.subject} {m.text}")
    return all(_norm(w) in text for w in words.split())


def run(langs: tuple[str, ...] = LANGS) -> dict:
    report: dict[str, Any] = {
        "benchmark": "extract",
        "command": "graphmem bench extract" + ("" if len(langs) == 2 else f" --lang {langs[0]}"),
        "machine": _machine(),
        "languages": {},
    }
    for lang in langs:
        convs = load(lang)
        lines = sum(len(c.lines) for c in convs)
        started = time.perf_counter()
        after = score(convs, "after")
        seconds = time.perf_counter() - started
        before = score(convs, "before")
        report["languages"][lang] = {
            "conversations": len(convs),
            "lines": lines,
            "noise_lines": sum(1 for c in convs for line in c.lines if not line.facts and not line.causes),
            "after": after,
            "before": before,
            "after_seconds": round(seconds, 2),
        }
    return report


def _machine() -> dict:
    import os

    return {"cores": os.cpu_count(), "python": platform.python_version(), "platform": platform.platform()}


def command(
    lang: str | None = typer.Option(None, "--lang", help="zh or en (default: both)."),
    as_json: bool = typer.Option(False, "--json", help="Print the figures as JSON."),
) -> None:
    """Precision and recall of the offline extractor on labelled everyday lines (Chinese and English),
    per kind (residence, work, school, relation, preference, possession, plan, event, fact, change,
    cause, and subjects resolved through a pronoun or a role), beside the extractor of main 7d6b7fc."""
    if lang is not None and lang not in LANGS:
        raise typer.BadParameter("zh or en", param_hint="--lang")
    report = run((lang,) if lang else LANGS)
    if as_json:
        print(json.dumps(report, ensure_ascii=False, indent=2))
        return
    from rich.console import Console
    from rich.table import Table

    console = Console()
    for name, r in report["languages"].items():
        table = Table(
            title=f"graphmem bench extract --lang {name}: {r['lines']} lines ({r['noise_lines']} noise) "
            f"in {r['conversations']} conversations; precision / recall (found / labelled)",
            title_justify="left",
        )
        for column in ("kind", "before P", "before R", "after P", "after R", "after found / labelled"):
            table.add_column(column)
        for kind in KINDS + ("all",):
            b, a = r["before"][kind], r["after"][kind]
            table.add_row(
                kind,
                _f(b["precision"]),
                _f(b["recall"]),
                _f(a["precision"]),
                _f(a["recall"]),
                f"{a['found']} / {a['labelled']}",
            )
        console.print(table)
        console.print(
            f"  memories from noise lines: before {r['before']['noise_memories']}, after {r['after']['noise_memories']}",
            highlight=False,
        )


def _f(x: float | None) -> str:
    return "-" if x is None else f"{x:.2f}"


def main() -> None:
    typer.run(command)


if __name__ == "__main__":
    main()
