"""Chinese: how a thing or a place is named — the noun phrase an object opens with (一辆新自行车 → 新自行车),
a list of things kept whole (猫和狗), a maker's thing named one way (松下的空气净化器, 美的那款电饭煲 → 松下空气净化器,
美的电饭煲) — so that a liking, a possession and a review of one thing meet at one node. jieba's words and tags
(``zh_subjects.tag``) say where a phrase ends and what is a name."""

from __future__ import annotations

import re

from ..lexicon.roles import role_of
from .phrases import clean
from .zh_subjects import _calling, tag

# "one of" before a thing: 一辆, 一个, 一只 …
ONE = re.compile(r"^一(?:个|辆|只|台|套|家|所|位|条|本|部|件|份|架|把|间|栋|幢|匹|头|盆|张)")

# what may follow a noun phrase that is no part of it: a particle, a verb of going, living or working
_TRAIL = re.compile(r"(?:了|啦|呀|啊|呢|吧|哦|哈|去|来|住|上班|工作|读书|上学)+$")

# tags that may stand in a noun phrase: nouns, adjectives, distinguishers, Latin words, numbers, measures …
_NOUNISH = ("n", "a", "b", "j", "eng", "x", "vn", "s", "f", "l", "m", "q", "k", "h")

_MORPHEME = ("g", "zg")  # a bound character the tagger could not place (灵缇犬 → 灵|缇|犬): part of the noun


def noun_head(text: str) -> str | None:
    """The noun phrase a text opens with, up to the first verb, preposition or particle; a leading
    "one of" (一辆, 一个) dropped: 上海了 → 上海, 星巴克见了小雯 → 星巴克, 一辆新自行车 → 新自行车."""
    words = tag(ONE.sub("", text.strip(" ，,。！？!?")))
    out: list[str] = []
    for i, (word, t) in enumerate(words):
        noun = t.startswith(_NOUNISH) and not (t == "x" and not word.isascii())
        of = word == "的" and bool(out) and i + 1 < len(words)  # 的 between two words of the phrase
        named = t.startswith("v") and not out  # 字节跳动, 攀岩: a verb-looking name said as an object
        if not (noun or (t in _MORPHEME and len(word) == 1) or of or named):
            break
        out.append(word)
    head = "".join(out).rstrip("的")
    head = _TRAIL.sub("", head) if len(head) > 1 else head
    return head or None


def object_of(text: str) -> str | None:
    """An object: the clause's rest cleaned, cut to its noun phrase when a verb follows it."""
    rest = clean(ONE.sub("", text), True, 40)
    if not rest:
        return None
    head = noun_head(rest)
    return head if head and len(head) < len(rest) else _TRAIL.sub("", rest) or rest


# "this one", "that one" (这个, 那家), ``one`` the measure word of a made thing: 款 a model, 台 a machine, 部 a phone …
THIS_ONE = "(?:这|那)(?:个|家|(?P<one>款|台|双|部|辆))"


# the kinds of place a name ends in (荔枝公园, 万象城, 胸科医院): a place named, though no word of it is a name
PLACE_KINDS = "公园|广场|商场|城|医院|小区|花园|家园|大厦|中心|超市|市场|景区|博物馆|图书馆|体育馆|酒店|餐厅|饭店"


def that_one(said: str) -> str | None:
    """The thing "that one of a maker" names (as a review names it), or None: LG的那个双门冰箱(的) and LG这款双门冰箱
    → LG双门冰箱, 美的那款电饭煲 → 美的电饭煲 (美的 a maker's name, its 的 no possessive); a model or a place named,
    then its kind: 华为Mate60这款手机 → 华为Mate60, 绿洲家园这个地方 → 绿洲家园."""
    m = re.match(rf"^(?P<brand>[^的，,]{{1,12}}?)(?P<of>的)?{THIS_ONE}(?P<thing>[^的，,]{{2,16}}?)的?$", said)
    if m is None:
        return None
    brand, thing = m.group("brand"), m.group("thing")
    if m.group("of") and all(w != "的" for w, _ in tag(said[: m.end("of") + 1])):
        brand += "的"  # 美的那款: the 的 is the maker's name's own
    elif m.group("of"):
        return brand + thing
    maker = m.group("one") in ("款", "台", "部") and not any(c.isdigit() for c in brand)  # a product line
    return brand + thing if maker else brand


# A maker's or a place's thing: its words nouns (a name, a brand, a place, a Latin word or a number),
# no person's name, pronoun or role (小王的狗, 朋友的车 stay whose they are)
_MAKER_TAGS = ("n", "nz", "nt", "ns", "eng", "m")


def thing_name(said: str) -> str:
    """松下的空气净化器 → 松下空气净化器, 北京的烤鸭 → 北京烤鸭: one thing, said with or without 的, named one
    way, so that a liking, a possession and a review of it meet at one node; anything else as said."""
    if "的的" in said:  # 美的的电饭煲: a maker whose name ends in 的, then its thing
        maker, _, thing = said.partition("的的")
        return maker + "的" + thing if maker and thing and "的" not in thing else said
    maker, of, thing = said.partition("的")
    if not of or "的" in thing or len(maker) < 2 or role_of(maker) is not None:
        return said
    left, right = tag(maker), tag(thing)
    # the thing's words nouns, or words that modify the last (奇焕润发精油, 降噪耳机)
    if not right or right[-1][1] not in _MAKER_TAGS or not all(t in (*_MAKER_TAGS, "v", "vn", "b") for _, t in right):
        return said
    # a maker the tagger takes for a person's name (欧莱雅, 亚瑟士) makes one thing with a model's name
    model = any(t in ("eng", "m") for _, t in right)
    return maker + thing if all(t in _MAKER_TAGS or (model and t.startswith("nr")) for _, t in left) else said


def things(rest: str) -> str | None:
    """The things a possession names: one noun phrase, or a list of them kept whole (一只猫和一只狗
    → 猫和狗), as an English "a cat and a dog" is; the last may be followed by what is done with it."""
    parts = re.split(r"(和|、|以及|还有)", rest)  # the joints of a list of things: 一只猫和一只狗
    if len(parts) > 1:
        said = [ONE.sub("", p.strip(" ，,。！？!?")) for p in parts[::2]]
        heads = [noun_head(p) for p in parts[::2]]
        people = any(tag(str(h))[0][1].startswith("nr") for h in heads[1:] if h)  # 买了本书和小雯一起看
        if all(heads) and heads[:-1] == said[:-1] and not people:  # every item but the last a whole noun phrase
            return str(heads[0]) + "".join(j + str(h) for j, h in zip(parts[1::2], heads[1:], strict=True))
    return object_of(rest)


def is_maker(said: str) -> bool:
    """Whether words name a maker or a model (西门子, LG, 斯凯奇GoWalk5系列), not anyone (我妈, 小王, 李老师) or what a
    thing is like (专门给老人)."""
    if role_of(said) is not None or _calling(said):  # 洗衣机是小王的: whose it is, not who made it
        return False
    return all(t.startswith("n") or t in ("eng", "m", "q") for _, t in tag(said))
