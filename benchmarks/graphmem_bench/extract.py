"""`graphmem bench extract [--lang zh|en] [--before REF] [--json]`: how well the offline extractor reads
everyday talk.

The labelled lines are ``data/extract_zh.txt`` and ``data/extract_en.txt`` (written for graphmem;
their header says the format): short conversations, some in several sessions, each line with the
facts a reader takes from it. Every conversation is read by this checkout's extractor (``after``),
session by session, told the people the earlier sessions named, as the pipeline tells it from the
database. No database and no model are needed: the figures are the extractor's alone. With
``--before REF`` the extractor of an older commit (a git worktree of REF, made and removed for the
run) reads the same lines, scored by this checkout's labels and rules, as the ``before`` column.
The same lines run as tests, one per reading: ``tests/test_reader_lines.py``.

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
    lineno: int = 0  # its line in the data file (1-based): what a test of it is named by
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
    for lineno, raw in enumerate((DATA / f"extract_{lang}.txt").read_text(encoding="utf-8").splitlines(), 1):
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
            item = Line(text.strip(), session, lineno)
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
    from graphmem.lang import USER_KEY, person_key
    from graphmem.lexicon.roles import role_of

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
    from graphmem.lexicon.roles import role_of
    from graphmem.lexicon.topics import is_possession, is_stance_topic, is_stop, slot_of, stance

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
    if low in _POSSESS or is_possession(topic):
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


def memories_of(session: dict) -> tuple[list[Memory], list[tuple[Memory, Memory]]]:
    """The memories of one session's plan (as ``plans`` gives it), read as the benchmark compares them."""
    from graphmem.lexicon.topics import slot_of

    out: dict[str, Memory] = {}
    for pm in session["memories"]:
        m = pm["memory"]
        out[pm["key"]] = Memory(
            line=session["line_of"][pm["episode_ids"][0]],
            subject=m["subject"],
            relation=relation_of(m, pm["slot"]),
            text=" ".join([m["topic"], m.get("object") or "", *(m.get("attributes") or {}).values()]),
            object=m.get("object") or "",
            attributes=m.get("attributes") or {},
            ends=pm["ends"],
            slot=pm["slot"] or slot_of(m["topic"]),
            key=pm["key"],
        )
    links = [(out[x], out[y]) for x, y in session["links"] if x in out and y in out]
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


def read(conv: Conversation, which: str = "after") -> tuple[list[Memory], list[tuple[Memory, Memory]]]:
    """One conversation read session by session by the extractor ``graphmem`` imports from (``which``
    is kept for callers of the older signature: ``--before`` reads with another checkout's)."""
    return reading(plans(conv))


def reading(sessions: list[dict]) -> tuple[list[Memory], list[tuple[Memory, Memory]]]:
    """The memories and causal links of a conversation's plans (``plans``), as the benchmark compares them."""
    memories: list[Memory] = []
    links: list[tuple[Memory, Memory]] = []
    for n, session in enumerate(sessions):
        found, found_links = memories_of(session)
        for m in found:
            m.key = f"{n}:{m.key}"
        memories.extend(found)
        links.extend(found_links)
    return memories, links


def plans(conv: Conversation) -> list[dict]:
    """What the extractor ``graphmem`` imports from plans for one conversation, session by session, as
    plain data (so that an older checkout's extractor, run in a child process, hands it back as JSON):
    per session the line of each turn, the planned memories and the causal links."""
    from graphmem.ingest.rules import RuleExtractor

    try:
        from graphmem.lexicon.roles import IDENTITY_TOPICS as identity  # people_described's topics
    except ImportError:  # an older checkout's, before the lexicon
        identity = ["is a", "是"]

    extractor: Any = RuleExtractor()
    told = getattr(extractor, "uses_people", False)  # an extractor older than people.py is told no one
    out: list[dict] = []
    said: list[tuple[str, int]] = []  # (subject, line) of every memory read so far
    relations: list[tuple[dict, int]] = []  # (people_known row, when) of the sessions read
    described: list[tuple[dict, int]] = []  # (people_described row, when)
    first = 0
    for session in sorted({line.session for line in conv.lines}):
        eps = _episodes(conv, session, first)
        line_of = {ep.id: first + i for i, ep in enumerate(eps)}
        if not told:
            plan = extractor.extract(eps)
        else:
            from graphmem.ingest.people import People

            people = People.from_rows(
                _rows(relations, said) + [{**d, "last_said": f"{when:06d}"} for d, when in described]
            )
            plan = extractor.extract(eps, people=people)
        memories = [
            {
                "key": pm.key,
                "episode_ids": list(pm.episode_ids),
                "memory": dict(pm.memory),
                "slot": getattr(pm, "slot", None),
                "ends": bool(getattr(pm, "ends", False)),
            }
            for pm in plan.memories
        ]
        out.append({"line_of": line_of, "memories": memories, "links": [[x.source, x.target] for x in plan.links]})
        for pm in memories:
            m, line = pm["memory"], line_of[pm["episode_ids"][0]]
            if m["memory_type"] == "RELATION" and m["object"]:
                relations.append(({"role": m["topic"], "name": m["object"], "subject": m["subject"]}, line))
        for pm in memories:  # what a person named with a role is said to be (people_described)
            m, line = pm["memory"], line_of[pm["episode_ids"][0]]
            if m["memory_type"] == "FACT" and m["topic"] in identity and m.get("object"):
                if any(r["name"] == m["subject"] for r, _ in relations):
                    described.append(({"name": m["subject"], "description": m["object"]}, line))
        said.extend((pm["memory"]["subject"], line_of[pm["episode_ids"][0]]) for pm in memories)
        first += len(eps)
    return out


