"""`graphmem serve`'s HTTP API, through real HTTP (uvicorn on a free port, driven with httpx) against
the real database: every endpoint, the group taken from the token and never from the body, the
status of each named error, and a valid OpenAPI document."""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

pytest.importorskip("fastapi")
import httpx  # noqa: E402
import uvicorn  # noqa: E402

from graphmem.http.app import MAX_REQUEST_BYTES, create_app  # noqa: E402
from graphmem.http.auth import Gate  # noqa: E402
from graphmem.server import free_port  # noqa: E402

TOKEN_A = "token-a-" + uuid.uuid4().hex
TOKEN_B = "token-b-" + uuid.uuid4().hex
ADMIN = "admin-" + uuid.uuid4().hex


@contextmanager
def serving(graph, gate: Gate) -> Iterator[str]:
    """The app on a free loopback port in a thread of this process; its base URL."""
    port = free_port()
    server = uvicorn.Server(
        uvicorn.Config(create_app(graph, gate), host="127.0.0.1", port=port, log_level="warning", lifespan="off")
    )
    thread = threading.Thread(target=server.run, name="graphmem-http-test", daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the HTTP server did not start"
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=30)


def new_group(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:10]}"


@pytest.fixture(scope="module")
def groups() -> dict[str, str]:
    return {"a": new_group("http-a"), "b": new_group("http-b"), "open": new_group("http-open")}


@pytest.fixture(scope="module")
def tokens_url(graph, groups) -> Iterator[str]:
    """A server that needs tokens: TOKEN_A acts on group a, TOKEN_B on group b, ADMIN on any."""
    gate = Gate(
        host="127.0.0.1", group=groups["a"], tokens={TOKEN_A: groups["a"], TOKEN_B: groups["b"]}, admin_tokens=[ADMIN]
    )
    with serving(graph, gate) as url:
        yield url


@pytest.fixture(scope="module")
def open_url(graph, groups) -> Iterator[str]:
    """A loopback server without tokens: every request acts on the server's group."""
    with serving(graph, Gate(host="127.0.0.1", group=groups["open"])) as url:
        yield url


def client(url: str, token: str | None = None, **headers: str) -> httpx.Client:
    if token:
        headers["Authorization"] = f"Bearer {token}"
    return httpx.Client(base_url=url + "/v1", headers=headers, timeout=900)  # minutes on a starved machine


MOVE = [
    {"subject": "我", "memory_type": "事实", "topic": "住在", "object": "北京", "attributes": {"时间": "2022年"}},
    {"subject": "我", "memory_type": "事件", "topic": "搬家", "object": "上海", "attributes": {"时间": "2024年3月"}},
]


