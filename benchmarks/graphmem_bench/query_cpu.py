"""What embedding one query costs the CPU, model by model: the CPU time of this process (every
thread) per query, each query embedded alone as a search embeds it.

    python -m graphmem_bench.query_cpu ../shared/bench MODEL [MODEL ...] [--json]

English queries: LoCoMo dev questions; Chinese: the latest user line of each MADial dev dialogue.
Each model is loaded, warmed up on a few queries of each language, then timed; the load average
is printed beside the figures (a busy machine inflates them). A script of the package, not a
`graphmem bench` runner (no entry point).
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import typer

from graphmem.embed import embed_query_array, get_embedder


def english_questions(bench: Path, n: int) -> list[str]:
    conversations = json.loads((bench / "locomo_dev.json").read_text(encoding="utf-8"))
    return [qa["question"] for c in conversations for qa in c["qa"]][:n]


def chinese_lines(bench: Path, n: int) -> list[str]:
    """The latest line of the user in each dialogue, without its speaker label."""
    out = []
    for line in (bench / "madial_dev" / "dialogues_zh.jsonl").read_text(encoding="utf-8").splitlines():
        turns = json.loads(line)["history"].splitlines()
        user = [t for t in turns if t.startswith("<") and ":" in t and not t.startswith(("<Assistant>", "<BOD>"))]
        if user:
            out.append(user[-1].split(":", 1)[1].strip('"'))
    return out[:n]


def measure(model: str, queries: dict[str, list[str]], precision: str, warm_up: int) -> dict:
    started = time.perf_counter()
    embedder = get_embedder(model, precision=precision)
    report: dict = {"model": model, "precision": precision, "dimension": embedder.dimension}
    for lang, texts in queries.items():
        for q in texts[:warm_up]:
            embed_query_array(embedder, [q])
        if lang == next(iter(queries)):
            report["load_and_warm_up_s"] = round(time.perf_counter() - started, 2)
        cpu, wall = time.process_time(), time.perf_counter()
        for q in texts:
            embed_query_array(embedder, [q])
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        report[lang] = {
            "queries": len(texts),
            "cpu_ms": round(cpu / len(texts) * 1000, 2),
            "wall_ms": round(wall / len(texts) * 1000, 2),
        }
    return report


def main(
    bench: Path = typer.Argument(..., help="The folder of the dev sets (locomo_dev.json, madial_dev/)."),
    models: list[str] = typer.Argument(..., help="Embedding models or pairs, as [embedding] model names them."),
    n: int = typer.Option(100, "--n", min=1, help="Queries per language at most."),
    warm_up: int = typer.Option(10, "--warm-up", min=0, help="Queries of each language embedded before timing."),
    precision: str = typer.Option("float32", "--precision", help="float32 or int8 (the query's 8-bit copies)."),
    as_json: bool = typer.Option(False, "--json", help="One JSON line per model."),
) -> None:
    """CPU per query embedding (ms, every thread of the process), English and Chinese, model by model."""
    queries = {"en": english_questions(bench, n), "zh": chinese_lines(bench, n)}
    for model in models:
        report = measure(model, queries, precision, warm_up)
        report["load_average"] = os.getloadavg()
        if as_json:
            print(json.dumps(report))
        else:
            en, zh = report["en"], report["zh"]
            print(
                f"{model} ({report['dimension']} floats): English {en['cpu_ms']} ms CPU ({en['wall_ms']} ms wall), "
                f"Chinese {zh['cpu_ms']} ms CPU ({zh['wall_ms']} ms wall); load {report['load_average']}"
            )


if __name__ == "__main__":
    typer.run(main)
