"""`graphmem mcp`: started as a real process and driven with the MCP SDK's own client, over
stdio and streamable HTTP, against the real database. The group is the server's, never the
model's: smuggled group arguments are refused and other groups' ids are not found."""

from __future__ import annotations

import asyncio
import json
import os
import random
import socket
import subprocess
import sys
import time
from contextlib import asynccontextmanager
from pathlib import Path

import anyio
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("mcp")
from mcp import ClientSession, StdioServerParameters  # noqa: E402
from mcp.client.stdio import stdio_client  # noqa: E402
from mcp.shared.exceptions import MCPError  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
REF_QUERY_ZH = "我为什么今天不开心？"
SEED_12_5 = [
    {"subject": "我", "memory_type": "事实", "topic": "心情", "object": "不好", "attributes": {"时间": "今天"}},
    {"subject": "我", "memory_type": "事件", "topic": "睡眠", "object": "不好", "attributes": {"时间": "昨晚"}},
]
ENGLISH_PAIR = [
    {
        "subject": "I",
        "memory_type": "event",
        "topic": "miss",
        "object": "the bus",
        "attributes": {"time": "this morning"},
    },
    {"subject": "I", "memory_type": "fact", "topic": "late", "object": "for work", "attributes": {"time": "today"}},
]


def server_env(cli_env: dict) -> dict:
    return {
        **cli_env,
        "PYTHONPATH": str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""),
        "PATH": os.environ.get("PATH", ""),
        "HOME": os.environ.get("HOME", "/tmp"),
    }


@asynccontextmanager
async def stdio_session(env: dict, *args: str):
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "graphmem.cli.app", "mcp", *args], env=env, cwd=str(REPO)
    )
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            yield session


async def call(session: ClientSession, name: str, **arguments) -> tuple[bool, dict]:
    result = await session.call_tool(name, arguments)
    data = result.structured_content or json.loads(result.content[0].text)
    return result.is_error, data


async def write_and_recall(session: ClientSession) -> None:
    """The seed 004 §12.5 scene (Chinese) and an English pair, linked, then recalled through the graph."""
    ids = {}
    for memory in SEED_12_5 + ENGLISH_PAIR:
        err, out = await call(session, "create_memory", **memory)
        assert not err and out["success"], out
        ids[memory["topic"]] = out["memory_id"]
    err, out = await call(
        session,
        "link_memories",
        source_memory_description="我昨晚睡眠不好",
        target_memory_description="我今天心情不好",
        relation_type="导致",
    )
    assert not err and out["success"], out
    err, out = await call(
        session,
        "link_memories",
        source_memory_description="I missed the bus this morning",
        target_memory_description="I was late for work today",
        relation_type="causes",
    )
    assert not err and out["success"], out

    err, found = await call(session, "search_memories", query=REF_QUERY_ZH)
    assert not err
    by_id = {r["memory_id"] if "memory_id" in r else r["id"]: r for r in found["results"]}
    assert ids["心情"] in by_id and ids["睡眠"] in by_id, found["results"]
    cause = by_id[ids["睡眠"]]
    assert "CAUSALITY" in json.dumps(cause["path"]), cause  # reached along the causal edge

    err, found = await call(session, "search_memories", query="why was I late for work today?")
    assert not err
    by_id = {r.get("memory_id", r.get("id")): r for r in found["results"]}
    assert ids["late"] in by_id and ids["miss"] in by_id
    assert "CAUSALITY" in json.dumps(by_id[ids["miss"]]["path"])

    # resources: one memory by id, and the group's recent memories
    memory = json.loads((await session.read_resource(f"graphmem://memory/{ids['睡眠']}")).contents[0].text)
    assert memory["topic"] == "睡眠" and memory["links"][0]["relation"] in ("导致", "causes")
    recent = json.loads((await session.read_resource("graphmem://memories/recent")).contents[0].text)
    assert {m["id"] for m in recent} == set(ids.values())


