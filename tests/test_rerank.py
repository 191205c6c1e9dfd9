"""Rerankers on a real search: a tiny cross-encoder the test builds itself (random weights, run
through the real ONNX path), a local HTTP rerank endpoint and a local chat endpoint standing in
for an LLM. Wiring only: no test here claims a reranker finds better results."""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import numpy as np
import pytest
from tiny_bert import random_bert
from typer.testing import CliRunner

from graphmem.errors import ConfigError
from graphmem.graph import MemoryGraph
from graphmem.rerank import document

onnx = pytest.importorskip("onnx")
from onnx import TensorProto, helper, numpy_helper  # noqa: E402

WORDS = ["i", "my", "bought", "a", "new", "guitar", "went", "jogging", "in", "the", "park", "cooked", "tomato"]
WORDS += ["soup", "what", "did", "do", "?", "instrument", "played", "piano", "yesterday", "time", "sport"]
HAN = list("我今天昨天买了水果心情不好吃什么为的")


def _tokenizer(folder: Path) -> list[str]:
    """A BERT-style WordPiece tokenizer.json over a small vocabulary (CJK characters split)."""
    from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, processors

    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", *WORDS, *HAN]
    tok = Tokenizer(models.WordPiece({w: i for i, w in enumerate(vocab)}, unk_token="[UNK]"))
    tok.normalizer = normalizers.BertNormalizer(lowercase=True, handle_chinese_chars=True)
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tok.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]", pair="[CLS] $A [SEP] $B:1 [SEP]:1", special_tokens=[("[CLS]", 2), ("[SEP]", 3)]
    )
    tok.save(str(folder / "tokenizer.json"))
    return vocab


def tiny_cross_encoder(folder: Path, seed: int = 3) -> Path:
    """A two-layer BERT with random weights and a one-logit head on its first token, as ONNX
    (written by graphmem's own BERT graph writer plus three nodes), beside its tokenizer.json."""
    from graphmem.embed.bert import BertShape, encoder_model

    folder.mkdir(parents=True, exist_ok=True)
    vocab = _tokenizer(folder)
    rng = np.random.default_rng(seed)
    hidden = 16
    w = random_bert(rng, hidden=hidden, ffn=32, vocab=len(vocab), positions=64, scale=0.5)
    model = encoder_model(w, BertShape(hidden, 2, 4))
    g = model.graph
    g.initializer.extend(
        [
            numpy_helper.from_array(np.array(0, np.int64), "cls_index"),
            numpy_helper.from_array(rng.normal(0, 0.3, (hidden, 1)).astype(np.float32), "head_w"),
            numpy_helper.from_array(np.zeros(1, np.float32), "head_b"),
        ]
    )
    g.node.extend(
        [
            helper.make_node("Gather", ["last_hidden_state", "cls_index"], ["cls"], axis=1),
            helper.make_node("MatMul", ["cls", "head_w"], ["head"]),
            helper.make_node("Add", ["head", "head_b"], ["logits"]),
        ]
    )
    del g.output[:]
    g.output.append(helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["batch", 1]))
    onnx.save(model, str(folder / "model.onnx"))
    return folder


def keyword_cross_encoder(folder: Path, word: str) -> Path:
    """A cross-encoder whose logit is +5 when the pair holds ``word`` and -5 otherwise: a reranker
    whose opinion the test knows in advance."""
    folder.mkdir(parents=True, exist_ok=True)
    vocab = _tokenizer(folder)
    ints = ["input_ids", "attention_mask", "token_type_ids"]
    graph = helper.make_graph(
        [
            helper.make_node("Equal", ["input_ids", "word"], ["is_word"]),
            helper.make_node("Cast", ["is_word"], ["hits"], to=TensorProto.FLOAT),
            helper.make_node("ReduceMax", ["hits"], ["any"], axes=[1], keepdims=1),
            helper.make_node("Mul", ["any", "ten"], ["scaled"]),
            helper.make_node("Sub", ["scaled", "five"], ["logits"]),
        ],
        "keyword",
        [helper.make_tensor_value_info(n, TensorProto.INT64, ["batch", "tokens"]) for n in ints],
        [helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["batch", 1])],
        [
            numpy_helper.from_array(np.array(vocab.index(word), np.int64), "word"),
            numpy_helper.from_array(np.array(10.0, np.float32), "ten"),
            numpy_helper.from_array(np.array(5.0, np.float32), "five"),
        ],
    )
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), str(folder / "model.onnx"))
    return folder


def _write(graph, group_id: str) -> None:
    for topic, obj in (("bought", "a new guitar"), ("went jogging", "in the park"), ("cooked", "tomato soup")):
        graph.create_memory(group_id, subject="I", memory_type="event", topic=topic, object=obj)
    graph.create_memory(group_id, subject="我", memory_type="事件", topic="买", object="水果")


def _graph(graph, make_settings, **rerank) -> MemoryGraph:
    return MemoryGraph(make_settings(rerank=rerank), embedder=graph.embedder)