def test_every_endpoint_answers_with_the_librarys_types(tokens_url, groups, graph):
    with client(tokens_url, TOKEN_A) as c:
        one = c.post("/memories", json={**MOVE[0], "session_id": "s1", "request_id": "r-one"})
        assert one.status_code == 200, one.text
        first = one.json()
        assert (
            first["success"]
            and first["status"] == "staged"
            and {x["role"] for x in first["concepts"]}
            == {
                "subject",
                "topic",
                "object",
            }
        )
        again = c.post("/memories", json={**MOVE[0], "session_id": "s1", "request_id": "r-one"})
        assert again.json()["memory_id"] == first["memory_id"]  # the idempotency key holds over HTTP
        many = c.post(
            "/memories/batch",
            json={"memories": MOVE[1:] + [{"subject": "我", "memory_type": "观点", "topic": "喜欢", "object": "上海"}]},
        )
        assert many.status_code == 200 and len(many.json()) == 2
        moved_id = many.json()[0]["memory_id"]

        listed = c.get("/memories", params={"limit": 10}).json()
        assert {m["id"] for m in listed} == {first["memory_id"], moved_id, many.json()[1]["memory_id"]}
        shown = c.get(f"/memories/{first['memory_id']}").json()
        assert shown["group_id"] == groups["a"] and shown["object"] == "北京" and shown["source"] == "http"
        assert c.get(f"/memories/{first['memory_id']}/supersede-chain").status_code == 200

        linked = c.post(
            "/links",
            json={
                "source_memory_description": "我搬家到上海",
                "target_memory_description": "我喜欢上海",
                "relation_type": "导致",
            },
        )
        assert linked.status_code == 200, linked.text
        assert linked.json()["edge_type"] == "CAUSALITY"

        found = c.post(
            "/search",
            json={
                "query": "我住在哪里？",
                "max_results": 5,
                "expand_depth": 1,
                "mode": "deep",
                "memory_types": ["fact", "事件"],
                "superseded": "keep",
                "profile": "recall",
                "rerank": False,
                "reference_time": "2025-01-01T00:00:00+00:00",
            },
        )
        assert found.status_code == 200, found.text
        body = found.json()
        assert body["group_id"] == groups["a"] and body["mode_used"] == "deep"
        assert first["memory_id"] in {r["memory_id"] for r in body["results"]}
        then = c.post("/search", json={"query": "我住在哪里？", "as_of": "2023-01-01"}).json()
        assert then["plan"]["as_of"]["source"] == "argument"
        assert moved_id not in {r["memory_id"] for r in then["results"]}  # the move came later

        assert c.put(f"/memories/{first['memory_id']}/importance", json={"importance": 0.9}).json()["importance"] == 0.9
        assert c.post(f"/memories/{first['memory_id']}/forget").json()["status"] == "archived"
        hidden = c.post("/search", json={"query": "我住在北京", "mode": "fast"}).json()
        assert first["memory_id"] not in {r["memory_id"] for r in hidden["results"]}
        assert c.post(f"/memories/{first['memory_id']}/restore").json()["status"] == "staged"

        ingested = c.post(
            "/ingest",
            json={
                "messages": [
                    {"role": "user", "content": "我昨天去了杭州出差。"},
                    {"role": "assistant", "content": "杭州怎么样？"},
                ],
                "session_id": "chat-1",
                "extractor": "rules",
                "reference_time": "2025-05-02T10:00:00+08:00",
            },
        )
        assert ingested.status_code == 200, ingested.text
        assert len(ingested.json()["episodes"]) == 2 and ingested.json()["group_id"] == groups["a"]
        assert c.post("/ingest", json={"text": "I moved to Lisbon last year.", "extractor": "none"}).status_code == 200
        retried = c.post("/extractions/retry", json={"max_jobs": 5, "force": True})
        assert retried.status_code == 200 and "attempted" in retried.json()

        assert c.put("/sessions/chat-1/notes/plan", json={"value": {"next": "book hotel"}}).status_code == 200
        assert c.get("/sessions/chat-1/notes").json()["plan"] == {"next": "book hotel"}
        assert (
            c.post("/sessions/chat-1/turns", json={"messages": [{"role": "user", "content": "订酒店"}]}).status_code
            == 200
        )
        assert [t["content"] for t in c.get("/sessions/chat-1/turns").json()] == ["订酒店"]
        context = c.post("/context", json={"session_id": "chat-1", "query": "我住在哪里？", "max_tokens": 400}).json()
        assert "订酒店" in context["context"] and "book hotel" in context["context"]
        assert c.delete("/sessions/chat-1/notes/plan").json() == {"deleted": True}
        ended = c.post("/sessions/chat-1/end", json={"promote": False}).json()
        assert ended["session_id"] == "chat-1" and ended["ingested"] is None

        stats = c.get("/stats").json()
        assert stats["memories"]["total"] >= 3 and stats["group_id"] == groups["a"]
        dry = c.post("/consolidate", json={"dry_run": True}).json()
        assert dry["group_id"] == groups["a"] and dry["dry_run"] is True
        assert c.post("/consolidate", json={}).json()["status"] == "finished"

        exported = c.get("/export", params={"vectors": False})
        assert exported.status_code == 200 and exported.headers["content-type"].startswith("application/x-ndjson")
        lines = exported.text.splitlines()
        assert '"graphmem-export"' in lines[0] and groups["a"] in lines[0]
        assert not any(groups["b"] in line for line in lines)
    with httpx.Client(base_url=tokens_url) as bare:
        assert bare.get("/v1/health").json()["status"] == "ok"
        assert bare.get("/docs").status_code == 200 and "swagger" in bare.get("/docs").text.lower()


def test_deleting_a_group_needs_the_admin_token(tokens_url, graph):
    doomed = new_group("http-doomed")
    graph.create_memory(doomed, "我", "事实", "喜欢", "猫")
    with client(tokens_url, TOKEN_A) as tenant:
        refused = tenant.delete(f"/groups/{doomed}")
        assert refused.status_code == 403 and refused.json()["error"] == "ForbiddenError"
    assert graph.stats(doomed)["memories"]["total"] == 1
    with client(tokens_url, ADMIN) as admin:
        deleted = admin.delete(f"/groups/{doomed}")
        assert deleted.status_code == 200, deleted.text
        assert deleted.json()["group_id"] == doomed and deleted.json()["nodes"] > 0
    assert graph.stats(doomed)["memories"]["total"] == 0


