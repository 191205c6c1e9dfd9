"""The LLM extractor's wiring and the retry queue, against a small local HTTP server that speaks
the chat-completions protocol and returns scripted tool calls (good and broken ones). It proves
the wiring, not extraction quality: the database is a real Neo4j."""

from __future__ import annotations

import json
import socket
import threading
import time
from datetime import UTC
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from graphmem.errors import ConfigError
from graphmem.graph import MemoryGraph
from graphmem.ingest.jobs import job_counts
from graphmem.ingest.pipeline import Ingestor

TURNS = [
    {"role": "user", "content": "昨晚我失眠了，所以今天很困。", "timestamp": "2025-11-05T09:00:00+08:00"},
    {"role": "assistant", "content": "要注意休息。"},
    {"role": "user", "content": "I love hiking in the Alps."},
]


def call(name: str, arguments, i: int = 0) -> dict:
    args = arguments if isinstance(arguments, str) else json.dumps(arguments, ensure_ascii=False)
    return {"id": f"call_{i}", "type": "function", "function": {"name": name, "arguments": args}}


EXTRACTION = {
    "memories": [
        {
            "id": "m1",
            "turn": 1,
            "kind": "event",
            "subject": "我",
            "memory_type": "事件",
            "topic": "失眠",
            "attributes": {"时间": "昨晚"},
            "importance": 0.6,
        },
        {
            "id": "m2",
            "turn": 1,
            "kind": "fact",
            "subject": "我",
            "memory_type": "事实",
            "topic": "身体状态",
            "object": "很困",
            "attributes": {"时间": "今天"},
        },
        {
            "id": "m3",
            "turn": 3,
            "kind": "preference",
            "subject": "I",
            "memory_type": "opinion",
            "topic": "love",
            "object": "hiking in the Alps",
        },
    ],
    "links": [{"cause": "m1", "effect": "m2"}],
}
GOOD = [call("record_memories", EXTRACTION, 1)]


class Script:
    """What the fake endpoint answers, one entry per request: a list of tool calls, an HTTP
    status code, or ("sleep", seconds)."""

    def __init__(self):
        self.replies: list = []
        self.requests: list[dict] = []
        self.default = None  # the reply when none is scripted: a text answer, or no tool call


def _handler(script: Script):
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args):  # keep pytest output clean
            pass

        def handle(self):
            try:
                super().handle()
            except (BrokenPipeError, ConnectionResetError):  # the client gave up (the timeout case)
                pass

        def do_POST(self):
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            script.requests.append({"path": self.path, "body": body, "auth": self.headers.get("Authorization")})
            reply = script.replies.pop(0) if script.replies else (script.default or [])
            if isinstance(reply, tuple) and reply[0] == "sleep":
                time.sleep(reply[1])
                reply = []
            if isinstance(reply, int):
                self.send_response(reply)
                self.end_headers()
                self.wfile.write(b'{"error": {"message": "scripted failure"}}')
                return
            if isinstance(reply, str):
                message = {"role": "assistant", "content": reply}
            else:
                message = (
                    {"role": "assistant", "content": None, "tool_calls": reply}
                    if reply
                    else {"role": "assistant", "content": "nothing to remember"}
                )
            data = json.dumps(
                {
                    "id": "x",
                    "object": "chat.completion",
                    "model": body.get("model"),
                    "choices": [{"index": 0, "message": message, "finish_reason": "tool_calls"}],
                }
            )
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.end_headers()
            self.wfile.write(data.encode())

    return Handler


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class FakeLLM:
    def __init__(self):
        self.port = _free_port()
        self.script = Script()
        self.server = None

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def start(self) -> None:
        self.server = ThreadingHTTPServer(("127.0.0.1", self.port), _handler(self.script))
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self) -> None:
        if self.server:
            self.server.shutdown()
            self.server.server_close()
            self.server = None


@pytest.fixture
def llm():
    fake = FakeLLM()
    fake.start()
    yield fake
    fake.stop()


@pytest.fixture
def llm_graph(make_settings, llm):
    settings = make_settings(llm={"base_url": llm.base_url, "model": "scripted", "api_key": "k-test", "timeout_s": 1.0})
    g = MemoryGraph(settings)
    yield g
    g.close()


def _ingestor(graph, **kw) -> Ingestor:
    return Ingestor(graph, backoff_base_s=3600, **kw)


def _evidence(graph, group_id) -> dict:
    rows = graph.store.run_text(
        "MATCH (m:Memory {group_id: $g}) OPTIONAL MATCH (m)-[:EXTRACTED_FROM]->(e:Episode) "
        "RETURN m.text AS text, m.source AS source, collect(e.content) AS said",
        g=group_id,
    )
    return {r["text"]: (r["source"], r["said"]) for r in rows}


def _episodes(graph, group_id) -> int:
    return graph.store.run_text("MATCH (e:Episode {group_id: $g}) RETURN count(e) AS n", g=group_id)[0]["n"]


