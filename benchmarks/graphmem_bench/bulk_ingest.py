"""What a bulk ingest (``graphmem ingest FILE``) costs per 1,000 characters, and whether the end of
a file is as fast as its start.

    python -m graphmem_bench.bulk_ingest make ../shared/bench/longmemeval_s_dev.json.gz /tmp/lme5m.txt
    python -m graphmem_bench.bulk_ingest run /tmp/lme5m.txt [--chars 200000] [--extractor rules] [--json]

``make`` writes a plain text of the turns of LongMemEval's sessions (each session once, turns
joined by blank lines) cut at ``--size`` characters (5 MB by default). ``run`` ingests the first
``--chars`` characters of a file into a throw-away group through the same path as the CLI
(``graphmem.ingest.bulk.ingest_file``), prints characters/s per tenth of it with the CPU seconds
of this process and of the local server per 1,000 characters, then embeds the same parts'
turns and sentences alone (what no ingest can do without: the floor), and deletes the group.
A script of the package, not a `graphmem bench` runner (no entry point).
"""

from __future__ import annotations

import gzip
import json
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

import typer

from graphmem.bench.cpu import CpuMeter
from graphmem.bench.write import machine

app = typer.Typer(add_completion=False, no_args_is_help=True)


@app.command()
def make(
    source: Path = typer.Argument(..., help="longmemeval_s_dev.json(.gz)"),
    out: Path = typer.Argument(..., help="The text file to write."),
    size: int = typer.Option(5 * 1024 * 1024, "--size", help="Characters."),
) -> None:
    """A plain text of LongMemEval's turns, ``size`` characters long."""
    opener = gzip.open if source.suffix == ".gz" else open
    with opener(source, "rt", encoding="utf-8") as fh:
        samples = json.load(fh)
    seen: set[str] = set()
    turns: list[str] = []
    total = 0
    for sample in samples:
        for sid, session in zip(sample["haystack_session_ids"], sample["haystack_sessions"]):
            if sid in seen:
                continue
            seen.add(sid)
            for turn in session:
                turns.append(turn["content"].strip())
                total += len(turns[-1]) + 2
            if total >= size:
                break
        if total >= size:
            break
    out.write_text("\n\n".join(turns)[:size], encoding="utf-8")
    typer.echo(f"wrote {out}: {min(total, size):,} characters")