def test_a_missing_or_unknown_token_is_refused(tokens_url, groups, graph):
    before = graph.stats(groups["b"])["memories"]["total"]
    for token in (None, "not-a-token-but-long-enough", TOKEN_A[:-1]):
        with client(tokens_url, token) as c:
            r = c.post("/memories", json=MOVE[0])
            assert r.status_code == 401, r.text
            assert r.json()["error"] == "UnauthorizedError" and r.headers["www-authenticate"] == "Bearer"
    with httpx.Client(base_url=tokens_url + "/v1", headers={"Authorization": f"Basic {TOKEN_A}"}) as c:
        assert c.get("/stats").status_code == 401
    assert graph.stats(groups["b"])["memories"]["total"] == before


def test_a_smuggled_group_is_refused_and_writes_nothing(tokens_url, groups, graph):
    before = graph.stats(groups["b"])["memories"]["total"]
    with client(tokens_url, TOKEN_A) as c:
        for field in ("group_id", "tenant", "user_id"):
            r = c.post("/memories", json={**MOVE[0], field: groups["b"]})
            assert r.status_code == 422 and r.json()["field"] == field, r.text
            assert "fixed by your token" in r.json()["message"]
        r = c.post("/search", json={"query": "我住在哪里？", "group_id": groups["b"]})
        assert r.status_code == 422 and r.json()["field"] == "group_id"
        r = c.get("/stats", params={"group_id": groups["b"]})
        assert r.status_code == 422 and "query string" in r.json()["message"]
        r = c.get("/stats", headers={"X-Graphmem-Group": groups["b"]})
        assert r.status_code == 403 and r.json()["error"] == "ForbiddenError"
        assert c.get("/stats", params={"whole_database": True}).status_code == 403
    with client(tokens_url, TOKEN_B) as b:
        b.post("/memories", json={"subject": "我", "memory_type": "事实", "topic": "住在", "object": "广州"})
    with client(tokens_url, TOKEN_A) as a:
        ids_b = {m.id for m in graph.list_memories(groups["b"])}
        results = a.post("/search", json={"query": "我住在广州", "max_results": 50}).json()["results"]
        assert ids_b and not ids_b & {r["memory_id"] for r in results}
        (some_b,) = list(ids_b)[:1]
        assert a.get(f"/memories/{some_b}").status_code == 404  # another group's id is simply not found
    with client(tokens_url, ADMIN, **{"X-Graphmem-Group": groups["b"]}) as admin:
        assert admin.get("/stats").json()["group_id"] == groups["b"]  # an admin names the group
    assert graph.stats(groups["b"])["memories"]["total"] == before + 1


def test_without_tokens_a_loopback_server_uses_its_own_group(open_url, groups, graph):
    with client(open_url) as c:
        r = c.post("/memories", json={"subject": "我", "memory_type": "fact", "topic": "like", "object": "tea"})
        assert r.status_code == 200, r.text
        assert graph.get_memory(groups["open"], r.json()["memory_id"]).object == "tea"
        assert c.get("/stats", headers={"X-Graphmem-Group": groups["a"]}).status_code == 403
        assert c.get("/stats", headers={"Authorization": "Bearer unknown-token-of-some-length"}).status_code == 401


