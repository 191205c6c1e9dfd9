"""`python -m graphmem_bench.reader_dump OUT.jsonl [--data DIR] [--only SOURCE]`: everything the offline
reader takes from the labelled lines and the dev data, written deterministically: a safety net for
changing the reader's code without changing what it reads (dump before, dump after, ``diff``).

No database and no model. The labelled lines are read as ``graphmem bench extract`` reads them
(``extract.plans``); the dev data of ``DIR`` (default ``../shared/bench`` beside the checkout, the
benchmarks' data) as the benchmarks feed it to the ingest: the same turns, speakers, sessions and
times, in windows of the pipeline's size (``Ingestor.rules_window``, a window may span sessions),
each told the people the earlier windows named, as the pipeline is told them from the database:
- MemDaily: every trajectory's messages, one session per day (without the benchmark's noise, which
  is the MADial memories, read on their own);
- LoCoMo: every turn, with its speaker, its session's date and its image caption;
- MADial: every memory (a session of its own, at its date) and every dialogue's lines (a session a
  dialogue, with their speakers);
- LongMemEval: the user turns of every scored question's haystack, session by session.

A line of the output is one window: its source, its turns' ids and what the extractor planned.

``--wins FILE`` also writes, for each predicate pattern of either language (``rules_en._RULES``,
``rules_zh._RULES``, in the order they are tried), how many clauses it read in each source: which patterns read the
talk written elsewhere and which only the labelled lines.
"""

from __future__ import annotations

import json
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import typer

from graphmem.ingest.models import EpisodeView
from graphmem.lexicon.roles import IDENTITY_TOPICS

from . import extract as bench

WINDOW = 200  # Ingestor.rules_window
DEFAULT_DATA = next(  # the benchmarks' data: ../shared/bench beside the checkout (or a folder above it)
    (p / "shared" / "bench" for p in Path(__file__).resolve().parents if (p / "shared" / "bench").is_dir()),
    Path("../shared/bench"),
)

Turn = tuple[str, str | None, str, datetime]  # (id, speaker, text, timestamp)
Session = tuple[str, list[Turn]]


def _memdaily(data: Path) -> Iterator[tuple[str, list[Session]]]:
    from . import memdaily

    seen: set[tuple[str, int]] = set()
    for q in memdaily.load(data / "memdaily_dev"):
        if (q.file, q.tid) in seen:
            continue
        seen.add((q.file, q.tid))
        days: dict[str, list[Turn]] = {}
        for t in sorted(q.messages, key=lambda t: t.time):
            days.setdefault(t.time.date().isoformat(), []).append((t.id, None, t.text, t.time))
        yield f"memdaily:{q.file}:{q.tid}", [(f"day-{d}", turns) for d, turns in sorted(days.items())]


def _locomo(data: Path) -> Iterator[tuple[str, list[Session]]]:
    from . import locomo

    for sample in locomo.load(data / "locomo_dev.json"):
        sessions: dict[int, list[Turn]] = {}
        for t in sample.turns:
            sessions.setdefault(t.session, []).append((t.dia_id, t.speaker, t.content, t.timestamp))
        yield f"locomo:{sample.sample_id}", [(f"session_{n}", turns) for n, turns in sessions.items()]


def _madial(data: Path) -> Iterator[tuple[str, list[Session]]]:
    from . import madial

    for lang in madial.LANGS:
        memories, dialogues = madial.load(data / "madial_dev", lang)
        for user in sorted({m.user for m in memories}):
            yield (
                f"madial:{lang}:memories:{user}",
                [(f"memory-{m.id}", [(m.id, None, m.text, m.date)]) for m in memories if m.user == user],
            )
        when = datetime(2024, 1, 1, 12, 0, tzinfo=UTC)
        for d in dialogues:
            turns: list[Turn] = [(f"{d.id}#{i}", speaker, text, when) for i, (speaker, text) in enumerate(d.turns)]
            yield f"madial:{lang}:dialogue:{d.id}", [(f"dialogue-{d.id}", turns)]


def _longmemeval(data: Path) -> Iterator[tuple[str, list[Session]]]:
    from . import longmemeval

    items, _ = longmemeval.load(data / "longmemeval_s_dev.json.gz")
    for item in items:
        yield (
            f"longmemeval:{item.question_id}",
            [
                (sid, [(f"{sid}#{j}", None, text, date) for j, text in enumerate(texts)])
                for sid, date, texts in item.sessions
                if texts
            ],
        )


SOURCES = {"memdaily": _memdaily, "locomo": _locomo, "madial": _madial, "longmemeval": _longmemeval}


class _Known:
    """The people the windows read so far named (``people_known``, ``people_described`` and the
    subjects said), as rows for ``People.from_rows``: what the pipeline reads back from the database,
    whose queries (graphmem/cypher/ingest.cypher) describe only the people a relation names and leave
    out a subject who is the speaker of the turn it was read from."""

    def __init__(self) -> None:
        self.relations: list[tuple[dict, int]] = []
        self.described: list[tuple[dict, int]] = []
        self.said: list[tuple[str, int]] = []
        self.speakers: set[str] = set()

    def people(self) -> Any:
        from graphmem.ingest.people import People

        said = [
            {"name": s, "last_said": f"{when:06d}"} for s, when in dict(self.said).items() if s not in self.speakers
        ]
        rows = bench._rows(self.relations, self.said) + [{**d, "last_said": f"{w:06d}"} for d, w in self.described]
        people = People.from_rows(said + rows)
        people.said.clear()
        return people

    def learn(self, plan: Any, when: int, speakers: dict[str, str | None]) -> None:
        """``speakers``: each episode id of the window, who spoke it."""
        for pm in plan.memories:
            m = pm.memory
            if m["memory_type"] == "RELATION" and m.get("object"):
                self.relations.append(({"role": m["topic"], "name": m["object"], "subject": m["subject"]}, when))
        named = {rel["name"] for rel, _ in self.relations}
        for pm in plan.memories:
            m = pm.memory
            if (
                m["memory_type"] == "FACT"
                and m["topic"] in IDENTITY_TOPICS
                and m.get("object")
                and m["subject"] in named
            ):
                self.described.append(({"name": m["subject"], "description": m["object"]}, when))
            self.said.append((m["subject"], when))
            if m["subject"] in {speakers.get(e) for e in pm.episode_ids}:
                self.speakers.add(m["subject"])  # people_named leaves them out