def test_stdio_server_lists_tools_writes_links_and_recalls_the_cause(cli_env, group_id):
    async def run():
        async with stdio_session(server_env(cli_env), "--group", group_id) as session:
            tools = {t.name: t for t in (await session.list_tools()).tools}
            assert list(tools) == [
                "create_memory",
                "link_memories",
                "search_memories",
                "update_memory_importance",
                "forget_memory",
                "ingest_conversation",
                "get_memory",
                "memory_stats",
            ]
            assert tools["create_memory"].input_schema["required"] == ["subject", "memory_type", "topic"]
            assert (
                tools["search_memories"].annotations.read_only_hint
                and tools["forget_memory"].annotations.destructive_hint
            )
            assert "事件" in tools["create_memory"].description or "记忆" in tools["create_memory"].description
            await write_and_recall(session)

            # invalid calls are tool errors with the validation message; the server keeps serving
            err, out = await call(session, "create_memory", subject="我", memory_type="梦想", topic="飞")
            assert err and out["field"] == "memory_type" and "memory_type" in out["message"]
            err, out = await call(session, "search_memories", query="x", max_results=0)
            assert err and out["field"] == "max_results"
            err, out = await call(session, "no_such_tool")
            assert err and out["error"] == "UnknownTool"
            err, out = await call(session, "memory_stats")
            assert not err and out["memories"]["total"] == 4

            # forget archives: hidden from search, still readable by id
            recent = json.loads((await session.read_resource("graphmem://memories/recent")).contents[0].text)
            victim = next(m for m in recent if m["topic"] == "miss")
            err, out = await call(session, "forget_memory", memory_id=victim["id"])
            assert not err and out["status"] == "archived"
            err, found = await call(session, "search_memories", query="I missed the bus")
            assert victim["id"] not in {r.get("memory_id", r.get("id")) for r in found["results"]}
            err, out = await call(session, "get_memory", memory_id=victim["id"])
            assert not err and out["memory"]["status"] == "archived"

    anyio.run(run)


def test_core_profile_serves_the_four_seed_tools_only(cli_env, group_id):
    async def run():
        async with stdio_session(server_env(cli_env), "--group", group_id, "--tools", "core") as session:
            names = [t.name for t in (await session.list_tools()).tools]
            assert names == ["create_memory", "link_memories", "search_memories", "update_memory_importance"]
            err, out = await call(session, "forget_memory", memory_id="x")
            assert err and out["error"] == "UnknownTool"

    anyio.run(run)


ADVERSARIAL = ["group_id", "group", "tenant", "groupId", "namespace"]


def test_two_servers_fixed_to_two_groups_never_cross(cli_env):
    """Look-alike data in two groups, a few hundred randomised calls with smuggled group arguments
    and the other group's ids: nothing from B is ever returned to A or changed by A, and back."""
    groups = {"A": "iso-a-" + os.urandom(4).hex(), "B": "iso-b-" + os.urandom(4).hex()}
    rng = random.Random(19)
    env = server_env(cli_env)

    async def run():
        async with stdio_session(env, "--group", groups["A"]) as a, stdio_session(env, "--group", groups["B"]) as b:
            sessions = {"A": a, "B": b}
            ids: dict[str, list[str]] = {"A": [], "B": []}
            for name, s in sessions.items():
                for memory in SEED_12_5 + ENGLISH_PAIR:
                    err, out = await call(s, "create_memory", **memory, importance=0.5)
                    assert not err, out
                    ids[name].append(out["memory_id"])
            calls = 0
            for _ in range(300):
                me = rng.choice("AB")
                other = "B" if me == "A" else "A"
                s = sessions[me]
                kind = rng.choice(["search", "get", "forget", "importance", "smuggle", "stats", "create"])
                if kind == "search":
                    err, out = await call(
                        s,
                        "search_memories",
                        query=rng.choice([REF_QUERY_ZH, "mood", "bus", "睡眠"]),
                        max_results=rng.randint(1, 20),
                    )
                    assert not err
                    assert {r.get("memory_id", r.get("id")) for r in out["results"]}.isdisjoint(ids[other])
                    assert out["group_id"] == groups[me]
                elif kind == "get":
                    err, out = await call(s, "get_memory", memory_id=rng.choice(ids[other]))
                    assert err and out["error"] == "NotFoundError"
                elif kind == "forget":
                    err, out = await call(s, "forget_memory", memory_id=rng.choice(ids[other]))
                    assert err and out["error"] == "NotFoundError"
                elif kind == "importance":
                    err, out = await call(
                        s, "update_memory_importance", memory_id=rng.choice(ids[other]), importance=1.0
                    )
                    assert err and out["error"] == "NotFoundError"
                elif kind == "smuggle":
                    key = rng.choice(ADVERSARIAL)
                    tool, args = rng.choice(
                        [
                            ("search_memories", {"query": "mood"}),
                            (
                                "create_memory",
                                {"subject": "我", "memory_type": "事实", "topic": "秘密", "object": "泄露"},
                            ),
                            ("memory_stats", {}),
                            ("get_memory", {"memory_id": rng.choice(ids[other])}),
                        ]
                    )
                    err, out = await call(s, tool, **args, **{key: groups[other]})
                    assert err and out["error"] == "ValidationError" and out["field"] == key, out
                elif kind == "stats":
                    err, out = await call(s, "memory_stats")
                    assert not err and out["group_id"] == groups[me]
                else:
                    err, out = await call(
                        s,
                        "create_memory",
                        subject="我",
                        memory_type="事件",
                        topic="散步",
                        object=f"公园{rng.randint(0, 3)}",
                    )
                    assert not err
                    ids[me].append(out["memory_id"])
                calls += 1
            assert calls == 300
            # nothing of either group was changed by the other: importance and status as written
            for name, s in sessions.items():
                for memory_id in ids[name][:4]:
                    err, out = await call(s, "get_memory", memory_id=memory_id)
                    assert out["memory"]["importance"] == 0.5 and out["memory"]["status"] != "archived"
                err, out = await call(s, "memory_stats")
                assert out["memories"]["total"] == len(ids[name])

    anyio.run(run)


