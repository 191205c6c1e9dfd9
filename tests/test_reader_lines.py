"""The labelled lines of ``graphmem bench extract`` as tests of the offline reader, one per reading.

Every line of ``benchmarks/graphmem_bench/data/extract_zh.txt`` and ``extract_en.txt`` is read
as the benchmark reads it (each conversation session by session, the people of earlier sessions
known), by the extractor alone: no database, no model. Each labelled fact is a test
(``zh:12:residence`` — the language, the line of the data file, the reading's kind and relation),
each labelled cause another (``zh:40:cause``), and each line a test that the reader takes nothing
from it beyond its labels (``zh:12:nothing-else``; a noise line: no memory at all).

A reading the reader gets wrong today is listed in ``reader_lines_known.txt`` beside this file, with
what is wrong, and runs as ``xfail(strict=True)``: a fix shows as a failure until its line leaves
the list, a regression as a failure of a test that passed.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from graphmem_bench import extract as bench

pytestmark = pytest.mark.unit

KNOWN = Path(__file__).with_name("reader_lines_known.txt")


def _known() -> dict[str, str]:
    """The readings wrong today: test id → what is wrong."""
    out = {}
    for line in KNOWN.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            test_id, _, reason = line.partition(" ")
            out[test_id] = reason.strip()
    return out


@cache
def _conversations(lang: str) -> dict[str, bench.Conversation]:
    return {c.id: c for c in bench.load(lang)}


@cache
def _verdict(lang: str, conv_id: str) -> bench.Verdict:
    conv = _conversations(lang)[conv_id]
    return bench.judge(conv, *bench.read(conv, "after"))


def _fact_name(fact: bench.Fact) -> str:
    relation = fact.relation if fact.relation.isascii() else "role"
    return fact.kind if relation == fact.kind else f"{fact.kind}.{relation}"


def _cases() -> list:
    known = _known()
    cases = []

    def case(test_id: str, *values: object) -> None:
        reason = known.pop(test_id, None)
        marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason is not None else []
        cases.append(pytest.param(test_id, *values, id=test_id, marks=marks))

    for lang in bench.LANGS:
        for conv in _conversations(lang).values():
            for i, line in enumerate(conv.lines):
                names: dict[str, int] = {}
                for n, fact in enumerate(line.facts):
                    name = _fact_name(fact)
                    names[name] = names.get(name, 0) + 1
                    suffix = f"#{names[name]}" if names[name] > 1 else ""
                    case(f"{lang}:{line.lineno}:{name}{suffix}", lang, conv.id, i, "fact", n)
                for n, _ in enumerate(line.causes):
                    case(f"{lang}:{line.lineno}:cause" + (f"#{n + 1}" if n else ""), lang, conv.id, i, "cause", n)
                case(f"{lang}:{line.lineno}:nothing-else", lang, conv.id, i, "nothing-else", 0)
    assert not known, f"{KNOWN.name} names tests that no longer exist: {sorted(known)}"
    return cases


def _said(m: bench.Memory) -> str:
    return f"{m.subject} | {m.relation} | {m.text}"


@pytest.mark.parametrize(("test_id", "lang", "conv_id", "line", "what", "n"), _cases())
def test_labelled_line(test_id: str, lang: str, conv_id: str, line: int, what: str, n: int) -> None:
    conv = _conversations(lang)[conv_id]
    verdict = _verdict(lang, conv_id)
    text = conv.lines[line].text
    read = [_said(m) for m, *_ in verdict.memories if m.line == line]
    if what == "fact":
        fact = conv.lines[line].facts[n]
        hit = [found for i, f, found in verdict.facts if i == line and f is fact]
        assert hit == [True], f"{text!r}: {fact} not read; the reader took {read}"
    elif what == "cause":
        cause = conv.lines[line].causes[n]
        hit = [found for i, c, found in verdict.causes if i == line and c == cause]
        assert hit == [True], f"{text!r}: cause {cause} not linked; the reader took {read}"
    else:
        wrong = [_said(m) for m, good, *_ in verdict.memories if m.line == line and not good]
        wrong += [f"a causal link nobody labelled (line {i})" for i, good in verdict.links if i == line and not good]
        assert not wrong, f"{text!r}: read beyond its labels: {wrong}"
