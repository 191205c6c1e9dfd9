"""A BERT encoder's weights, tiny and random, named as in a BertModel state dict: what the tests
write ONNX graphs from (tests/test_embed.py, tests/test_rerank.py)."""

from __future__ import annotations

import numpy as np


def random_bert(rng, hidden=32, layers=2, ffn=64, vocab=60, positions=16, scale=0.3) -> dict[str, np.ndarray]:
    shapes = {
        "embeddings.word_embeddings.weight": (vocab, hidden),
        "embeddings.position_embeddings.weight": (positions, hidden),
        "embeddings.token_type_embeddings.weight": (2, hidden),
        "embeddings.LayerNorm.weight": (hidden,),
        "embeddings.LayerNorm.bias": (hidden,),
    }
    for i in range(layers):
        p = f"encoder.layer.{i}."
        for name, out, inp in (
            ("attention.self.query", hidden, hidden),
            ("attention.self.key", hidden, hidden),
            ("attention.self.value", hidden, hidden),
            ("attention.output.dense", hidden, hidden),
            ("intermediate.dense", ffn, hidden),
            ("output.dense", hidden, ffn),
        ):
            shapes[p + name + ".weight"], shapes[p + name + ".bias"] = (out, inp), (out,)
        for name in ("attention.output.LayerNorm", "output.LayerNorm"):
            shapes[p + name + ".weight"], shapes[p + name + ".bias"] = (hidden,), (hidden,)
    return {k: rng.normal(0, scale, v).astype(np.float32) for k, v in shapes.items()}