def _rows(relations: list[tuple[dict, int]], said: list[tuple[str, int]]) -> list[dict]:
    from graphmem.lang import USER_KEY, person_key

    rows = []
    for rel, when in relations:
        owner = USER_KEY if person_key(rel["subject"]) == USER_KEY else rel["subject"].casefold()
        last = max([when] + [line for subject, line in said if subject == rel["name"]])
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


@dataclass
class Verdict:
    """How one conversation's reading agrees with its labels: each labelled fact and cause found or
    not, each memory right or wrong (with the kind it counts under)."""

    facts: list[tuple[int, Fact, bool]]  # (line, fact, found)
    causes: list[tuple[int, tuple[str, str], bool]]  # (line, (cause, effect), found)
    memories: list[tuple[Memory, bool, str, bool]]  # (memory, right, kind, resolved)
    links: list[tuple[int, bool]]  # (line, right) of each causal link found


def judge(conv: Conversation, memories: list[Memory], links: list[tuple[Memory, Memory]]) -> Verdict:
    """One conversation's reading held against its labels (``score`` counts these; the tests name them)."""
    verdict = Verdict([], [], [], [])
    gold = [(i, f) for i, line in enumerate(conv.lines) for f in line.facts]
    used: set[int] = set()
    for i, fact in gold:
        hit = next((j for j, m in enumerate(memories) if m.line == i and j not in used and matches(fact, m)), None)
        verdict.facts.append((i, fact, hit is not None))
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
        facts = conv.lines[m.line].facts
        good = j in used or any(matches(f, m) for f in facts) or id(m) in linked
        kind = next((f.kind for f in facts if matches(f, m)), "cause" if id(m) in linked else _kind_of(m))
        resolved = any("via" in f.flags and matches(f, m) for f in facts) or (
            any("via" in f.flags for f in facts) and _subject_key(m.subject) not in ("@user",)
        )
        verdict.memories.append((m, good, kind, resolved))
    found = [(a.line, a, b) for a, b in links]
    for i, (cause, effect) in gold_links:
        hit = any(line == i and _has(a, cause) and _has(b, effect) for line, a, b in found)
        verdict.causes.append((i, (cause, effect), hit))
    for line, a, b in found:
        verdict.links.append((line, any(i == line and _has(a, c) and _has(b, e) for i, (c, e) in gold_links)))
    return verdict


def score(convs: list[Conversation], which: str = "after", read_with: Any = None) -> dict:
    """The figures of a reading of ``convs``: this checkout's extractor's, or ``read_with(conv)``'s."""
    counts = {k: {"tp_p": 0, "n_p": 0, "tp_r": 0, "n_r": 0} for k in KINDS + ("all",)}
    noise_memories = 0
    for conv in convs:
        verdict = judge(conv, *(read_with(conv) if read_with else read(conv)))
        for _, fact, hit in verdict.facts:
            for k in (fact.kind, "all") + (("resolved",) if "via" in fact.flags else ()):
                counts[k]["n_r"] += 1
                counts[k]["tp_r"] += hit
        for m, good, kind, resolved in verdict.memories:
            line = conv.lines[m.line]
            if not line.facts and not line.causes:
                noise_memories += 1
            for k in (kind, "all") + (("resolved",) if resolved else ()):
                counts[k]["n_p"] += 1
                counts[k]["tp_p"] += good
        counts["cause"]["n_r"] += len(verdict.causes)
        counts["cause"]["tp_r"] += sum(hit for _, _, hit in verdict.causes)
        counts["cause"]["n_p"] += len(verdict.links)
        counts["cause"]["tp_p"] += sum(good for _, good in verdict.links)
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


