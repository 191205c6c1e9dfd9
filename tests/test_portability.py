"""Export -> wipe -> import gives back the same group: nodes, relationships, properties, vectors
and search results; importing twice changes nothing; a new group name gets its own ids; a file
without vectors is embedded again exactly as the write path embeds."""

from __future__ import annotations

import json
import math
import uuid

import pytest
from analyst_graph import fixture_group

from graphmem.analyst.portability import export_group, import_group, read_export
from graphmem.errors import ImportFormatError
from graphmem.store.admin import count_group_nodes, delete_group

QUESTIONS = ["为什么错过了会议？", "where do I live now", "我喜欢喝什么", "hiking", "心情很差"]


@pytest.fixture(scope="module")
def source(graph):
    with fixture_group(graph, "t-port-", long_turn=True) as built:
        yield built


def _lines(path) -> list[dict]:
    header, nodes, edges = read_export(path)
    return nodes + edges


def _canonical(path) -> list[str]:
    return sorted(json.dumps(x, sort_keys=True, ensure_ascii=False) for x in _lines(path))


def _search(graph, group):
    """The texts each question returns (top 10), best first. The reads a search records are
    written after each question: the next one then sees them whether the background recorder
    (0.5 s) was quicker than the search or not."""
    out = []
    for question in QUESTIONS:
        response = graph.search_memories(group, question, max_results=10)
        out.append([r.text for r in response.results])
        graph._get_retriever().recorder.flush()
    return out


def _same_answers(a: list[list[str]], b: list[list[str]]) -> None:
    """The same best answers to every question. Scores move a little between two searches (time
    decay follows the clock; BM25 statistics count deleted documents until Lucene merges them), so
    near-ties at the edge of the top 5 may swap: the top 3 must match in order, and each side's top 5
    must be among the other's top 10."""
    for question, x, y in zip(QUESTIONS, a, b):
        assert x[:3] == y[:3], question
        assert set(x[:5]) <= set(y) and set(y[:5]) <= set(x), question


def _cos(a, b) -> float:
    dot = sum(x * y for x, y in zip(a, b))
    return dot / math.sqrt(sum(x * x for x in a) * sum(y * y for y in b))


def test_round_trip_gives_an_identical_graph(graph, source, tmp_path):
    group = source.group_id
    graph._get_retriever().recorder.flush()
    first = tmp_path / "first.jsonl"
    report = export_group(graph.store, group, first)
    header = json.loads(first.read_text(encoding="utf-8").splitlines()[0])
    assert header["format"] == "graphmem-export" and header["version"] == 2 and header["vectors"] is True
    assert header["model"] == graph.embedder.name and header["counts"]["nodes"] == report.nodes
    assert {
        "Memory",
        "Subject",
        "Topic",
        "Object",
        "Attribute",
        "Value",
        "Episode",
        "Sentence",
        "ExtractionJob",
    } <= set(report.nodes)
    assert {
        "CAUSALITY",
        "REFERENCE",
        "SUPERSEDES",
        "EXTRACTED_FROM",
        "NEXT",
        "PART_OF",
        "MEMORY_TYPE",
        "CORE_RELATION",
        "VALUE",
        "ATTRIBUTE",
    } <= set(report.edges)
    text = first.read_text(encoding="utf-8")
    assert "我 住在 深圳" in text and "\\u" not in text  # Chinese stays readable in the file
    counts = count_group_nodes(graph.store, group)
    before = _search(graph, group)

    delete_group(graph.store, group)
    assert count_group_nodes(graph.store, group) == {}
    imported = import_group(graph, first)
    assert imported.group_id == group and imported.reembedded == 0 and imported.nodes == report.nodes
    assert imported.edges == report.edges
    assert count_group_nodes(graph.store, group) == counts
    second = tmp_path / "second.jsonl"
    export_group(graph.store, group, second)
    assert _canonical(second) == _canonical(first)  # every node, edge and property, vectors too
    _same_answers(_search(graph, group), before)

    # importing the same file again changes nothing
    graph._get_retriever().recorder.flush()
    again_before = tmp_path / "again-before.jsonl"
    export_group(graph.store, group, again_before)
    import_group(graph, again_before)
    again = tmp_path / "again.jsonl"
    export_group(graph.store, group, again)
    assert _canonical(again) == _canonical(again_before)


def test_import_under_a_new_group(graph, source, tmp_path):
    path = tmp_path / "g.jsonl"
    graph._get_retriever().recorder.flush()
    export_group(graph.store, source.group_id, path)
    new = "t-copy-" + uuid.uuid4().hex[:8]
    try:
        report = import_group(graph, path, new)
        assert report.group_id == new and report.source_group == source.group_id
        assert count_group_nodes(graph.store, new) == count_group_nodes(graph.store, source.group_id)
        copy = tmp_path / "copy.jsonl"
        export_group(graph.store, new, copy)
        old_lines, new_lines = _lines(path), _lines(copy)
        old_ids = {x["props"]["id"] for x in old_lines if x["kind"] == "node" and "id" in x["props"]}
        new_ids = {x["props"]["id"] for x in new_lines if x["kind"] == "node" and "id" in x["props"]}
        assert not old_ids & new_ids  # the copy has ids of its own

        def strip(xs):
            return sorted(
                json.dumps(
                    {
                        k: v
                        for k, v in x["props"].items()
                        if k not in ("id", "group_id", "memory_id", "superseded_by", "job_id", "episode_ids", "plan")
                    },
                    sort_keys=True,
                    ensure_ascii=False,
                )
                for x in xs
            )

        assert strip(new_lines) == strip(old_lines)  # same properties and vectors
        # the links still join the same memories
        chain = graph.store.run_text(
            "MATCH (a:Memory {group_id: $g})-[:SUPERSEDES]->(b:Memory {group_id: $g}) "
            "RETURN a.text AS a, b.text AS b, b.superseded_by = a.id AS consistent ORDER BY a",
            g=new,
        )
        assert [(r["a"], r["b"], r["consistent"]) for r in chain] == [
            ("我 住在 上海", "我 住在 北京", True),
            ("我 住在 深圳", "我 住在 上海", True),
        ]
        # the same memories answer each question (ties between equal scores fall by id, which is new)
        copy_answers, source_answers = _search(graph, new), _search(graph, source.group_id)
        assert [sorted(a[:3]) for a in copy_answers] == [sorted(a[:3]) for a in source_answers]
        for x, y in zip(copy_answers, source_answers):
            assert set(x[:5]) <= set(y) and set(y[:5]) <= set(x)
        # twice into the same new group: nothing changes
        import_group(graph, path, new)
        copy2 = tmp_path / "copy2.jsonl"
        export_group(graph.store, new, copy2)
        assert len(_lines(copy2)) == len(new_lines)
    finally:
        delete_group(graph.store, new)