@app.command()
def run(
    file: Path = typer.Argument(..., help="A plain text file."),
    chars: int | None = typer.Option(None, "--chars", min=1000, help="Only the first N characters (default all)."),
    extractor: str = typer.Option("rules", "--extractor", help="rules or none."),
    as_json: bool = typer.Option(False, "--json"),
    keep: bool = typer.Option(False, "--keep", help="Keep the group (default: deleted after the run)."),
    floor_chars: int = typer.Option(
        200_000, "--floor-chars", min=1000, help="The floor is measured on the parts of the first N characters."
    ),
) -> None:
    """Ingest the file into a throw-away group; characters/s per tenth, CPU per 1,000 characters, the floor."""
    from graphmem.config import load_settings
    from graphmem.graph import MemoryGraph
    from graphmem.ingest.bulk import ingest_file, read_parts
    from graphmem.ingest.episodes import sentences

    text = file.read_text(encoding="utf-8")[:chars] if chars else None
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / file.name if text is not None else file
        if text is not None:
            path.write_text(text, encoding="utf-8")
        group = f"bench-bulk-{uuid.uuid4().hex[:8]}"
        graph = MemoryGraph(load_settings(None))
        try:
            meter = CpuMeter(graph)
            graph.ensure_schema()
            graph.embedder.embed(["warm up"])
            marks: list[tuple[float, int, float, float | None]] = []
            start_mark = meter.mark()
            t0 = time.perf_counter()

            def follow(p) -> None:
                m = meter.mark()
                marks.append((time.perf_counter() - t0, p.chars, m.client_s, m.server_s))

            done = ingest_file(graph.ingestor, path, group, extractor=extractor, source="bench", on_batch=follow)
            wall = time.perf_counter() - t0
            total = meter.per_call(start_mark, max(1, done.chars // 1000))
            tenths, tenths_cpu = [], []  # characters/s, and this process's CPU s per 1,000 characters
            last = (0.0, 0, start_mark.client_s, start_mark.server_s)
            for k in range(1, 11):
                goal = done.chars * k // 10
                at = next(m for m in marks if m[1] >= goal)
                if at[1] > last[1]:
                    tenths.append(round((at[1] - last[1]) / max(at[0] - last[0], 1e-9)))
                    tenths_cpu.append(round((at[2] - last[2]) / (at[1] - last[1]) * 1000, 3))
                    last = at
            half = next(m for m in marks if m[1] >= done.chars // 2)
            first_half = half[1] / half[0]
            second_half = (done.chars - half[1]) / max(wall - half[0], 1e-9)
            # the floor is a rate: the parts of the file's start give it without embedding a large file again
            parts, floor_done = [], 0
            for part in read_parts(path):
                if floor_done >= floor_chars:
                    break
                parts.append(part.message.content)
                floor_done += len(part.message.content)
            pieces = [s for p in parts for s in sentences(p)]
            f0, c0 = time.perf_counter(), time.process_time()
            graph.embedder.embed(parts)
            f1, c1 = time.perf_counter(), time.process_time()
            graph.embedder.embed(pieces)
            f2, c2 = time.perf_counter(), time.process_time()
            thousands = max(floor_done, 1) / 1000
            report: dict[str, Any] = {
                "file": str(file),
                "characters": done.chars,
                "parts": done.parts,
                "sentences": len(pieces),
                "memories": done.memories,
                "extractor": extractor,
                "seconds": round(wall, 1),
                "characters_per_s": round(done.chars / wall),
                "first_half_per_s": round(first_half),
                "second_half_per_s": round(second_half),
                "per_tenth_per_s": tenths,
                # steadier than characters/s on a shared machine: does the end cost more than the start?
                "per_tenth_client_cpu_s_per_1000": tenths_cpu,
                "client_cpu_s_per_1000": round((total["client_cpu_ms"] or 0.0) / 1000, 3),
                "server_cpu_s_per_1000": (
                    round(server / 1000, 3) if (server := total["server_cpu_ms"]) is not None else None
                ),
                "floor": {
                    "characters": floor_done,
                    "turns_wall_s_per_1000": round((f1 - f0) / thousands, 3),
                    "turns_cpu_s_per_1000": round((c1 - c0) / thousands, 3),
                    "sentences_wall_s_per_1000": round((f2 - f1) / thousands, 3),
                    "sentences_cpu_s_per_1000": round((c2 - c1) / thousands, 3),
                },
                "machine": machine(),
            }
        finally:
            if not keep:
                graph.delete_group(group)
            graph.close()
    if as_json:
        typer.echo(json.dumps(report, indent=2))
        return
    f = report["floor"]
    typer.echo(
        f"{report['characters']:,} characters, {report['parts']:,} parts ({report['sentences']:,} sentences), "
        f"{report['memories']:,} memories ({extractor}) in {report['seconds']} s: "
        f"{report['characters_per_s']:,} characters/s (first half {report['first_half_per_s']:,}, second half "
        f"{report['second_half_per_s']:,}); per tenth {report['per_tenth_per_s']}\n"
        f"this process's CPU per 1,000 characters, per tenth: {report['per_tenth_client_cpu_s_per_1000']}\n"
        f"CPU per 1,000 characters: this process {report['client_cpu_s_per_1000']} s, Neo4j "
        f"{report['server_cpu_s_per_1000']} s\n"
        f"floor, the embedding alone per 1,000 characters: turns {f['turns_wall_s_per_1000']} s "
        f"({f['turns_cpu_s_per_1000']} s CPU), sentences {f['sentences_wall_s_per_1000']} s "
        f"({f['sentences_cpu_s_per_1000']} s CPU)\nmachine: {report['machine']}"
    )


if __name__ == "__main__":
    app()
