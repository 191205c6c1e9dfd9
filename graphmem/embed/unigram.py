"""A unigram (SentencePiece) vocabulary read as a Python table, for short texts.

The ``tokenizers`` library reads e5's vocabulary (its JSON file: 128,000 pieces) in about a
quarter of a second and holds the interpreter while it does; a new process that embeds one query
(a CLI search) or one memory would spend much of its start there. This table reads the same
pieces from two plain files in a fraction of that and segments a text exactly as the library's
Unigram model does: the most probable segmentation (Viterbi over the pieces' log-probabilities,
a tie kept by the path found first), a character no piece covers read as the unknown piece at
the lowest score minus ``UNKNOWN_PENALTY``, a run of unknown characters fused into one; before
that, the Metaspace step (prepend "always", no split) turns spaces into the word-boundary marker
and puts one in front. It is pure Python, slower per character than the library, so long
batches still go to the library; the tests hold the two to the same ids.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from .cachefiles import written_atomically

UNKNOWN_PENALTY = 10.0  # an unknown character scores this much below the least probable piece (as tokenizers)
MARKER = "\u2581"  # SentencePiece's word-boundary marker
TABLE_VERSION = 1  # bump when the files' layout changes


class PieceTable:
    """``encode(text)``: the piece ids of a text, as ``tokenizers``' Unigram model gives them."""

    def __init__(self, pieces: list[str], scores: list[float], unk: int):
        self._ids = dict(zip(pieces, range(len(pieces))))  # a repeated piece: the last id, as the library
        self._scores = scores
        self._unk = unk
        self._longest = max(map(len, pieces))
        self._unknown_score = min(scores) - UNKNOWN_PENALTY

    @classmethod
    def cached(cls, tokenizer_json: Path) -> PieceTable:
        """The table of a unigram ``tokenizer.json``, written beside it on first use."""
        stem = tokenizer_json.with_suffix("")
        text, numbers = Path(f"{stem}.pieces-v{TABLE_VERSION}.txt"), Path(f"{stem}.pieces-v{TABLE_VERSION}.npy")
        if not (text.exists() and numbers.exists()):
            model = json.loads(tokenizer_json.read_text(encoding="utf-8"))["model"]
            pieces = [p for p, _ in model["vocab"]]
            if any("\0" in p for p in pieces):
                return cls(pieces, [float(s) for _, s in model["vocab"]], int(model["unk_id"]))
            row = np.array([float(s) for _, s in model["vocab"]] + [float(model["unk_id"])], np.float64)
            with written_atomically(numbers) as tmp, open(tmp, "wb") as out:
                np.save(out, row)
            with written_atomically(text) as tmp:
                tmp.write_text("\0".join(pieces), encoding="utf-8")
        numbers_row = np.load(numbers).tolist()
        return cls(text.read_text(encoding="utf-8").split("\0"), numbers_row[:-1], int(numbers_row[-1]))

    def encode(self, text: str) -> list[int]:
        if not text:
            return []
        s = text.replace(" ", MARKER)
        if not s.startswith(MARKER):
            s = MARKER + s
        n, ids, scores = len(s), self._ids, self._scores
        best, start, piece = [0.0] * (n + 1), [-1] * (n + 1), [0] * (n + 1)
        for i in range(n):  # the best path to each end, from every start in order
            base, covered = best[i], False
            for length in range(1, min(self._longest, n - i) + 1):
                found = ids.get(s[i : i + length])
                if found is None:
                    continue
                end, score = i + length, scores[found] + base
                if start[end] < 0 or score > best[end]:
                    best[end], start[end], piece[end] = score, i, found
                covered = covered or length == 1
            if not covered:
                score = self._unknown_score + base
                if start[i + 1] < 0 or score > best[i + 1]:
                    best[i + 1], start[i + 1], piece[i + 1] = score, i, self._unk
        return self._back(s, start, piece)

    def _back(self, s: str, start: list[int], piece: list[int]) -> list[int]:
        """The best path read back from the end; unknown characters side by side become one piece."""
        out: list[str] = []
        end, unknown_end = len(s), None
        while end > 0:
            begin = start[end]
            if piece[end] == self._unk:
                unknown_end = end if unknown_end is None else unknown_end
            else:
                if unknown_end is not None:
                    out.append(s[end:unknown_end])
                    unknown_end = None
                out.append(s[begin:end])
            end = begin
        if unknown_end is not None:
            out.append(s[:unknown_end])
        return [self._ids.get(p, self._unk) for p in reversed(out)]