def test_tool_calls_from_the_endpoint_become_memories_linked_to_their_turns(llm, llm_graph, group_id):
    llm.script.replies = [GOOD]
    report = _ingestor(llm_graph).ingest(group_id, TURNS, session_id="s1", extractor="llm")

    assert report.jobs_pending == 0 and report.errors == [] and len(report.memories) == 3 and report.links == 1
    found = _evidence(llm_graph, group_id)
    assert found["我 失眠 (时间: 2025-11-04 夜间)"] == ("extract:llm", [TURNS[0]["content"]])
    assert found["I love hiking in the Alps"][1] == [TURNS[2]["content"]]
    causal = llm_graph.store.run_text(
        "MATCH (a:Memory {group_id: $g})-[:CAUSALITY]->(b:Memory) RETURN a.topic_name AS a, b.topic_name AS b",
        g=group_id,
    )
    assert causal == [{"a": "失眠", "b": "身体状态"}]

    [request] = llm.script.requests
    assert request["path"] == "/v1/chat/completions" and request["auth"] == "Bearer k-test"
    body = request["body"]
    assert [t["function"]["name"] for t in body["tools"]] == ["record_memories"]
    assert "slot" in json.dumps(body["tools"][0]["function"]["parameters"])  # the shared schema
    assert "record_memories" in body["messages"][0]["content"]
    assert "昨晚我失眠了" in body["messages"][1]["content"] and "2025-11-05 09:00" in body["messages"][1]["content"]


def test_with_the_endpoint_down_turns_are_kept_and_a_retry_extracts_them(llm, llm_graph, group_id):
    llm.stop()
    ingestor = _ingestor(llm_graph)
    report = ingestor.ingest(group_id, TURNS, session_id="s1", extractor="llm")
    assert report.jobs_pending == 1 and report.memories == [] and "cannot reach" in report.errors[0]
    assert _episodes(llm_graph, group_id) == 3
    assert job_counts(llm_graph.store, group_id)["pending"] == 1

    llm.start()
    llm.script.replies = [GOOD]
    retried = llm_graph.retry_extractions(group_id, force=True)
    assert (retried.attempted, retried.done) == (1, 1) and len(retried.memories) == 3
    assert _episodes(llm_graph, group_id) == 3
    assert all(said for _, said in _evidence(llm_graph, group_id).values())
    assert job_counts(llm_graph.store, group_id)["done"] == 1


def _with(**change) -> dict:
    memories = [dict(m) for m in EXTRACTION["memories"]]
    memories[-1].update(change)
    return {"memories": memories, "links": EXTRACTION["links"]}


@pytest.mark.parametrize(
    "reply, error",
    [
        ([call("record_memories", '{"memories": [{"id": "m1", ')], "not valid JSON"),
        ([call("delete_everything", {})], "unknown tool 'delete_everything'"),
        ([call("record_memories", _with(memory_type="thing"))], "memory_type"),
        ([call("record_memories", _with(turn=9))], "names turn 9"),
        ([call("record_memories", {**EXTRACTION, "links": [{"cause": "m1", "effect": "m7"}]})], "no memory 'm7'"),
        ([call("record_memories", _with(slot="shoe size"))], "slot"),
        (GOOD + GOOD, "2 tool calls"),
        (500, "HTTP 500"),
        (("sleep", 2.5), "did not answer within 1s"),
    ],
)
def test_a_broken_reply_writes_nothing_and_leaves_the_job_pending(llm, llm_graph, group_id, reply, error):
    llm.script.replies = [reply]
    ingestor = _ingestor(llm_graph)
    report = ingestor.ingest(group_id, TURNS, session_id="s1", extractor="llm")
    assert report.jobs_pending == 1 and error in report.errors[0]
    assert _evidence(llm_graph, group_id) == {}  # not even the valid memories of the reply
    [job] = ingestor.queue.list(group_id)
    assert job["state"] == "pending" and job["attempts"] == 1 and error in job["last_error"]
    assert _episodes(llm_graph, group_id) == 3