def windows(name: str, sessions: list[Session]) -> Iterator[list[EpisodeView]]:
    """The episodes of a conversation's sessions, in the pipeline's windows of extraction."""
    window: list[EpisodeView] = []
    for sid, turns in sessions:
        for order, (tid, speaker, text, when) in enumerate(turns):
            if len(window) >= WINDOW:
                yield window
                window = []
            window.append(
                EpisodeView(
                    id=f"{name}:{tid}",
                    session_id=f"{name}:{sid}",
                    role="user",
                    content=text,
                    timestamp=when,
                    order=order,
                    speaker=speaker,
                    external_id=tid,
                )
            )
    if window:
        yield window


def dump_conversation(extractor: Any, name: str, sessions: list[Session]) -> Iterator[dict]:
    known = _Known()
    for n, eps in enumerate(windows(name, sessions)):
        plan = extractor.extract(eps, people=known.people())
        known.learn(plan, n, {ep.id: ep.speaker for ep in eps})
        yield {"source": name, "window": n, "turns": len(eps), "plan": plan.to_dict()}


class _Wins:
    """Each predicate pattern's wins (a clause it read) per source, counted by wrapping what it builds."""

    def __init__(self) -> None:
        from graphmem.ingest import rules_en, rules_zh

        self.source = ""
        self.counts: defaultdict[tuple[str, int, str], Counter[str]] = defaultdict(Counter)
        self.kept = [(module._RULES, list(module._RULES)) for module in (rules_en, rules_zh)]
        for lang, (rules, patterns) in zip(("en", "zh"), self.kept, strict=True):
            rules[:] = [(p, self._counted((lang, i, p.pattern), make)) for i, (p, make) in enumerate(patterns)]

    def restore(self) -> None:
        """The patterns as they were, uncounted."""
        for rules, patterns in self.kept:
            rules[:] = patterns

    def _counted(self, key: tuple[str, int, str], make: Callable) -> Callable:
        def counted(*args: Any) -> Any:
            found = make(*args)
            if found is not None:
                self.counts[key][self.source] += 1
            return found

        self.counts.setdefault(key, Counter())  # every pattern a row, however rarely it wins
        return counted

    def write(self, path: Path) -> None:
        sources = sorted({s for c in self.counts.values() for s in c})
        with path.open("w", encoding="utf-8") as f:
            f.write("\t".join(["language", "order", *sources, "pattern"]) + "\n")
            for (lang, i, pattern), c in sorted(self.counts.items()):
                f.write("\t".join([lang, str(i), *(str(c[s]) for s in sources), pattern.replace("\n", " ")]) + "\n")


def dump_labelled(wins: _Wins | None = None) -> Iterator[dict]:
    for lang in bench.LANGS:
        if wins:
            wins.source = f"extract:{lang}"
        for conv in bench.load(lang):
            yield {"source": f"extract:{lang}:{conv.id}", "plans": bench.plans(conv)}


def main(
    out: Path = typer.Argument(..., help="The JSONL file to write."),
    data: Path = typer.Option(DEFAULT_DATA, "--data", help="The benchmarks' data folder."),
    only: list[str] = typer.Option([], "--only", help="Only these sources: extract, " + ", ".join(SOURCES)),
    wins_out: Path | None = typer.Option(
        None, "--wins", help="Also write a TSV of how many clauses each predicate pattern read, per source."
    ),
) -> None:
    """Write what the offline reader takes from the labelled lines and the dev data."""
    from graphmem.ingest.rules import RuleExtractor

    wins = _Wins() if wins_out else None

    extractor = RuleExtractor()
    started, cpu = time.perf_counter(), time.process_time()
    turns = 0
    try:
        with out.open("w", encoding="utf-8") as f:

            def write(row: dict) -> None:
                f.write(json.dumps(row, ensure_ascii=False, sort_keys=True) + "\n")

            if not only or "extract" in only:
                for row in dump_labelled(wins):
                    write(row)
            for source, conversations in SOURCES.items():
                if only and source not in only:
                    continue
                t0 = time.perf_counter()
                before = turns
                for name, sessions in conversations(data):
                    if wins:  # MADial by its language
                        wins.source = ":".join(name.split(":")[:2]) if source == "madial" else source
                    for row in dump_conversation(extractor, name, sessions):
                        turns += row["turns"]
                        write(row)
                print(f"{source}: {turns - before} turns in {time.perf_counter() - t0:.1f} s", file=sys.stderr)
    finally:
        if wins:
            wins.restore()
    print(
        f"{turns} turns in {time.perf_counter() - started:.1f} s ({time.process_time() - cpu:.1f} s CPU)",
        file=sys.stderr,
    )
    if wins and wins_out:
        wins.write(wins_out)


if __name__ == "__main__":
    typer.run(main)
