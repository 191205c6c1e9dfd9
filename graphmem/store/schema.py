"""Install the schema (constraints, vector and fulltext indexes, the meta node), idempotently."""

from __future__ import annotations

from dataclasses import dataclass, field

from neo4j.exceptions import ClientError

from ..errors import SchemaMismatchError
from .cypher import queries
from .driver import Store
from .migrate import migrate

# 2: the English fulltext index over episodes (episode_content_english)
# 4: the uniqueness of idempotency keys (write_request_key)
# 6: the newest memory of a group (memory_created), for the retriever's copy of its vectors
# 7: the newest turn of a group (episode_created), for the retriever's copy of its turn vectors
# 8: one consolidation lock node per group (consolidation_lock_group)
# 9: one node per name (the :Concept label and its constraints; store/migrate.py folds a name's
#    nodes of several roles into one), memories' valid_from / valid_until
# 10: one episode per part of a bulk ingest (episode_part_key)
SCHEMA_VERSION = 10


@dataclass
class SchemaReport:
    created: list[str] = field(default_factory=list)
    existing: list[str] = field(default_factory=list)
    model: str = ""
    dimension: int = 0
    migrated: dict[str, int] = field(default_factory=dict)  # what each migration step changed

    @property
    def changed(self) -> bool:
        return bool(self.created or self.migrated)


def check_compatible(store: Store, model: str, dimension: int) -> dict | None:
    """Refuse a database built for another embedding model or dimension; return its meta."""
    meta_rows = store.read("meta_read")
    meta = meta_rows[0] if meta_rows else None
    dims = {r["name"]: r["dimension"] for r in store.read("vector_index_dimensions")}
    other_dim = next((d for n, d in dims.items() if n.endswith("_embedding") and d and int(d) != dimension), None)
    if other_dim is None and meta and meta.get("dimension") not in (None, dimension):
        other_dim = meta["dimension"]
    other_model = meta.get("model") if meta else None
    if other_dim is not None or (other_model and other_model != model):
        raise SchemaMismatchError(
            f"this database was initialised for embedding model {other_model or 'unknown'!r} "
            f"(dimension {other_dim or (meta or {}).get('dimension')}) but the configured model is {model!r} "
            f"(dimension {dimension}). Set [embedding] model back to {other_model or 'the original model'!r}, "
            f"or move the database to {model!r} with `graphmem reembed` (it keeps searches on the old "
            f"vectors until it is done)"
        )
    return meta


def is_current(meta: dict | None) -> bool:
    """True when the database's meta node says the schema of this version is installed."""
    return meta is not None and (meta.get("schema_version") or 0) >= SCHEMA_VERSION


_MADE_BY_ANOTHER = (
    "Neo.ClientError.Schema.EquivalentSchemaRuleAlreadyExists",
    "Neo.ClientError.Schema.IndexAlreadyExists",
    "Neo.ClientError.Schema.ConstraintAlreadyExists",
)


def install_schema(store: Store, model: str, dimension: int) -> SchemaReport:
    """Create what is missing; running it twice changes nothing."""
    check_compatible(store, model, dimension)
    before = {r["name"] for r in store.read("schema_objects")}
    report = SchemaReport(model=model, dimension=dimension)
    for name, query in queries().items():
        if name.startswith("schema_") and name != "schema_objects":
            try:
                store.run_text(query, write=True, dimension=dimension)
            except ClientError as err:
                # IF NOT EXISTS is checked before the index is made: another process starting on the same
                # database at the same moment made it first, which is what this statement wanted
                if err.code not in _MADE_BY_ANOTHER:
                    raise
    after = {r["name"] for r in store.read("schema_objects")}
    report.created = sorted(after - before)
    report.existing = sorted(after & before)
    meta = store.read("meta_read")
    # the data of an older schema moves before the new version is written: a migration that
    # stops half-way runs again next time
    report.migrated = migrate(store, meta[0]["schema_version"] if meta else None)
    report.created += [f"migrated: {step} {n}" for step, n in report.migrated.items()]
    if not meta or meta[0] != {"schema_version": SCHEMA_VERSION, "model": model, "dimension": dimension}:
        store.write("meta_write", schema_version=SCHEMA_VERSION, model=model, dimension=dimension)
        report.created.append("meta")
    store.run("wait_for_indexes")
    return report
