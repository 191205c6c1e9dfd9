"""The end-to-end demo: write memories in Chinese and English, link them, search them, consolidate."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from typing import Any, NotRequired, TypedDict

from rich.console import Console
from rich.table import Table

from .config import Settings
from .graph import MemoryGraph

TZ = timezone(timedelta(hours=8))

# (reference time, create_memory arguments), in Chinese and their English twins.
MEMORIES: list[tuple[str, dict[str, Any]]] = [
    (
        "10:00",
        dict(
            subject="我", memory_type="事实", topic="心情", object="不好", attributes={"时间": "今天"}, importance=0.6
        ),
    ),
    (
        "10:05",
        dict(
            subject="我", memory_type="事件", topic="睡眠", object="不好", attributes={"时间": "昨晚"}, importance=0.6
        ),
    ),
    ("10:06", dict(subject="小明", memory_type="事实", topic="喜好", object="打篮球", importance=0.5)),
    (
        "10:07",
        dict(
            subject="我",
            memory_type="关系",
            topic="朋友关系",
            object="小明",
            attributes={"程度": "好朋友"},
            importance=0.7,
        ),
    ),
    (
        "10:08",
        dict(
            subject="我",
            memory_type="事件",
            topic="购物",
            object="水果",
            attributes={"时间": "昨天", "地点": "超市", "物品": "苹果,香蕉"},
            importance=0.4,
        ),
    ),
    (
        "11:00",
        dict(
            subject="I",
            memory_type="event",
            topic="missed",
            object="the train to work",
            attributes={"time": "this morning at 8"},
            importance=0.5,
        ),
    ),
    (
        "11:01",
        dict(
            subject="I",
            memory_type="fact",
            topic="was late for",
            object="the team meeting",
            attributes={"time": "this morning"},
            importance=0.6,
        ),
    ),
    ("11:02", dict(subject="Alice", memory_type="relation", topic="is the manager of", object="me", importance=0.7)),
    ("11:03", dict(subject="I", memory_type="opinion", topic="dislike", object="rainy days", importance=0.5)),
]
LINKS = [
    ("睡眠不好", "心情不好", "导致"),
    ("I missed the train", "I was late for the team meeting", "causes"),
]
# (question, score profile). The last two cross the languages (an English question about a
# Chinese memory, and back) and ask what happened, whenever: the "recall" profile ranks by
# relevance alone, where the default weights let important and often-read memories rise (what
# suits an agent's working context), and a match across languages has a lower cosine than one in
# the same language.
# Facts that change: said months apart; consolidation makes the newer current.
UPDATES: list[tuple[datetime, dict[str, Any]]] = [
    (datetime(2025, 6, 1, 9, 0, tzinfo=TZ), dict(subject="我", memory_type="事实", topic="住在", object="北京")),
    (datetime(2025, 6, 1, 9, 1, tzinfo=TZ), dict(subject="I", memory_type="fact", topic="work at", object="Acme")),
    (datetime(2025, 11, 5, 9, 0, tzinfo=TZ), dict(subject="我", memory_type="事实", topic="搬到", object="上海")),
    (datetime(2025, 11, 5, 9, 1, tzinfo=TZ), dict(subject="I", memory_type="fact", topic="joined", object="Globex")),
]
UPDATE_QUERIES = ["我住在哪里？", "where do I work?"]


class _Fact(TypedDict):
    """What the demo passes to ``create_memory``."""

    subject: str
    memory_type: str
    topic: str
    object: str
    attributes: NotRequired[dict[str, str]]


# Two facts joined only by a person (one node per name: the Object of the first memory is the
# Subject of the second), and a question that names only the first: the answer is reached through
# the graph. (said on, create_memory arguments), question.
BRIDGES: list[tuple[list[tuple[str, _Fact]], str]] = [
    (
        [
            (
                "2025-09-12",
                dict(
                    subject="I",
                    memory_type="event",
                    topic="met",
                    object="Marco",
                    attributes={"place": "Porto", "job": "pilot"},
                ),
            ),
            (
                "2025-10-20",
                dict(
                    subject="Marco",
                    memory_type="fact",
                    topic="flies",
                    object="gliders",
                    attributes={"when": "weekends"},
                ),
            ),
        ],
        "what does the pilot I met in Porto do for fun?",
    ),
    (
        [
            (
                "2025-09-15",
                dict(
                    subject="我",
                    memory_type="事件",
                    topic="认识了",
                    object="阿杰",
                    attributes={"地点": "成都", "职业": "消防员"},
                ),
            ),
            ("2025-10-22", dict(subject="阿杰", memory_type="事实", topic="养了", object="两只柯基")),
        ],
        "我在成都认识的那个消防员养了什么宠物？",
    ),
]
QUERIES = [
    ("我为什么今天不开心？", "default"),
    ("我和小明是什么关系", "default"),
    ("why was I late for the meeting?", "default"),
    ("what did I buy yesterday?", "recall"),
    ("我为什么上班迟到了？", "recall"),
]


# Two users' conversations, each in two sessions months apart: a fact changes (where they live) and a
# person named in the first session is later meant by a pronoun or a role. Nothing is written field
# by field: the offline extractor reads the turns, consolidation supersedes what changed.
CONVERSATIONS = {
    "zh": [
        (
            datetime(2025, 6, 1, 20, 0, tzinfo=TZ),
            ["我住在北京，在一家设计公司上班。", "我表妹小雯是木匠，她特别喜欢做小板凳。"],
        ),
        (
            datetime(2025, 11, 5, 20, 0, tzinfo=TZ),
            ["我上个月搬到上海了。", "我表妹下个月来上海看我，她还给我做了一个书架。"],
        ),
    ],
    "en": [
        (
            datetime(2025, 6, 2, 19, 0, tzinfo=TZ),
            ["I live in Boston and I work at Acme.", "My cousin Ruth is a carpenter. She lives in Portland."],
        ),
        (
            datetime(2025, 11, 6, 19, 0, tzinfo=TZ),
            ["I moved to Chicago last month.", "Ruth just adopted a dog. She's planning to visit me in May."],
        ),
    ],
}
CONVERSATION_QUESTIONS = {
    "zh": ["我现在住哪？", "小雯怎么样？"],
    "en": ["where do I live now?", "what do you know about Ruth?"],
}
# a state at a past time: answered with what was current then (the superseded home), with its interval
AS_OF_QUESTIONS = {"zh": "8月我住在哪？", "en": "where did I live in August?"}


def _held(result) -> str:
    """A result with the interval in which it was the current fact."""
    until = (result.valid_until or "now")[:10]
    return f"{result.text} [valid {(result.valid_from or '?')[:10]} → {until}]"


def show_conversations(graph: MemoryGraph, group: str, console: Console) -> None:
    """Ingest each language's conversation into a group of its own, consolidate, and ask."""
    from .store.admin import delete_group

    for lang, sessions in CONVERSATIONS.items():
        gid = f"{group}-{lang}"
        delete_group(graph.store, gid)
        console.rule(f"from conversation ({lang}): group {gid!r}")
        for i, (when, turns) in enumerate(sessions, 1):
            report = graph.ingest(
                gid, [{"role": "user", "content": t} for t in turns], session_id=f"s{i}", reference_time=when
            )
            console.print(f"  session {i} ({when.date()}): " + " ".join(turns), highlight=False, markup=False)
            for memory_id in report.memories:
                console.print(f"    + {graph.get_memory(gid, memory_id).text}", highlight=False, markup=False)
        done = graph.consolidate(gid, now=sessions[-1][0] + timedelta(hours=1))
        for c in done.conflicts:
            console.print(f"  {c.older_text}  ←[SUPERSEDES]—  {c.newer_text}", highlight=False, markup=False)
        for question in CONVERSATION_QUESTIONS[lang]:
            response = graph.search_memories(gid, question, reference_time=sessions[-1][0], max_results=4)
            marks = [f"{r.text} [{'current' if r.current else 'superseded'}]" for r in response.results]
            console.print(f"  {question}  →  " + " · ".join(marks), highlight=False, markup=False)
        question = AS_OF_QUESTIONS[lang]
        response = graph.search_memories(gid, question, reference_time=sessions[-1][0], max_results=2)
        as_of = response.plan.as_of
        then = f" (as of {as_of.matched!r}: {as_of.start[:10]} – {as_of.end[:10]})" if as_of else ""
        marks = [_held(r) for r in response.results if r.kind == "memory"]
        console.print(f"  {question}{then}  →  " + " · ".join(marks), highlight=False, markup=False)