def test_a_file_without_vectors_is_embedded_again(graph, source, tmp_path):
    with_vectors, without = tmp_path / "v.jsonl", tmp_path / "nv.jsonl"
    export_group(graph.store, source.group_id, with_vectors)
    export_group(graph.store, source.group_id, without, vectors=False)
    assert "embedding" not in without.read_text(encoding="utf-8")
    assert without.stat().st_size < with_vectors.stat().st_size / 5
    new = "t-nv-" + uuid.uuid4().hex[:8]
    try:
        report = import_group(graph, without, new)
        assert report.reembedded > 0 and "no vectors" in report.reason
        copy = tmp_path / "copy.jsonl"
        export_group(graph.store, new, copy)
        original = {
            (x["label"], x["props"].get("text") or x["props"].get("name") or x["props"].get("content")): x["props"][
                "embedding"
            ]
            for x in _lines(with_vectors)
            if x["kind"] == "node" and "embedding" in x["props"]
        }
        again = {
            (x["label"], x["props"].get("text") or x["props"].get("name") or x["props"].get("content")): x["props"][
                "embedding"
            ]
            for x in _lines(copy)
            if x["kind"] == "node" and "embedding" in x["props"]
        }
        assert original.keys() == again.keys()
        # the same vectors the write path computed (memories without their understood times,
        # episodes mixed with their neighbours, sentences with their speaker)
        worst = min(_cos(original[k], again[k]) for k in original)
        assert worst > 0.999, worst
    finally:
        delete_group(graph.store, new)


def test_a_damaged_or_foreign_file_is_refused(graph, tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"hello": 1}\n', encoding="utf-8")
    with pytest.raises(ImportFormatError, match="graphmem export"):
        import_group(graph, bad)
    newer = tmp_path / "newer.jsonl"
    newer.write_text(
        json.dumps({"format": "graphmem-export", "version": 1, "group_id": "x", "vectors": False})
        + "\n"
        + json.dumps({"kind": "node", "label": "Planet", "props": {"id": "p"}})
        + "\n"
    )
    with pytest.raises(ImportFormatError, match="unknown node label 'Planet'"):
        import_group(graph, newer)


def test_cli_export_and_import(cli_env, graph, source, tmp_path, monkeypatch):
    from typer.testing import CliRunner

    from graphmem.cli.app import app

    for k, v in cli_env.items():
        monkeypatch.setenv(k, v)
    path = tmp_path / "cli.jsonl"
    runner = CliRunner()
    out = runner.invoke(app, ["export", str(path), "-g", source.group_id, "--no-vectors", "--json"])
    assert out.exit_code == 0, out.output
    assert json.loads(out.stdout)["nodes"] == count_group_nodes(graph.store, source.group_id)
    new = "t-cli-" + uuid.uuid4().hex[:8]
    try:
        res = runner.invoke(app, ["import", str(path), "-g", new])
        assert res.exit_code == 0, res.output
        assert f"into group {new}" in res.stdout and "embeddings computed" in res.stdout
        assert count_group_nodes(graph.store, new) == count_group_nodes(graph.store, source.group_id)
    finally:
        delete_group(graph.store, new)


def test_small_batches_give_the_same_graph(graph, source, tmp_path):
    """Batch edges fall inside labels and across them (a sentence's episode is written first)."""
    path = tmp_path / "b.jsonl"
    export_group(graph.store, source.group_id, path)
    new = "t-batch-" + uuid.uuid4().hex[:8]
    try:
        report = import_group(graph, path, new, batch=2)
        assert count_group_nodes(graph.store, new) == count_group_nodes(graph.store, source.group_id)
        header = json.loads(path.read_text(encoding="utf-8").splitlines()[0])
        assert report.nodes == header["counts"]["nodes"] and report.edges == header["counts"]["edges"]
    finally:
        delete_group(graph.store, new)


def test_an_edge_to_a_missing_node_is_reported(graph, source, tmp_path):
    path = tmp_path / "cut.jsonl"
    export_group(graph.store, source.group_id, path)
    lines = path.read_text(encoding="utf-8").splitlines()
    # the topics are gone, their edges not
    cut = [ln for ln in lines if not ('"kind":"node"' in ln and "Topic" in json.loads(ln).get("labels", []))]
    path.write_text("\n".join(cut) + "\n", encoding="utf-8")
    new = "t-cut-" + uuid.uuid4().hex[:8]
    try:
        with pytest.raises(ImportFormatError, match="point to nodes the file does not hold"):
            import_group(graph, path, new)
    finally:
        delete_group(graph.store, new)