def test_a_cross_encoder_reorders_the_best_results_and_shows_its_part(graph, make_settings, group_id, tmp_path):
    _write(graph, group_id)
    plain = graph.search_memories(group_id, "what did I do in the park?", profile="recall")
    third = plain.results[2]  # a reranker that likes the search's third result
    word = next(w for w in ("guitar", "jogging", "soup", "果") if w in third.text)
    path = keyword_cross_encoder(tmp_path / "keyword", word)
    with _graph(graph, make_settings, kind="cross-encoder", path=str(path), top_n=3, weight=2.0) as g:
        found = g.search_memories(group_id, "what did I do in the park?", profile="recall")
    assert found.results[0].memory_id == third.memory_id  # the reranker's opinion wins at weight 2
    assert found.plan.weights["rerank"] == 2.0 and "rerank" in found.timings_ms
    assert any(w.startswith("rerank: cross-encoder") and "top 3" in w for w in found.plan.why)
    before = {r.memory_id: r for r in plain.results}
    for r in found.results[:3]:  # each of the top three: the search's score plus 2 × the reranker's
        assert r.score_parts.rerank == pytest.approx(0.9933 if r.memory_id == third.memory_id else 0.0067, abs=1e-3)
        assert r.score == pytest.approx(before[r.memory_id].score + 2.0 * r.score_parts.rerank, abs=1e-5)
    assert [r.memory_id for r in found.results[3:]] == [r.memory_id for r in plain.results[3:]]
    assert len(found.results) > 3 and all(r.score_parts.rerank is None for r in found.results[3:])
    assert [r.score for r in found.results[:3]] == sorted((r.score for r in found.results[:3]), reverse=True)
    assert {r.memory_id for r in found.results[:3]} == {r.memory_id for r in plain.results[:3]}


def test_a_tiny_random_cross_encoder_scores_chinese_and_english_through_onnxruntime(
    graph, make_settings, group_id, tmp_path
):
    """Random weights, the real path: each score is the model's own for (query, result text)."""
    from graphmem.rerank.cross_encoder import OnnxCrossEncoder

    _write(graph, group_id)
    path = tiny_cross_encoder(tmp_path / "tiny")
    with _graph(graph, make_settings, kind="cross-encoder", path=str(path)) as g:
        for query in ("what did I buy?", "我昨天买了什么？"):
            found = g.search_memories(group_id, query, profile="recall")
            model = OnnxCrossEncoder(path / "model.onnx", path / "tokenizer.json")
            want = model.scores(query, [document(r) for r in found.results], time.perf_counter() + 60)
            by_id = dict(zip([r.memory_id for r in found.results], want))
            assert len(set(np.round(want, 6))) > 1  # the random model does not score everything alike
            for r in found.results:
                assert 0.0 <= r.score_parts.rerank <= 1.0
                assert r.score_parts.rerank == pytest.approx(by_id[r.memory_id], abs=1e-6)
            unranked = g.search_memories(group_id, query, profile="recall", rerank=False)
            assert unranked.results[0].score_parts.rerank is None


class _Endpoint:
    """A local HTTP server answering POSTs with ``answer(body) -> (status, json)``; records bodies."""

    def __init__(self, answer):
        self.bodies: list[dict] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802 - the http.server interface
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                outer.bodies.append({"path": self.path, "auth": self.headers.get("Authorization"), **body})
                status, reply = answer(body)
                data = json.dumps(reply).encode()
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except OSError:  # the client gave up waiting
                    pass

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_port}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def endpoint():
    made = []

    def make(answer):
        made.append(_Endpoint(answer))
        return made[-1]

    yield make
    for e in made:
        e.close()


def test_an_http_rerank_endpoint_gets_query_and_documents_and_its_scores_are_used(
    graph, make_settings, group_id, endpoint
):
    _write(graph, group_id)

    def answer(body):  # Cohere's shape: the best first, each with its index
        ranked = sorted(range(len(body["documents"])), key=lambda i: "soup" not in body["documents"][i])
        return 200, {"results": [{"index": i, "relevance_score": 0.9 if r == 0 else 0.1} for r, i in enumerate(ranked)]}

    server = endpoint(answer)
    settings = dict(kind="http", url=server.url + "/rerank", model="m-1", api_key="k", weight=1.0)
    with _graph(graph, make_settings, **settings) as g:
        found = g.search_memories(group_id, "what did I eat?", profile="recall")
    sent = server.bodies[-1]
    assert sent["path"] == "/rerank" and sent["auth"] == "Bearer k" and sent["model"] == "m-1"
    assert sent["query"] == "what did I eat?" and sorted(sent["documents"]) == sorted(
        document(r) for r in found.results
    )
    assert "soup" in found.results[0].text and found.results[0].score_parts.rerank == 0.9
    assert sorted(r.score_parts.rerank for r in found.results) == [0.1] * (len(found.results) - 1) + [0.9]