# --- streamable HTTP -------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def http_server(cli_env):
    procs = []

    def start(*args: str) -> str:
        port = free_port()
        proc = subprocess.Popen(
            [sys.executable, "-m", "graphmem.cli.app", "mcp", "--http", "--port", str(port), *args],
            env=server_env(cli_env),
            cwd=str(REPO),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        procs.append(proc)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                raise AssertionError(f"graphmem mcp exited: {proc.stderr.read()}")
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                return f"http://127.0.0.1:{port}/mcp"
            except OSError:
                time.sleep(0.2)
        raise AssertionError("graphmem mcp --http did not listen within 60 s")

    yield start
    for proc in procs:
        proc.terminate()
        proc.wait(timeout=20)


@asynccontextmanager
async def http_session(url: str, headers: dict | None = None):
    import httpx2
    from mcp.client.streamable_http import streamable_http_client

    async with httpx2.AsyncClient(headers=headers or {}, timeout=120) as client:
        async with streamable_http_client(url, http_client=client) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                yield session


def test_streamable_http_server_writes_links_and_recalls_the_cause(http_server, group_id):
    url = http_server("--group", group_id, "--token", "s3cret")

    async def run():
        async with http_session(url, {"Authorization": "Bearer s3cret"}) as session:
            assert len((await session.list_tools()).tools) == 8
            await write_and_recall(session)

    anyio.run(run)

    import httpx2

    refused = httpx2.post(
        url,
        json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
        headers={"Authorization": "Bearer wrong", "Accept": "application/json, text/event-stream"},
    )
    assert refused.status_code == 401


def test_http_group_comes_from_the_connection_header_never_from_arguments(http_server):
    url = http_server("--group-header", "X-Graphmem-Group")
    a, b = "hdr-a-" + os.urandom(4).hex(), "hdr-b-" + os.urandom(4).hex()

    async def run():
        async with http_session(url, {"X-Graphmem-Group": a}) as sa, http_session(url, {"X-Graphmem-Group": b}) as sb:
            err, out = await call(sa, "create_memory", subject="我", memory_type="事实", topic="密码", object="1234")
            assert not err
            secret = out["memory_id"]
            err, out = await call(sb, "get_memory", memory_id=secret)
            assert err and out["error"] == "NotFoundError"
            with pytest.raises(MCPError, match="no memory"):
                await sb.read_resource(f"graphmem://memory/{secret}")
            assert json.loads((await sb.read_resource("graphmem://memories/recent")).contents[0].text) == []
            err, out = await call(sb, "search_memories", query="密码", group_id=a)
            assert err and out["field"] == "group_id"
            err, out = await call(sb, "search_memories", query="密码")
            assert not err and secret not in {r.get("memory_id", r.get("id")) for r in out["results"]}
            err, out = await call(sa, "memory_stats")
            assert out["group_id"] == a and out["memories"]["total"] == 1
        async with http_session(url) as nobody:
            err, out = await call(nobody, "memory_stats")
            assert err and "X-Graphmem-Group" in out["message"]

    anyio.run(run)


def test_binding_beyond_loopback_without_a_token_is_refused(cli_env):
    proc = subprocess.run(
        [sys.executable, "-m", "graphmem.cli.app", "mcp", "--http", "--host", "0.0.0.0", "--port", str(free_port())],
        env=server_env(cli_env),
        cwd=str(REPO),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 1 and "--token" in proc.stderr


# --- invalid calls never take the server down ---------------------------------------------------------

JUNK = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=6,
)


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)
@given(
    name=st.sampled_from(
        [
            "create_memory",
            "link_memories",
            "search_memories",
            "update_memory_importance",
            "forget_memory",
            "ingest_conversation",
            "get_memory",
            "memory_stats",
            "drop_db",
        ]
    ),
    arguments=st.dictionaries(
        st.sampled_from(
            [
                "subject",
                "memory_type",
                "topic",
                "object",
                "attributes",
                "importance",
                "query",
                "memory_id",
                "messages",
                "text",
                "relation_type",
                "max_results",
                "source_memory_description",
                "extra",
            ]
        ),
        JUNK,
        max_size=5,
    ),
)
def test_any_call_comes_back_as_a_result_or_a_tool_error_with_a_message(graph, name, arguments):
    """Junk arguments of every type: each answer is a CallToolResult; errors say what was wrong."""
    import mcp_types as types

    from graphmem.integrations.mcp import GraphmemMCP

    handlers = GraphmemMCP(graph, group_id="mcp-fuzz")
    result = asyncio.run(handlers.call_tool(None, types.CallToolRequestParams(name=name, arguments=arguments)))
    assert isinstance(result, types.CallToolResult)
    data = json.loads(result.content[0].text)
    if result.is_error:
        assert data["success"] is False and data["message"] and data["error"] != "InternalError", data