def _at(hhmm: str) -> datetime:
    hour, minute = (int(x) for x in hhmm.split(":"))
    return datetime(2025, 11, 5, hour, minute, tzinfo=TZ)


def run_demo(settings: Settings, group: str, keep: bool = False) -> None:
    console = Console()
    with MemoryGraph(settings) as graph:
        version, edition = graph.store.verify()
        console.print(f"[bold]graphmem demo[/bold] on Neo4j {version} {edition} at {graph.store.uri}, group {group!r}")
        graph.init_schema()
        if not keep:
            from .store.admin import delete_group

            delete_group(graph.store, group)
        console.rule("writing memories")
        for hhmm, args in MEMORIES:
            result = graph.create_memory(group, **args, reference_time=_at(hhmm), session_id="demo")
            reused = ", ".join(f"{c.input}→{c.name} ({c.reason})" for c in result.concepts if c.reused)
            console.print(f"  + {result.text}" + (f"   [dim]reused: {reused}[/dim]" if reused else ""), highlight=False)
        for source, target, relation in LINKS:
            link = graph.link_memories(group, source, target, relation)
            console.print(
                f"  ↳ {link.source_text}  —[{link.edge_type.value} {relation}]→  {link.target_text}", highlight=False
            )
        console.rule("searching")
        for query, profile in QUERIES:
            response = graph.search_memories(group, query, reference_time=_at("18:00"), profile=profile)
            table = Table(
                title=f"{query}  [dim](mode {response.mode_used}, profile {profile})[/dim]", title_justify="left"
            )
            for column in ("#", "memory", "score", "sim", "dist", "via"):
                table.add_column(column)
            for rank, r in enumerate(response.results[:5], 1):
                via = " ".join(f"{step.edge}:{step.relation or step.via or ''}" for step in r.path) or "seed"
                table.add_row(
                    str(rank), r.text, f"{r.score:.3f}", f"{r.score_parts.similarity:.2f}", str(r.distance), via
                )
            console.print(table)
        console.rule("one node per name: two facts joined by a person")
        _bridges(graph, group, console)
        console.rule("consolidating: what is current")
        for when, args in UPDATES:
            result = graph.create_memory(group, **args, reference_time=when, session_id="demo")
            console.print(f"  + {result.text}   [dim](said {when.date()})[/dim]", highlight=False)
        report = graph.consolidate(group, now=_at("18:00"))
        console.print(
            f"  consolidated {report.processed} {'memory' if report.processed == 1 else 'memories'} in {report.seconds:.1f} s: "
            + ", ".join(f"{k} {v}" for k, v in report.counts.items() if v),
            highlight=False,
        )
        for c in report.conflicts:
            console.print(
                f"  {c.older_text}  ←[SUPERSEDES]—  {c.newer_text}   [dim]({c.reason})[/dim]", highlight=False
            )
        for query in UPDATE_QUERIES:
            response = graph.search_memories(group, query, reference_time=_at("18:00"), max_results=3)
            marks = [f"{r.text} [{'current' if r.current else 'superseded'}]" for r in response.results]
            console.print(f"  {query}  →  " + " · ".join(marks), highlight=False, markup=False)
        show_conversations(graph, group, console)
        stats = graph.stats(group)
        nodes = ", ".join(f"{n} {label}" for label, n in sorted(stats["nodes"].items()))
        edges = ", ".join(f"{n} {kind}" for kind, n in sorted(stats["edges"].items()))
        console.print(f"[dim]group {group!r} in Neo4j: {nodes}; edges: {edges}[/dim]", highlight=False)
        console.print(
            "[dim]see it in Neo4j Browser: MATCH p=(:Subject {group_id: 'demo'})-[:MEMORY_TYPE]->()"
            "-[:CORE_RELATION]->() RETURN p[/dim]",
            highlight=False,
        )


