"""8-bit weights for a search's query: the same models in less time.

onnxruntime's dynamic quantisation stores a model's matrix weights as 8-bit integers, one scale
per output channel, and quantises each run's activations on the fly; matrix products then run
on integer instructions. A search's query, one text, is embedded in about two thirds of the time
(``docs/benchmarks.md``, "8-bit weights for the query").

Only queries run on the 8-bit copies; what is stored is embedded by the float models, as before.
The activations of a run share one scale, so a text run beside others gets a vector that depends
on them (down to cosine 0.98 with itself alone): a quantised text must run alone, and alone it
gains nothing in a batch (short texts one at a time lose more to the smaller matrix products
than 8 bits save: 1,000 memories' texts at 160–196/s against 220/s in float). A query runs alone
anyway. Stored vectors therefore stay exactly what they were, whatever the precision.

One kind of product stays in float32: the feed-forward block's second matrix
(``…/output/dense/MatMul``), whose input comes out of GELU with a long tail that one 8-bit
scale per run cuts badly. With it quantised too, vectors drifted to a cosine of 0.97 with the
float model's; without it, over 430 test texts (tests/test_embed.py) the median is 0.995, 98 %
stay above 0.99 and every one above 0.98 (the least agreeing are near-empty texts, "", "I",
"我", and short Chinese memories asked as queries: what is left of them after e5's common
direction is taken out is small beside the rounding). Every quantised file is checked against
its float model on probe texts when it is made, and is not used unless every probe agrees to
``MIN_COSINE``.

The quantised copy sits beside the float export in ``~/.cache/graphmem/models/``, made once
(seconds) and written atomically; its name carries onnxruntime's version, which decides the ONNX
format it writes (a copy made by a newer onnxruntime may not load in an older one). A copy that
strayed is not made again at every start: a ``.refused`` file beside it names the CPU it strayed
on (the integer kernels differ between CPUs), and a process on that CPU goes straight to float32.
It is used with ``[embedding] precision = "int8"``; the default, "float32", keeps queries on the
float models: the quality benchmarks then print the tables they printed before, where with 8 bits
they move by about a question either way.
"""

from __future__ import annotations

import logging
import os
import re
import threading
from collections.abc import Callable
from pathlib import Path

import numpy as np

from .cachefiles import written_atomically

log = logging.getLogger(__name__)

QUANT_VERSION = 3  # bump when the 8-bit copies or how they run change (bench caches key on it)
MIN_COSINE = 0.98  # a quantised model's vectors against its float model's, any text
_KEEP_FLOAT = re.compile(r"(?<!/attention)/output/dense/MatMul$")  # the feed-forward block's second product
PRECISIONS = ("int8", "float32")

Encode = Callable[[Path], np.ndarray]  # a model file -> the vectors of the probe texts


def _cpu() -> str:
    """This machine's CPU model as /proc/cpuinfo names it (or the platform's processor name)."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as fh:
            for line in fh:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    import platform

    return platform.processor() or platform.machine()


def int8_model(float_path: Path, encode: Encode) -> Path:
    """The 8-bit copy of ``float_path``, made on first use; ``float_path`` itself when
    quantisation is unavailable or its vectors stray from the float model's (logged)."""
    try:
        import onnxruntime

        runtime = onnxruntime.__version__
    except ImportError as exc:
        log.warning("8-bit weights need onnxruntime (%s): using float32", exc)
        return float_path
    target = float_path.with_name(f"{float_path.stem}.int8-v{QUANT_VERSION}-ort{runtime}.onnx")
    refused = target.with_suffix(".refused")
    if target.exists():
        return target
    for stale in float_path.parent.glob(f"{float_path.stem}.int8-*"):
        if not stale.name.startswith(target.stem):  # another version's copy (and its weights): never read again
            stale.unlink(missing_ok=True)
    if refused.exists() and refused.read_text(encoding="utf-8").strip() == _cpu():
        log.warning("8-bit weights of %s strayed from the float model on this CPU before: using float32", float_path)
        return float_path
    tmp = target.with_name(f".{target.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    try:
        import onnx
        from onnxruntime.quantization import QuantType, quantize_dynamic

        nodes = [
            n.name
            for n in onnx.load(str(float_path), load_external_data=False).graph.node
            if n.op_type == "MatMul" and _KEEP_FLOAT.search(n.name)
        ]
        with _quiet():
            quantize_dynamic(
                str(float_path), str(tmp), weight_type=QuantType.QInt8, per_channel=True, nodes_to_exclude=nodes
            )
        want, got = encode(float_path), encode(tmp)
        cosine = float((want * got).sum(axis=1).min())
        if cosine < MIN_COSINE:
            log.warning(
                "8-bit weights of %s stray from the float model (cosine %.4f < %.2f): using float32",
                float_path,
                cosine,
                MIN_COSINE,
            )
            _write_atomic(refused, _cpu() + "\n")
            return float_path
        os.replace(tmp, target)  # atomic: a concurrent process sees the whole file or none
        return target
    except ImportError as exc:
        log.warning("8-bit weights need onnx and onnxruntime.quantization (%s): using float32", exc)
        return float_path
    finally:
        tmp.unlink(missing_ok=True)


def _write_atomic(path: Path, text: str) -> None:
    try:
        with written_atomically(path) as tmp:
            tmp.write_text(text, encoding="utf-8")
    except OSError as exc:  # a read-only cache: the check runs again next time, nothing else lost
        log.debug("could not record the refusal in %s: %s", path, exc)


class _quiet:
    """onnxruntime's quantiser advises pre-processing on the root logger at every call: not for users."""

    def __enter__(self) -> None:
        self._filter = lambda record: "pre-processing before quantization" not in record.getMessage()
        logging.getLogger().addFilter(self._filter)

    def __exit__(self, *exc: object) -> None:
        logging.getLogger().removeFilter(self._filter)


# what a quantised model is checked on: both languages, short and long, a mixed text
PROBES = [
    "昨晚我失眠了，所以今天很困。",
    "我的朋友小明是医生，他建议我早点睡。",
    "I couldn't sleep last night, so I'm tired today.",
    "We went hiking in the Alps last weekend and the view was stunning.",
    "我喜欢 basketball 和 咖啡",
    "a",
    "Bob dislike cilantro (time: today)",  # a memory's text: subject, topic, object and an attribute
    "我 睡眠 不好 (时间: 2025-11-04 夜间)",
    "Priya: That's great news, Tom! Well done on the new job. On Sunday we took the twins to the aquarium - "
    "they pressed their noses to the glass for an hour and talked about sharks all the way home.",
    "同事老王下个月要调去上海分公司。" * 6,
]


def check_precision(precision: str) -> str:
    from ..errors import ConfigError

    if precision not in PRECISIONS:
        raise ConfigError(f"embedding precision {precision!r}: use one of {', '.join(PRECISIONS)}")
    return precision
