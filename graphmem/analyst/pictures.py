"""Helpers for the notebooks' pictures (matplotlib / networkx): Chinese labels that render, and
the colours the Bloom perspective uses, so a picture and Bloom look alike."""

from __future__ import annotations

import logging
import subprocess

from ..errors import MissingExtraError
from .bloom import LABELS, RELATIONSHIPS

# Fonts with CJK glyphs, in order of preference (Debian: fonts-noto-cjk, fonts-wqy-zenhei).
CJK_FONTS = [
    "Noto Sans CJK SC",
    "Noto Sans CJK JP",
    "WenQuanYi Zen Hei",
    "WenQuanYi Micro Hei",
    "Source Han Sans SC",
    "SimHei",
    "Microsoft YaHei",
    "PingFang SC",
]


def use_cjk_font() -> str | None:
    """Make matplotlib draw Chinese: pick an installed CJK font (registering one fontconfig knows
    of but matplotlib's font cache does not yet). Returns its name, or None (install
    fonts-noto-cjk or fonts-wqy-zenhei: Chinese would then show as empty boxes)."""
    try:
        import matplotlib
        from matplotlib import font_manager
    except ModuleNotFoundError as exc:
        raise MissingExtraError("graphmem's pictures", "notebooks", exc.name) from None

    installed = {f.name for f in font_manager.fontManager.ttflist}
    name = next((f for f in CJK_FONTS if f in installed), None)
    if name is None:
        try:
            out = subprocess.run(
                ["fc-list", ":lang=zh", "file", "family"], capture_output=True, text=True, timeout=10
            ).stdout
        except (OSError, subprocess.TimeoutExpired):
            out = ""
        for line in out.splitlines():
            path = line.split(":", 1)[0].strip()
            if path:
                font_manager.fontManager.addfont(path)
        installed = {f.name for f in font_manager.fontManager.ttflist}
        name = next((f for f in CJK_FONTS if f in installed), None)
    if name is not None:
        # a CJK font packs several weights in one .ttc: matplotlib's weight fallback is not an error
        logging.getLogger("matplotlib.font_manager").setLevel(logging.ERROR)
        matplotlib.rcParams["font.sans-serif"] = [name, "DejaVu Sans"]
        matplotlib.rcParams["font.family"] = "sans-serif"
        matplotlib.rcParams["axes.unicode_minus"] = False
    return name


def label_colour(label: str) -> str:
    return LABELS.get(label, ("", "#CCCCCC", []))[1]


def edge_colour(kind: str) -> str:
    return RELATIONSHIPS.get(kind.split(":")[0], ("#A5ABB6",))[0]
