"""A chat loop with long-term memory, against any OpenAI-compatible chat-completions endpoint.

Each turn the model gets one system section from graphmem (``MemoryGraph.context``: the session's
scratchpad, its recent turns and the memories retrieved for what the user just said) and the
graphmem tools (create_memory, link_memories, search_memories, ... as OpenAI function schemas);
the tool calls it makes run through ``graphmem.dispatch`` for the one group given on the command
line. The turns are buffered in working memory; on exit (Ctrl-D or /quit) the session is promoted
into long-term memory (``end_session``: episodes plus extracted memories).

    export OPENAI_API_KEY=...                                   # if the endpoint wants one
    python examples/chat_openai.py --base-url http://localhost:11434/v1 --model qwen2.5 --group alice

Not run in CI: there is no LLM there. Needs only httpx (a dependency of the mcp SDK).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import uuid

import httpx

from graphmem import MemoryGraph, dispatch
from graphmem.errors import GraphmemError
from graphmem.tools import AGENT_TOOLS

SYSTEM = (
    "You are a helpful assistant with a long-term memory. Save what the user tells you about themselves "
    "with create_memory (split complex sentences into several memories, then link_memories causes to "
    "effects); search_memories when you need to recall more than the context below shows."
)
MAX_TOOL_ROUNDS = 5  # tool-call rounds per user turn before the model must answer


def chat(client: httpx.Client, model: str, messages: list[dict]) -> dict:
    reply = client.post("/chat/completions", json={"model": model, "messages": messages, "tools": AGENT_TOOLS})
    reply.raise_for_status()
    return reply.json()["choices"][0]["message"]


def check_endpoint(client: httpx.Client, base_url: str) -> None:
    """Exit with one line when nothing answers at ``base_url`` (an endpoint without /models is fine)."""
    try:
        client.get("/models", timeout=5)
    except httpx.HTTPError as exc:
        sys.exit(
            f"error: no chat endpoint answers at {base_url} ({type(exc).__name__}): start one "
            f"(e.g. `ollama serve`) or pass --base-url"
        )


def main() -> None:
    try:
        run()
    except GraphmemError as exc:  # Neo4j unreachable, a refused password ...: one line, no traceback
        sys.exit(f"error: {exc}")
    except httpx.HTTPError as exc:
        sys.exit(f"error: the chat endpoint failed: {type(exc).__name__}: {str(exc).splitlines()[0][:200]}")


def run() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base-url", default=os.environ.get("OPENAI_BASE_URL", "http://localhost:11434/v1"))
    parser.add_argument("--model", default=os.environ.get("OPENAI_MODEL", "gpt-4o-mini"))
    parser.add_argument("--group", default="default", help="whose memory this is")
    parser.add_argument("--session", default=None, help="session id (default: a new one)")
    parser.add_argument("--max-tokens", type=int, default=800, help="token budget of the memory section")
    args = parser.parse_args()
    session = args.session or uuid.uuid4().hex[:12]
    headers = {"Authorization": f"Bearer {os.environ['OPENAI_API_KEY']}"} if os.environ.get("OPENAI_API_KEY") else {}
    with httpx.Client(base_url=args.base_url, headers=headers, timeout=120) as client, MemoryGraph() as graph:
        check_endpoint(client, args.base_url)
        graph.stats(args.group)  # Neo4j answers (else one line, before the first turn)
        print(f"group {args.group}, session {session}; /quit to end")
        try:
            while True:
                try:
                    user = input("you> ").strip()
                except EOFError:
                    break
                if user in ("/quit", "/exit"):
                    break
                if not user:
                    continue
                memory = graph.context(args.group, session, user, max_tokens=args.max_tokens)
                messages = [{"role": "system", "content": SYSTEM + "\n\n" + memory}, {"role": "user", "content": user}]
                for _ in range(MAX_TOOL_ROUNDS):
                    reply = chat(client, args.model, messages)
                    messages.append(reply)
                    calls = reply.get("tool_calls") or []
                    if not calls:
                        break
                    for call in calls:
                        out = dispatch(graph, call, group_id=args.group, session_id=session)
                        print(f"  [{call['function']['name']}] {'ok' if out.get('success') else out.get('message')}")
                        messages.append(
                            {"role": "tool", "tool_call_id": call["id"], "content": json.dumps(out, ensure_ascii=False)}
                        )
                answer = reply.get("content") or ""
                print(f"bot> {answer}")
                graph.add_turns(
                    args.group,
                    session,
                    [{"role": "user", "content": user}, {"role": "assistant", "content": answer or "(tools only)"}],
                )
        finally:
            done = graph.end_session(args.group, session, promote=True)
            ingested = done["ingested"] or {}
            print(
                f"session saved: {len(ingested.get('episodes', []))} turns, "
                f"{len(ingested.get('memories', []))} memories extracted"
            )


if __name__ == "__main__":
    main()
