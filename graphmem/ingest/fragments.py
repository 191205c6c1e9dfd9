"""The quality gate of extraction: a memory that is a fragment of its turn is not written.

An extractor that misreads a phrasing it does not know cuts the turn at the wrong place: a function
word becomes the subject, a pronoun it did not resolve stands for a person, a particle or half a word
becomes the object, a 的 or 在 is left hanging at an edge ("我妈妈 | 的生日是在"). Such a memory says less
than its turn and, being short, can be closer to a question than the turn it was cut from. ``fragment``
names what is wrong with one (None: it may be written); ``schema.to_plan`` leaves such memories (and
the links naming them) out, for the rules and an LLM alike: a turn nothing is written from is found by
itself. The words are data, both languages in each list: Chinese as written, English lower-cased.
"""

from __future__ import annotations

import re
from typing import Any

from ..lexicon.roles import ATTRIBUTE_WORDS as OWNERLESS

# Never a subject by themselves: pronouns not resolved to a person, demonstratives, adverbs and
# connectives that open a clause ("尤其是…", "特别是…", "到处都是…", "especially …").
NOT_A_SUBJECT = frozenset(
    (
        # zh pronouns and demonstratives
        "他 她 它 他们 她们 它们 其 这 那 这个 那个 这些 那些 这里 那里 这儿 那儿 谁 某人 大家 咱们 "
        # zh adverbs and connectives that open a clause
        "尤其 特别 到处 就是 而且 但是 不过 可是 还有 然后 所以 因为 其实 反正 总之 比如 例如 主要 只是 真的 "
        "确实 当然 另外 就 也 都 还 又 再 才 很 最 更 "
        # en
        "he she it they him her them this that these those who whom which what there here someone somebody one "
        "especially also too so then but and or because actually really just"
    ).split()
)

# A subject that begins so is a pronoun's thing the extractor did not resolve ("其年龄", "其家乡"),
# an adverb the cut left in front ("就只 有高中学历" of 我的上司就只有高中学历, "都没有获奖 是 …"), or a
# preposition whose doer was cut off ("与老师 进行有效沟通").
NOT_A_SUBJECT_START = tuple("其 就 只 与 跟 把 都没 都不 都是 都很 都在 都有 我觉得 我认为 我感觉".split())

# Never a topic, an object or a value by themselves: particles, pronouns, demonstratives,
# conjunctions, measure words, articles.
PARTICLES = frozenset(
    (
        "的 了 呢 吗 吧 啊 嘛 呀 哦 哈 啦 着 过 个 些 这 那 其 他 她 它 你 么 及 或 而 但 和 与 这个 那个 这样 "
        "那样 什么 怎么 一下 一些 "
        "a an the and or but it that this these those there here he she they him her them my your his their our "
        "its as if than"
    ).split()
)

# Never an object or a value by themselves (a topic may be one: 将 of 小雯 将 结婚, 在, 比): words
# that need a word after them, adverbs, and halves of words a wrong cut leaves (字 of 名字, 念 of 念书).
FUNCTION_WORDS = PARTICLES | frozenset(
    (
        "在 是 跟 同 把 被 就 也 都 还 又 很 太 地 得 才 再 更 最 挺 将 到 从 对 给 向 往 为 以 于 让 比 有点 尤其 "
        "特别 字 念 "
        "of to in on at for with from by so too also then very just really some any"
    ).split()
)

# A topic or an object that begins with 的 has lost the words before it ("的生日是在", "的那个小区叫绿洲家园"; 地 and
# 得 begin words too: 地铁, 得奖); one that opens a clause of its own is the next clause, not the thing ("我 是
# 如果透气性再好点", "我 | 就是有时候高峰期": the remark after a review, kept whole).
CUT_START = ("的", "如果", "要是", "假如", "虽然", "但是", "不过", "可是", "而且", "就是")

# An object that ends with 在 has lost the place after it ("我 去 公园在"), unless 在 ends a word.
WORDS_ENDING_SO = ("现在", "实在", "自在", "存在", "所在", "正在", "好在", "在在")
DANGLING_END_EN = frozenset("a an the of to and or with for at from by my your their".split())

_LATIN_WORDS = re.compile(r"[a-z']+")


def fragment(memory: Any) -> str | None:
    """Why ``memory`` (subject, topic, object, attributes: a ``MemoryInput`` or the like) is a
    fragment of its turn and not to be written; None when it is not."""
    subject = (memory.subject or "").strip()
    if _whole(subject, NOT_A_SUBJECT) or _whole(subject, OWNERLESS):
        return f"subject {subject!r} stands for no one"
    if subject.startswith(NOT_A_SUBJECT_START):
        return f"subject {subject!r} is an unresolved pronoun's, begins with an adverb or says what someone thinks"
    if len(subject) <= 2 and subject.endswith("的") and not subject.isascii():
        return f"subject {subject!r} is a verb made a noun, whose doer was cut off"  # 干的 of 我的上司干的是记者
    topic = (memory.topic or "").strip()
    if _whole(topic, PARTICLES) or topic.startswith(CUT_START):
        return f"topic {topic!r} is cut from its words"
    obj = (memory.object or "").strip()
    if memory.object is not None and (not obj or _lone(obj) or obj.startswith(CUT_START) or _dangles(obj)):
        return f"object {obj!r} is cut from its words"
    for key, value in (memory.attributes or {}).items():
        if not value.strip() or _lone(value.strip()):
            return f"attribute {key} {value!r} is empty or a function word"
    return None


def _whole(text: str, words: frozenset[str]) -> bool:
    return text in words or text.lower() in words


def _lone(text: str) -> bool:
    """A function word, or one character that is neither a CJK character nor a digit."""
    return _whole(text, FUNCTION_WORDS) or (len(text) == 1 and not (text.isdigit() or "\u3400" <= text <= "\u9fff"))


def _dangles(text: str) -> bool:
    if text.endswith("在") and len(text) > 1 and not text.endswith(WORDS_ENDING_SO):
        return True
    words = _LATIN_WORDS.findall(text.lower())
    return len(words) > 1 and text.rstrip()[-1:].isalpha() and words[-1] in DANGLING_END_EN