# --- oversized values --------------------------------------------------------------------------------

OVERSIZED = [
    ("create_memory", {"subject": "x" * 100_000, "memory_type": "fact", "topic": "like"}, "subject"),
    ("ingest_conversation", {"text": "长" * 100_000}, "text"),  # 300 kB of UTF-8
    ("search_memories", {"query": "tea", "k" * 100_000: 1}, None),  # a 100 kB argument name
]


async def oversized_calls(session: ClientSession) -> list[tuple[bool, dict, int]]:
    out = []
    for tool, arguments, _ in OVERSIZED:
        result = await session.call_tool(tool, arguments)
        out.append((result.is_error, result.structured_content, len(result.content[0].text.encode())))
    return out


def _short_tool_errors(answers: list[tuple[bool, dict, int]]) -> None:
    for (is_error, data, size), (_, _, field) in zip(answers, OVERSIZED):
        assert is_error and data["error"] == "ValidationError", data
        assert size < 1000, size  # once 200 kB: the value came back twice
        if field:
            assert f"{field}: is 100000 characters long" in data["message"], data


def test_a_100_kb_value_over_stdio_is_a_short_tool_error(cli_env, group_id):
    async def run():
        async with stdio_session(server_env(cli_env), "--group", group_id) as session:
            return await oversized_calls(session)

    _short_tool_errors(anyio.run(run))


def test_a_100_kb_value_over_http_is_a_short_tool_error_not_a_broken_stream(http_server, group_id):
    """A 100 kB Chinese value once made the client fail with "Server-sent event exceeded the
    1048576 byte limit"; now it is a tool error like over stdio."""
    url = http_server("--group", group_id)

    async def run():
        async with http_session(url) as session:
            return await oversized_calls(session)

    _short_tool_errors(anyio.run(run))


def test_a_result_too_large_for_one_message_loses_its_last_results_saying_so():
    from graphmem.integrations.mcp import MAX_RESULT_BYTES, _fits

    result = {"tool": "search_memories", "success": True, "results": [{"text": "长" * 1000} for _ in range(300)]}
    fitted = _fits(result)
    assert len(json.dumps(fitted, ensure_ascii=False).encode()) <= MAX_RESULT_BYTES
    assert fitted["truncated"]["results_dropped"] == 300 - len(fitted["results"]) > 0