def _bridges(graph: MemoryGraph, group: str, console: Console) -> None:
    """Write each pair of facts, ask the question that names only the first, print the path by
    which the second was reached (the shared node it crossed)."""
    for facts, question in BRIDGES:
        written = []
        for day, args in facts:
            when = datetime.fromisoformat(day + "T20:00:00").replace(tzinfo=TZ)
            result = graph.create_memory(group, **args, reference_time=when, session_id="demo")
            written.append(result)
            shared = [f"{c.name} ({c.reason})" for c in result.concepts if c.reused and c.reason == "exact"]
            console.print(
                f"  + {result.text}" + (f"   [dim]one node: {', '.join(shared)}[/dim]" if shared else ""),
                highlight=False,
            )
        response = graph.search_memories(group, question, expand_depth=1, mode="deep", reference_time=_at("18:00"))
        texts = {r.memory_id: r.text for r in response.results}
        answer = next((r for r in response.results if r.memory_id == written[-1].memory_id), None)
        console.print(f"  {question}", highlight=False)
        if answer is None:
            console.print("    [red]not reached[/red]", highlight=False)
            continue
        rank = response.results.index(answer) + 1
        console.print(f"    #{rank} {answer.text}   [dim](distance {answer.distance})[/dim]", highlight=False)
        for step in answer.path:
            start = texts.get(step.from_id) or graph.get_memory(group, step.from_id).text
            console.print(
                f"    path: {start}  —[{step.edge} {step.via or step.relation or ''}]→  {texts.get(step.to_id, '')}",
                highlight=False,
                markup=False,
            )