def test_the_llm_is_told_whom_earlier_sessions_named_and_its_slots_reach_consolidation(llm, llm_graph, group_id):
    earlier = [{"role": "user", "content": "我表妹小雯是木匠。", "timestamp": "2025-06-01T09:00:00+08:00"}]
    llm_graph.ingest(group_id, earlier, session_id="s0", extractor="rules")
    moved = {
        "memories": [
            {
                "id": "m1",
                "turn": 1,
                "kind": "residence",
                "slot": "residence",
                "subject": "小雯",
                "memory_type": "FACT",
                "topic": "住在",
                "object": "成都",
            },
            {
                "id": "m2",
                "turn": 2,
                "kind": "residence",
                "slot": "residence",
                "subject": "小雯",
                "memory_type": "EVENT",
                "topic": "relocated",
                "object": "杭州",
            },
        ],
        "links": [],
    }
    llm.script.replies = [[call("record_memories", moved)]]
    turns = [
        {"role": "user", "content": "我表妹以前住在成都。", "timestamp": "2025-07-01T09:00:00+08:00"},
        {"role": "user", "content": "她上个月去了杭州定居。", "timestamp": "2025-11-05T09:00:00+08:00"},
    ]
    report = _ingestor(llm_graph).ingest(group_id, turns, session_id="s1", extractor="llm")
    assert report.errors == [] and len(report.memories) == 2
    prompt = llm.script.requests[0]["body"]["messages"][1]["content"]
    assert "表妹 = 小雯" in prompt
    # "relocated" is no slot word: the slot the LLM named is what consolidation reads
    done = llm_graph.consolidate(group_id)
    assert [(c.older_text, c.newer_text) for c in done.conflicts] == [("小雯 住在 成都", "小雯 relocated 杭州")]


def test_repeated_failures_end_in_a_failed_job_that_stats_show(llm, llm_graph, group_id):
    llm.script.replies = [500, 503]
    ingestor = Ingestor(llm_graph, max_attempts=2, backoff_base_s=0)
    ingestor.ingest(group_id, TURNS[:1], session_id="s1", extractor="llm")
    retried = ingestor.retry(group_id)
    assert retried.failed == 1 and "HTTP 503" in retried.errors[0]
    assert job_counts(llm_graph.store, group_id)["failed"] == 1
    assert job_counts(llm_graph.store, None)["failed"] >= 1  # all groups

    first_turn = {"memories": EXTRACTION["memories"][:2], "links": EXTRACTION["links"]}
    llm.script.replies = [[call("record_memories", first_turn)]]
    again = ingestor.retry(group_id, include_failed=True)  # `graphmem extract --retry --failed`
    assert again.done == 1 and len(again.memories) == 2 and again.links == 1


def test_an_llm_extractor_needs_an_endpoint(graph, group_id):
    if graph.settings.llm.base_url:
        pytest.skip("an endpoint is configured")
    with pytest.raises(ConfigError, match="base_url"):
        graph.ingest(group_id, TURNS, extractor="llm")
    assert _episodes(graph, group_id) == 0


# --- the consolidator's judge (seed 004 §12.4.3), wiring only -------------------------------------


@pytest.mark.parametrize("answer, linked", [("是", True), ("否", False)])
def test_the_consolidator_asks_the_configured_llm_whether_a_candidate_cause_is_one(
    llm, llm_graph, group_id, answer, linked
):
    from datetime import datetime, timedelta

    t0 = datetime(2026, 3, 1, 20, 0, tzinfo=UTC)
    llm.script.default = answer
    llm_graph.create_memory(group_id, "我", "事件", "淋雨", session_id="s1", reference_time=t0)
    llm_graph.create_memory(
        group_id,
        "我",
        "事件",
        "感冒",
        attributes={"原因": "因为淋雨"},
        session_id="s1",
        reference_time=t0 + timedelta(minutes=20),
    )
    report = llm_graph.consolidate(group_id)
    asked = [r for r in llm.script.requests if "因果" in json.dumps(r["body"], ensure_ascii=False)]
    assert asked and "淋雨" in asked[0]["body"]["messages"][0]["content"]
    assert asked[0]["auth"] == "Bearer k-test"
    edges = llm_graph.store.run_text(
        "MATCH (a:Memory {group_id: $g})-[e:CAUSALITY]->(b:Memory) RETURN a.text AS cause, b.text AS effect, "
        "e.discovered AS discovered, e.confidence AS confidence",
        g=group_id,
    )
    if linked:
        assert edges == [
            {"cause": "我 淋雨", "effect": "我 感冒 (原因: 因为淋雨)", "discovered": True, "confidence": 0.8}
        ]
        assert report.counts["causal_candidates"] == 1
    else:
        assert edges == [] and report.counts["causal_candidates"] == 0


def test_a_summary_carries_the_configured_llms_sentence(llm, llm_graph, group_id):
    from datetime import datetime, timedelta

    old = datetime.now(UTC) - timedelta(days=90)
    llm.script.default = "这个月常吃面食。"
    llm_graph.create_memories(
        group_id,
        [
            {"subject": "我", "memory_type": "EVENT", "topic": "吃", "object": food, "importance": 0.2}
            for food in ("面条", "饺子", "包子")
        ],
        reference_time=old,
        extra=[{"created_at": old.isoformat()}] * 3,
    )
    report = llm_graph.consolidate(group_id)
    assert len(report.summaries) == 1 and "概要: 这个月常吃面食。" in report.summaries[0].text
    asked = [r for r in llm.script.requests if "概括" in json.dumps(r["body"], ensure_ascii=False)]
    assert asked and all(f in asked[0]["body"]["messages"][0]["content"] for f in ("面条", "饺子", "包子"))