def run(langs: tuple[str, ...] = LANGS, before: str | None = None) -> dict:
    report: dict[str, Any] = {
        "benchmark": "extract",
        "command": "graphmem bench extract"
        + ("" if len(langs) == 2 else f" --lang {langs[0]}")
        + (f" --before {before}" if before else ""),
        "machine": _machine(),
        "languages": {},
    }
    older = _score_at(before, langs) if before else {}
    for lang in langs:
        convs = load(lang)
        lines = sum(len(c.lines) for c in convs)
        started = time.perf_counter()
        after = score(convs, "after")
        seconds = time.perf_counter() - started
        report["languages"][lang] = {
            "conversations": len(convs),
            "lines": lines,
            "noise_lines": sum(1 for c in convs for line in c.lines if not line.facts and not line.causes),
            "after": after,
            "after_seconds": round(seconds, 2),
        }
        if before:
            report["languages"][lang]["before"] = older[lang]
            report["languages"][lang]["before_ref"] = older["commit"]
    return report


def _score_at(ref: str, langs: tuple[str, ...]) -> dict:
    """The figures of the extractor of commit ``ref``: a git worktree of it, made in a temporary
    folder and removed after, whose ``graphmem`` a child Python imports ahead of this one's, scored
    by this module (this checkout's labels and matching)."""
    import os
    import subprocess
    import sys
    import tempfile

    repo = Path(__file__).resolve().parents[2]
    git = ["git", "-C", str(repo)]
    found = subprocess.run([*git, "rev-parse", "--verify", f"{ref}^{{commit}}"], capture_output=True, text=True)
    if found.returncode != 0:
        raise typer.BadParameter(
            f"{ref!r} is no commit of the git checkout at {repo} (--before needs the benchmarks of a git checkout)",
            param_hint="--before",
        )
    commit = found.stdout.strip()
    with tempfile.TemporaryDirectory(prefix="graphmem-before-") as tmp:
        tree = Path(tmp) / "tree"
        subprocess.run([*git, "worktree", "add", "--detach", str(tree), commit], check=True, capture_output=True)
        try:
            env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tree), str(Path(__file__).parents[1])])}
            code = f"from graphmem_bench.extract import _dump_plans; _dump_plans({list(langs)!r})"
            child = subprocess.run([sys.executable, "-c", code], env=env, cwd=tmp, capture_output=True, text=True)
            if child.returncode != 0:
                raise RuntimeError(f"the extractor of {ref} ({commit[:7]}) failed:\n{child.stderr[-2000:]}")
        finally:
            subprocess.run([*git, "worktree", "remove", "--force", str(tree)], capture_output=True)
    read = json.loads(child.stdout.strip().splitlines()[-1])
    return {
        **{lang: score(load(lang), "after", lambda conv, got=read[lang]: reading(got[conv.id])) for lang in langs},
        "commit": commit,
    }


def _dump_plans(langs: list[str]) -> None:
    """Print, as one line of JSON, the plans of every labelled conversation (``_score_at``'s child)."""
    out = {lang: {conv.id: plans(conv) for conv in load(lang)} for lang in langs}
    print(json.dumps(out, ensure_ascii=False, default=str))


def _machine() -> dict:
    import os

    return {"cores": os.cpu_count(), "python": platform.python_version(), "platform": platform.platform()}


def command(
    lang: str | None = typer.Option(None, "--lang", help="zh or en (default: both)."),
    before: str | None = typer.Option(
        None,
        "--before",
        help="A git commit (hash, tag, branch) whose extractor reads the same lines as the 'before' column, "
        "run from a temporary git worktree of it (a git checkout is needed).",
    ),
    as_json: bool = typer.Option(False, "--json", help="Print the figures as JSON."),
) -> None:
    """Precision and recall of the offline extractor on labelled everyday lines (Chinese and English),
    per kind (residence, work, school, relation, preference, possession, plan, event, fact, change,
    cause, and subjects resolved through a pronoun or a role); with --before REF, beside the extractor
    of an older commit."""
    if lang is not None and lang not in LANGS:
        raise typer.BadParameter("zh or en", param_hint="--lang")
    report = run((lang,) if lang else LANGS, before)
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
        older = ("before P", "before R") if before else ()
        for column in ("kind", *older, "after P", "after R", "after found / labelled"):
            table.add_column(column)
        for kind in KINDS + ("all",):
            a = r["after"][kind]
            b = (_f(r["before"][kind]["precision"]), _f(r["before"][kind]["recall"])) if before else ()
            table.add_row(kind, *b, _f(a["precision"]), _f(a["recall"]), f"{a['found']} / {a['labelled']}")
        console.print(table)
        noise = f"before ({r['before_ref'][:7]}) {r['before']['noise_memories']}, after " if before else ""
        console.print(f"  memories from noise lines: {noise}{r['after']['noise_memories']}", highlight=False)


def _f(x: float | None) -> str:
    return "-" if x is None else f"{x:.2f}"


def main() -> None:
    typer.run(command)


if __name__ == "__main__":
    main()
