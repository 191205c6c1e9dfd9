"""The public functions: normalize_time, find_time_range, is_rolling_window, is_time_key."""

from __future__ import annotations

import logging
import re
import unicodedata
from collections.abc import Iterable, Sequence
from datetime import datetime

# the patterns register themselves on import, in this order (it breaks ties between equally long matches)
from . import zh, numeric, en  # noqa: F401,E402  isort: skip
from .fallback import _dateparser_fallback
from .lexer import _C, STRONG, _norm_text, _tokens
from .resolve import _Res, _resolve, _to_value
from .values import TimeValue, _reference, _unparsed

log = logging.getLogger(__name__)


def _langs(languages: Iterable[str]) -> tuple[str, ...]:
    out = []
    for lang in languages:
        code = str(lang).lower()
        base = code.split("-")[0].split("_")[0]
        if base in ("zh", "en") and base not in out:
            out.append(base)
    return tuple(out)


def _parse(text: str, ref: datetime, languages: tuple[str, ...]) -> _Res | None:
    """Rules first; dateparser only when the rules cannot read the whole text."""
    norm = _norm_text(text)
    if not norm.strip():
        return None
    rule_langs = _langs(languages)
    comps: list[_C] = []
    complete = True
    for tok in _tokens(norm, rule_langs, stop_on_junk=True):
        if tok.kind == "comp":
            assert tok.comps is not None
            comps.extend(tok.comps)
        elif tok.kind in ("junk", "conn", "break"):
            complete = False
            break
    if complete and comps:
        return _resolve(comps, ref)  # the rules read it all: their answer (or none) stands
    if complete:
        return None  # only fillers / punctuation
    try:
        return _dateparser_fallback(text, norm, ref, tuple(languages))
    except (ValueError, OverflowError):  # e.g. a period running past year 9999
        return None


def normalize_time(
    text: str, reference_time: datetime | None = None, *, languages: Sequence[str] = ("zh", "en")
) -> TimeValue:
    """Normalise a time expression against ``reference_time`` (see the module docstring).

    Never raises on any string: what cannot be read comes back with ``parsed=False`` and
    the original text kept verbatim.
    """
    if not isinstance(text, str):
        text = "" if text is None else str(text)
    try:
        ref = _reference(reference_time)
        res = _parse(text, ref, tuple(languages))
    except Exception:  # a safety net: a time attribute must never break a write
        log.warning("time normalisation failed for %r", text, exc_info=True)
        return _unparsed(text)
    return _to_value(text, res) if res is not None else _unparsed(text)


def _scan(query: str, ref: datetime, langs: tuple[str, ...]) -> list[tuple[_Res, int, int, bool]]:
    """All time expressions in ``query``: (result, start, end, joined_to_previous_by_a_range_word)."""
    norm = _norm_text(query)
    groups: list[tuple[list[_C], int, int, bool]] = []
    cur: list[_C] = []
    cur_start = cur_end = 0
    pending_conn = False  # a connective seen since the last group closed
    conn_ok = False  # the gap since the last group holds only connective/fillers
    gap_clean = True

    def close():
        nonlocal cur, pending_conn, gap_clean
        if cur:
            groups.append((cur, cur_start, cur_end, conn_ok))
            cur = []
            pending_conn = False
            gap_clean = True

    for tok in _tokens(norm, langs, stop_on_junk=False):
        if tok.kind == "comp":
            assert tok.comps is not None
            if not cur:
                cur_start = tok.start
                conn_ok = bool(groups) and pending_conn and gap_clean
            cur.extend(tok.comps)
            cur_end = tok.end
        elif tok.kind in ("filler", "sep"):
            continue
        elif tok.kind == "conn":
            close()
            pending_conn = True
        else:  # junk or break
            close()
            gap_clean = False
            pending_conn = False
    close()

    # "between May 1 and May 5, 2023" / "5月1日到5月5日": the later year applies to the earlier part
    for k in range(len(groups) - 1, 0, -1):
        later, earlier = groups[k], groups[k - 1]
        if not later[3]:
            continue
        kinds_e = {c.kind for c in earlier[0]}
        year_l = [c for c in later[0] if c.kind in ("year", "year_rel")]
        if year_l and "month" in kinds_e and not kinds_e & {"year", "year_rel", "ym", "date"}:
            groups[k - 1] = (earlier[0] + year_l[:1], earlier[1], earlier[2], earlier[3])

    found: list[tuple[_Res, int, int, bool]] = []
    prev_ok = False
    for comps, start, end, joined in groups:
        res = None
        if any(c.strength == STRONG for c in comps):
            res = _resolve(comps, ref)
            if res is None:  # conflicting parts: fall back to the longest prefix that resolves
                for k in range(len(comps) - 1, 0, -1):
                    if any(c.strength == STRONG for c in comps[:k]):
                        res = _resolve(comps[:k], ref)
                        if res is not None:
                            break
        if res is not None:
            found.append((res, start, end, joined and prev_ok))
        prev_ok = res is not None
    return found


def find_time_range(query: str, reference_time: datetime | None = None) -> tuple[datetime, datetime, str] | None:
    """The period named by the first time expression in a search query, or None.

    Returns ``(start, end, matched_text)`` with tz-aware datetimes (end exclusive) and the
    matched part of ``query``; expressions joined by a range word are merged.
    """
    if not isinstance(query, str) or not query.strip():
        return None
    try:
        ref = _reference(reference_time)
        found = _scan(query, ref, ("zh", "en"))
    except Exception:
        log.warning("time range detection failed for %r", query, exc_info=True)
        return None
    if not found:
        return None
    res, start_i, end_i, _ = found[0]
    lo, hi = res.start, res.end
    for nxt, _s, e, joined in found[1:]:
        if not joined:
            break
        lo, hi = min(lo, nxt.start), max(hi, nxt.end)
        end_i = e
    return lo, hi, query[start_i:end_i]


def is_rolling_window(expression: str) -> bool:
    """True when ``expression`` holds a rolling window ending now: 过去三天, 最近几个月, 近一周,
    "the past few months", "in the last 3 days". False for a period with a name of its own
    (昨天, 上个月, 去年夏天, "last month", "last weekend", "in June") and for anything else.

    A window's words say how far back to look and nothing about what happened: a turn that says
    "in the past six months" shares them with a question about "the past few months" whatever
    either is about. A named period is often how the thing itself is named ("my plans for the
    summer", "camping in June")."""
    if not isinstance(expression, str) or not expression.strip():
        return False
    return any(
        tok.kind == "comp" and any(c.kind == "window" for c in tok.comps or ())
        for tok in _tokens(_norm_text(expression), ("zh", "en"), stop_on_junk=False)
    )


_TIME_KEYS_ZH = ("时间", "日期", "时候", "时刻")
_TIME_KEYS_EN = {"time", "date", "when", "datetime", "date_time", "timestamp"}


def is_time_key(key: str) -> bool:
    """True for attribute keys holding a time: 时间/日期/时候/时刻 (also as a suffix, e.g.
    发生时间), time/date/when/datetime/timestamp in any case (also as a suffix, e.g. start_time)."""
    if not isinstance(key, str):
        return False
    k = _norm_text(key).strip()
    if not k:
        return False
    if any(k == z or k.endswith(z) for z in _TIME_KEYS_ZH):
        return True
    k = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", unicodedata.normalize("NFKC", key).strip()).lower()
    k = re.sub(r"[\s\-.]+", "_", k)
    if k in _TIME_KEYS_EN:
        return True
    return any(k.endswith("_" + t) for t in ("time", "date", "datetime", "timestamp"))
