"""What graphmem knows about the languages it reads, written once for the write and read paths:
which characters are Chinese (and CJK), and which words name the user and the agent.

Character classes are ranges for a regex ``[...]``:
- ``HAN_CHARS``: Chinese characters (CJK Unified Ideographs, Extension A, Compatibility). A text
  with one of them is read as Chinese (rule extraction, time display, lexical overlap, the
  Chinese share of a query);
- ``CJK_CHARS``: Han plus Japanese kana and Korean Hangul, the characters Neo4j's ``cjk``
  analyzer splits into bigrams (fulltext queries, text length estimates);
- ``CJK_PUNCTUATION``: CJK symbols and punctuation, full-width forms (token estimates).

The user and the agent: 我/I/用户/user is the user, 你/you/助手/assistant the agent,
whatever the language; each is one Subject node per group (``USER_KEY`` / ``AGENT_KEY``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import timedelta

from .types import normalize_name

HAN_CHARS = "\u3400-\u9fff\uf900-\ufaff"
KANA_CHARS = "\u3040-\u30ff"
HANGUL_CHARS = "\uac00-\ud7af"
CJK_CHARS = HAN_CHARS + KANA_CHARS + HANGUL_CHARS
CJK_PUNCTUATION = "\u3000-\u303f\uff00-\uffef"

HAN = re.compile(f"[{HAN_CHARS}]")
CJK = re.compile(f"[{CJK_CHARS}]")

# Names (normalised: casefold, NFKC, single spaces) that mean the user or the agent as a subject
# or a speaker. Message roles (user/human, assistant/ai/bot ...) are in ROLE_NAMES.
USER_NAMES = frozenset({"我", "我自己", "本人", "i", "me", "myself", "my", "用户", "user", "the user"})
AGENT_NAMES = frozenset(
    {"你", "你自己", "助手", "ai助手", "ai", "you", "yourself", "assistant", "the assistant", "agent"}
)
USER_KEY, AGENT_KEY = "@user", "@agent"
# The names that mean the user or the agent as an object: the pronouns only (the agent's other
# names, AI, assistant, agent, are also things a user talks about: "I study AI").
OBJECT_USER_NAMES = USER_NAMES & {"我", "我自己", "i", "me", "myself"}
OBJECT_AGENT_NAMES = AGENT_NAMES & {"你", "你自己", "you", "yourself"}

# Message roles as chat APIs and datasets spell them -> the role graphmem stores.
ROLE_NAMES = {
    "user": "user",
    "human": "user",
    "person": "user",
    "assistant": "assistant",
    "ai": "assistant",
    "bot": "assistant",
    "gpt": "assistant",
    "model": "assistant",
    "system": "system",
}


def is_chinese(text: str) -> bool:
    """True when the text holds a Chinese character."""
    return HAN.search(text) is not None


def person_key(name: str) -> str | None:
    """``USER_KEY`` for a name of the user (我, I, 用户 ...), ``AGENT_KEY`` for one of the agent
    (你, you, 助手 ...), else None."""
    key = normalize_name(name)
    if key in USER_NAMES:
        return USER_KEY
    if key in AGENT_NAMES:
        return AGENT_KEY
    return None


def role_name(role: str) -> str:
    """The stored role for a message role: human -> user, ai/bot/model -> assistant; others as given
    (lowercase)."""
    role = role.strip().lower()
    return ROLE_NAMES.get(role, role)


def is_user_speaker(speaker: str | None) -> bool:
    """True when a turn's speaker is the user without a name: none, a user name or a user role."""
    speaker = (speaker or "").strip()
    return not speaker or person_key(speaker) == USER_KEY or role_name(speaker) == "user"


SITTING = timedelta(minutes=10)  # one party's messages this close together are one sitting, each going on from the last


def read_together(turns: Sequence[tuple[str | None, str | None, str | None]]) -> bool:
    """Whether turns (``(speaker, role, ISO timestamp)`` each, in order) are read with each other: a
    dialogue (more than one party: "Yes, last Friday!" answers the question before it), or one
    party's messages said in one sitting (within SITTING of each other: "It's red." after "I got a
    new car"). One person's notes written apart, with nobody answering, are each written to be read
    alone: a note beside another takes nothing of its meaning. The write path's
    ``episodes.with_context`` and the read path's ``rank.turn_similarities`` both ask this. A party
    is its speaker's name, else its role (an unnamed user turn and one said by "我" or "I" are one)."""
    if len({_party(speaker, role) for speaker, role, _ in turns}) > 1:
        return True
    from .timeparse.stamps import parse_time  # here: graphmem.timeparse imports this module

    times = [parse_time(said) for *_, said in turns]
    if any(t is None for t in times):
        return True  # a turn without a time was said with the one before
    return max(times) - min(times) <= SITTING  # type: ignore[type-var,operator]


def _party(speaker: str | None, role: str | None) -> str:
    if speaker and speaker.strip():
        return person_key(speaker) or normalize_name(speaker)
    role = role_name(role or "user")
    return USER_KEY if role == "user" else AGENT_KEY if role == "assistant" else role
