"""Moving a database to another embedding model (``graphmem reembed``), resumably.

1. **embed**: every node with an embedding (memories, turns, sentences, concepts, the LangGraph
   store's items) gets the new
   model's vector in ``embedding_next``, batch by batch, each batch one transaction; the vector
   indexes keep serving the old ``embedding`` meanwhile, so processes still configured with the
   old model search as before. Stopped (Ctrl-C, a crash, kill -9) and run again, it carries on
   with the nodes that have no new vector yet.
2. **swap**, once no node is left: each vector index is dropped, the new vectors are moved into
   ``embedding`` (in batches), the indexes are created again for the new dimension and the
   schema node names the new model. Interrupted, a second run finishes it (the schema node says
   a swap is under way); searches fail during the swap, which takes seconds per 100,000 nodes.

Nodes written while step 1 runs (by processes on the old model) are picked up by the same
loop: it ends only when a pass finds nothing left.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from ..embed import Embedder, embed_array
from ..errors import ConfigError
from .driver import Store
from .schema import SCHEMA_VERSION, install_schema

LABELS = ("Memory", "Episode", "Sentence", "Subject", "Topic", "Object", "StoreItem")
# the vector index of each label's `embedding` (graphmem/cypher/schema.cypher)
VECTOR_INDEXES = (
    "memory_embedding",
    "episode_embedding",
    "sentence_embedding",
    "subject_embedding",
    "topic_embedding",
    "object_embedding",
)
BATCH = 256  # nodes embedded and written per transaction
SWAP_BATCH = 10_000  # vectors moved per transaction during the swap

Progress = Callable[[str, int, int], None]


@dataclass
class ReembedReport:
    model: str
    dimension: int
    previous_model: str | None
    embedded: dict[str, int] = field(default_factory=dict)  # nodes embedded in this run, by label
    swapped: bool = False
    resumed: bool = False
    nothing_to_do: bool = False


def state(store: Store) -> dict:
    rows = store.read("reembed_state_read")
    return rows[0] if rows else {}


def reembed(
    store: Store,
    embedder: Embedder,
    *,
    group_id: str | None = None,
    batch: int = BATCH,
    progress: Progress | None = None,
) -> ReembedReport:
    """Re-embed the database (or one group, to refresh it with the model it already uses)."""
    meta = state(store)
    model, dimension = embedder.name, int(embedder.dimension)
    previous = meta.get("model")
    if group_id is not None and previous not in (None, model):
        raise ConfigError(
            f"--group re-embeds one group with the model the database already uses "
            f"({previous!r}); moving to {model!r} means every group: run graphmem reembed "
            f"without --group"
        )
    under_way = meta.get("reembed_model")
    if under_way and under_way != model:
        raise ConfigError(
            f"a re-embedding to {under_way!r} is under way in this database; finish it with "
            f"[embedding] model = {under_way!r} (graphmem reembed), then re-embed again"
        )
    report = ReembedReport(model=model, dimension=dimension, previous_model=previous, resumed=bool(under_way))
    if meta.get("reembed_state") != "swapping":
        store.write("reembed_state_write", model=model, dimension=dimension, state="embedding")
        for label in LABELS:
            report.embedded[label] = _embed_label(store, embedder, label, group_id, max(1, batch), progress)
        store.write("reembed_state_write", model=model, dimension=dimension, state="swapping")
    _swap(store, model, dimension, progress)
    report.swapped = True
    report.nothing_to_do = not any(report.embedded.values()) and previous == model and not under_way
    return report


def _embed_label(
    store: Store, embedder: Embedder, label: str, group_id: str | None, batch: int, progress: Progress | None
) -> int:
    counts = store.read("reembed_count", label=label, group_id=group_id, model=embedder.name)[0]
    total, done, embedded = counts["total"], counts["done"], 0
    if progress:
        progress(label, done, total)
    while True:
        rows = store.read("reembed_todo", label=label, group_id=group_id, model=embedder.name, batch=batch)
        if not rows:
            return embedded
        vectors = embed_array(embedder, [r["text"] or "" for r in rows])
        store.write(
            "reembed_store",
            model=embedder.name,
            rows=[{"ref": r["ref"], "embedding": [float(x) for x in v]} for r, v in zip(rows, vectors)],
        )
        embedded += len(rows)
        done += len(rows)
        if progress:
            progress(label, min(done, max(total, done)), max(total, done))


def _swap(store: Store, model: str, dimension: int, progress: Progress | None) -> None:
    for name in VECTOR_INDEXES:
        store.run_text(f"DROP INDEX {name} IF EXISTS", write=True)  # names from the constant above
    for label in LABELS:
        moved = 0
        while True:
            n = store.write("reembed_swap_batch", label=label, model=model, batch=SWAP_BATCH)[0]["moved"]
            moved += n
            if progress:
                progress(f"swap {label}", moved, moved)
            if not n:
                break
    store.write("meta_write", schema_version=SCHEMA_VERSION, model=model, dimension=dimension)
    install_schema(store, model, dimension)  # the vector indexes again, for the new dimension
    store.write("reembed_state_clear")
