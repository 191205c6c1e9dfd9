"""The reader's dump (`python -m graphmem_bench.reader_dump`): its ``--wins`` table says which predicate
pattern read which source's clauses. Labelled lines only: no database, no model, no dev data."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from graphmem.ingest import rules_en, rules_zh
from graphmem_bench import reader_dump

pytestmark = pytest.mark.unit


def test_the_wins_table_counts_each_pattern_once_per_clause_it_read(tmp_path: Path) -> None:
    out, wins = tmp_path / "dump.jsonl", tmp_path / "wins.tsv"
    reader_dump.main(out, data=tmp_path, only=["extract"], wins_out=wins)
    rows = list(csv.DictReader(wins.open(encoding="utf-8"), delimiter="\t"))
    # every pattern of both languages has a row, in the order tried
    assert [(r["language"], int(r["order"])) for r in rows] == [
        *(("en", i) for i in range(len(rules_en._RULES))),
        *(("zh", i) for i in range(len(rules_zh._RULES))),
    ]
    moved = next(r for r in rows if r["language"] == "zh" and r["pattern"].startswith("^(?:搬到|搬去"))
    assert int(moved["extract:zh"]) >= 3  # the labelled lines of moving house (zh-move-*)
    assert int(moved["extract:en"]) == 0
    assert sum(int(r["extract:en"]) for r in rows if r["language"] == "en") > 50
    assert json.loads(out.read_text(encoding="utf-8").splitlines()[0])["source"].startswith("extract:")
    # the patterns as they were after the run: the reader counts nothing more
    assert all(make.__name__ != "counted" for module in (rules_en, rules_zh) for _, make in module._RULES)