def test_each_named_error_has_its_status(tokens_url, groups, graph, make_settings):
    from graphmem.graph import MemoryGraph
    from graphmem.lifecycle.lock import RunLock
    from graphmem.lifecycle.work import Work

    with client(tokens_url, TOKEN_A) as c:
        bad = c.post("/memories", json={"subject": "我", "memory_type": "dream", "topic": "飞"})
        assert bad.status_code == 422 and bad.json()["error"] == "ValidationError"
        assert bad.json()["field"] == "memory_type" and "事件" in bad.json()["allowed"]
        assert c.post("/search", json={"query": "x", "max_results": 0}).status_code == 422
        assert c.post("/search", json={"query": "x", "as_of": "last Tuesday-ish"}).json()["field"] == "as_of"
        assert (
            c.post("/memories", content=b"{not json", headers={"Content-Type": "application/json"}).status_code == 422
        )
        missing = c.get("/memories/no-such-memory")
        assert missing.status_code == 404 and missing.json()["error"] == "NotFoundError"
        assert c.post("/memories/no-such-memory/forget").status_code == 404
        unknown = c.get("/no-such-endpoint")
        assert unknown.status_code == 404 and unknown.json()["success"] is False
        nothing = c.post(
            "/links",
            json={
                "source_memory_description": "火星上的量子花园",
                "target_memory_description": "深海的机械鲸鱼",
                "relation_type": "related",
            },
        )
        assert nothing.status_code == 409 and nothing.json()["error"] in ("NoMatchError", "AmbiguousMatchError")
        assert isinstance(nothing.json()["candidates"], list)
        holder = RunLock(Work(graph.store), groups["a"], "someone-else", ttl_s=600)
        holder.acquire()
        try:
            locked = c.post("/consolidate", json={})
            assert locked.status_code == 409 and locked.json()["error"] == "ConsolidationLockedError"
        finally:
            holder.release()
        huge = c.post("/ingest", content=b"x" * (MAX_REQUEST_BYTES + 1), headers={"Content-Type": "application/json"})
        assert huge.status_code == 413 and huge.json()["field"] == "body"
    dead = make_settings(neo4j={"uri": f"neo4j://127.0.0.1:{free_port()}", "retry_budget_s": 0})
    offline = MemoryGraph(dead, embedder=graph.embedder)
    try:
        with serving(offline, Gate(host="127.0.0.1", group="g")) as url, client(url) as c:
            down = c.get("/memories/anything")
            assert down.status_code == 503 and down.json()["error"].startswith("Neo4j")
            assert down.headers["retry-after"]
    finally:
        offline.close()


def test_the_openapi_document_is_valid_and_names_every_endpoint(tokens_url):
    from openapi_spec_validator import validate

    spec = httpx.get(tokens_url + "/openapi.json").json()
    validate(spec)
    paths = spec["paths"]
    for path in (
        "/v1/memories",
        "/v1/memories/batch",
        "/v1/memories/{memory_id}",
        "/v1/links",
        "/v1/search",
        "/v1/ingest",
        "/v1/extractions/retry",
        "/v1/consolidate",
        "/v1/memories/{memory_id}/forget",
        "/v1/memories/{memory_id}/restore",
        "/v1/stats",
        "/v1/sessions/{session_id}/notes/{key}",
        "/v1/context",
        "/v1/export",
        "/v1/groups/{group_id}",
    ):
        assert path in paths, path
    search_body = spec["components"]["schemas"]["SearchRequest"]["properties"]
    assert {"query", "as_of", "time_range", "relation_filters", "superseded", "rerank"} <= set(search_body)
    assert "group_id" not in search_body
    answer = paths["/v1/search"]["post"]["responses"]["200"]["content"]["application/json"]["schema"]
    assert answer["$ref"].endswith("/SearchResponse")


def test_ten_concurrent_clients_get_no_error_and_only_their_own_memories(graph):
    tokens = {f"tok-{i}-{uuid.uuid4().hex}": new_group(f"http-c{i}") for i in range(10)}
    mine: dict[str, set[str]] = {g: set() for g in tokens.values()}
    failures: list[str] = []
    barrier = threading.Barrier(len(tokens))
    with serving(graph, Gate(host="127.0.0.1", group="unused", tokens=tokens)) as url:

        def run(token: str, group: str, n: int) -> None:
            try:
                with client(url, token) as c:
                    for city in (f"城市{n}", f"town {n}"):
                        r = c.post(
                            "/memories", json={"subject": "我", "memory_type": "事实", "topic": "住在", "object": city}
                        )
                        if r.status_code != 200:
                            failures.append(f"{group} create {r.status_code} {r.text}")
                            return
                        mine[group].add(r.json()["memory_id"])
                    barrier.wait(timeout=300)
                    for query in ("我住在哪里？", "where do I live?", "城市", "town"):
                        r = c.post("/search", json={"query": query, "max_results": 20, "mode": "deep"})
                        if r.status_code != 200:
                            failures.append(f"{group} search {r.status_code} {r.text}")
                            continue
                        body = r.json()
                        foreign = {x["memory_id"] for x in body["results"]} - mine[group]
                        if body["group_id"] != group or foreign:
                            failures.append(f"{group} saw {foreign or body['group_id']}")
            except Exception as exc:  # noqa: BLE001 - reported below with the others
                failures.append(f"{group} {type(exc).__name__}: {exc}")

        threads = [
            threading.Thread(target=run, args=(token, group, n)) for n, (token, group) in enumerate(tokens.items())
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=600)
    assert not failures, failures
    assert all(len(ids) == 2 for ids in mine.values())