def test_a_reranker_past_its_budget_or_failing_leaves_the_results_as_ranked(graph, make_settings, group_id, endpoint):
    _write(graph, group_id)
    plain = graph.search_memories(group_id, "what did I buy?", profile="recall")

    def slow(body):
        time.sleep(1.5)
        return 200, {"results": [{"index": i, "relevance_score": 1.0} for i in range(len(body["documents"]))]}

    for answer, budget, said in (
        (slow, 300, "gave no answer within 300 ms"),
        (lambda body: (500, {"error": "overloaded"}), 2000, "HTTP 500"),
        (lambda body: (200, {"results": [{"index": 0, "relevance_score": 1.0}]}), 2000, "scored 1 of"),
    ):
        server = endpoint(answer)
        with _graph(graph, make_settings, kind="http", url=server.url, budget_ms=budget) as g:
            found = g.search_memories(group_id, "what did I buy?", profile="recall")
        assert [r.memory_id for r in found.results] == [r.memory_id for r in plain.results]
        assert all(r.score_parts.rerank is None for r in found.results) and "rerank" not in found.plan.weights
        assert any(said in w and "as ranked without it" in w for w in found.plan.why), found.plan.why
        if answer is slow:
            assert found.timings_ms["rerank"] < 1200  # the search did not wait for the slow reranker


def test_the_configured_llm_rates_the_results(graph, make_settings, group_id, endpoint):
    _write(graph, group_id)

    def answer(body):
        prompt = body["messages"][0]["content"]
        items = [line for line in prompt.splitlines() if line.startswith("[")]
        scores = [10 if "guitar" in line else 2 for line in items]
        return 200, {"choices": [{"message": {"content": "```json\n" + json.dumps({"scores": scores}) + "\n```"}}]}

    server = endpoint(answer)
    settings = make_settings(rerank={"kind": "llm", "weight": 3.0}, llm={"base_url": server.url + "/v1", "model": "x"})
    with MemoryGraph(settings, embedder=graph.embedder) as g:
        found = g.search_memories(group_id, "what instrument did I buy?", profile="recall")
    assert server.bodies[-1]["path"] == "/v1/chat/completions" and server.bodies[-1]["model"] == "x"
    assert "guitar" in found.results[0].text and found.results[0].score_parts.rerank == 1.0
    assert all(r.score_parts.rerank == pytest.approx(0.2) for r in found.results[1:])


def test_asking_for_a_reranker_that_is_not_configured_says_how(graph, make_settings, group_id):
    _write(graph, group_id)
    with pytest.raises(ConfigError, match=r"\[rerank\] kind"):
        graph.search_memories(group_id, "what did I buy?", rerank=True)
    with _graph(graph, make_settings, kind="cross-encoder") as g, pytest.raises(ConfigError, match="rerank.path"):
        g.search_memories(group_id, "what did I buy?", profile="recall")


def test_search_rerank_prints_the_rerank_part_of_each_score(graph, cli_env, group_id, tmp_path, monkeypatch):
    from graphmem.cli import _common
    from graphmem.cli.app import app

    _write(graph, group_id)
    path = tiny_cross_encoder(tmp_path / "tiny")
    monkeypatch.setattr(_common.console, "width", 200)
    env = {**cli_env, "GRAPHMEM_RERANK__KIND": "cross-encoder", "GRAPHMEM_RERANK__PATH": str(path)}
    result = CliRunner().invoke(app, ["search", "-g", group_id, "what did I buy?", "-p", "recall", "--rerank"], env=env)
    assert result.exit_code == 0, result.output
    header = next(line for line in result.output.splitlines() if "score" in line and "sim" in line)
    assert "rerank" in header and "· rerank: cross-encoder" in result.output
    assert "·rerank" in result.output  # the caption's formula has the reranker's weight
    plain = CliRunner().invoke(
        app, ["search", "-g", group_id, "what did I buy?", "-p", "recall", "--no-rerank"], env=env
    )
    assert plain.exit_code == 0 and "rerank" not in plain.output


@pytest.mark.skipif(
    not __import__("importlib.util").util.find_spec("sentence_transformers"),
    reason="needs the extra graphmem[sentence-transformers] (torch)",
)
def test_a_sentence_transformers_cross_encoder_runs_from_a_folder(graph, make_settings, group_id, tmp_path):
    from transformers import BertConfig, BertForSequenceClassification, BertTokenizerFast

    folder = tmp_path / "st"
    folder.mkdir()
    vocab = _tokenizer(folder)
    (folder / "vocab.txt").write_text("\n".join(vocab) + "\n")
    BertTokenizerFast(vocab_file=str(folder / "vocab.txt")).save_pretrained(str(folder))
    config = BertConfig(len(vocab), 16, 1, 2, 32, num_labels=1, max_position_embeddings=64)
    BertForSequenceClassification(config).save_pretrained(str(folder))
    (folder / "model.onnx").unlink(missing_ok=True)
    _write(graph, group_id)
    settings = dict(kind="cross-encoder", path=str(folder), engine="sentence-transformers")
    with _graph(graph, make_settings, **settings) as g:
        found = g.search_memories(group_id, "what did I buy?", profile="recall")
    assert all(0.0 <= r.score_parts.rerank <= 1.0 for r in found.results)
    assert any(w.startswith("rerank: cross-encoder") for w in found.plan.why)
