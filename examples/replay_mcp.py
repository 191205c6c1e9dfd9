"""Replay a recorded conversation through `graphmem mcp` and show what was stored and recalled.

The recording (examples/data/conversation.json) holds what the user said and the tool calls the
assistant made. This script starts `graphmem mcp --group GROUP` over stdio with the MCP SDK's
client, as Claude Desktop or VS Code would, replays every tool call, hands the whole transcript
to ingest_conversation, then prints the group's memories, the graph's counts and, for every
search the assistant made, what came back and along which edge.

    python examples/replay_mcp.py --group demo                # Neo4j from NEO4J_* / graphmem.toml
    python examples/replay_mcp.py --group demo --json         # the same, as JSON
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
from pathlib import Path

try:
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client
except ModuleNotFoundError:
    sys.exit("error: this example needs the MCP SDK: pip install 'graphmem[mcp]'")

HERE = Path(__file__).resolve().parent


def check_neo4j() -> None:
    """Exit with one line when the configured Neo4j does not answer (the server would report it
    on every tool call instead)."""
    from graphmem.config import load_settings
    from graphmem.errors import GraphmemError
    from graphmem.store.driver import Store

    try:
        store = Store(load_settings())
        try:
            store.verify()
        finally:
            store.close()
    except GraphmemError as exc:
        sys.exit(f"error: {exc}")


async def replay(recording: dict, group: str) -> dict:
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "graphmem.cli.app", "mcp", "--group", group], env=dict(os.environ)
    )
    report: dict = {"group": group, "calls": [], "recalled": [], "stored": [], "stats": None}
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            for turn in recording["turns"]:
                for call in turn.get("tool_calls", []):
                    result = await session.call_tool(call["name"], call["arguments"])
                    out = result.structured_content or json.loads(result.content[0].text)
                    report["calls"].append(
                        {
                            "tool": call["name"],
                            "ok": not result.is_error,
                            "message": out.get("message") if result.is_error else None,
                        }
                    )
                    if call["name"] == "search_memories" and not result.is_error:
                        report["recalled"].append(
                            {
                                "query": call["arguments"]["query"],
                                "results": [
                                    {
                                        "text": r["text"],
                                        "score": round(r["score"], 3),
                                        "distance": r["distance"],
                                        "via": [
                                            f"{p['edge']}:{p.get('relation') or p.get('via') or ''}" for p in r["path"]
                                        ],
                                    }
                                    for r in out["results"][:5]
                                ],
                            }
                        )
            transcript = [{"role": t["role"], "content": t["content"]} for t in recording["turns"] if t.get("content")]
            result = await session.call_tool("ingest_conversation", {"messages": transcript})
            report["ingested"] = result.structured_content
            recent = await session.read_resource("graphmem://memories/recent")
            report["stored"] = [
                {"id": m["id"], "type": m["memory_type"], "text": m["text"], "source": m["source"]}
                for m in json.loads(recent.contents[0].text)
            ]
            stats = await session.call_tool("memory_stats", {})
            report["stats"] = stats.structured_content["memories"]
    return report


def show(report: dict) -> None:
    ok = sum(c["ok"] for c in report["calls"])
    print(f"group {report['group']}: {ok}/{len(report['calls'])} tool calls accepted")
    for c in report["calls"]:
        if not c["ok"]:
            print(f"  refused {c['tool']}: {c['message']}")
    print(f"\nstored ({report['stats']['total']} memories, by type {report['stats']['by_type']}):")
    for m in report["stored"]:
        print(f"  [{m['type']:<8}] {m['text']}   ({m['source']})")
    for r in report["recalled"]:
        print(f"\nrecalled for {r['query']!r}:")
        for x in r["results"]:
            via = f"  via {', '.join(x['via'])}" if x["via"] else ""
            print(f"  {x['score']:.3f}  d={x['distance']}  {x['text']}{via}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--group", default="replay-demo", help="the group the server is fixed to")
    parser.add_argument("--recording", default=str(HERE / "data" / "conversation.json"))
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    args = parser.parse_args()
    recording = json.loads(Path(args.recording).read_text(encoding="utf-8"))
    check_neo4j()
    report = asyncio.run(replay(recording, args.group))
    if args.json:
        print(json.dumps(report, ensure_ascii=False, indent=2))
    else:
        show(report)


if __name__ == "__main__":
    main()
