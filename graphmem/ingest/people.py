"""Who the conversation is about: people named with a role, and whom a role or a pronoun means.

A role alone (我表妹, my piano teacher) means the person the speaker named in that role, in this
conversation or an earlier one (``people_known``); a pronoun (她 / 他, she / he) the person named last
whose gender it fits, never one known to be of the other gender. A pronoun that fits nobody gives no
memory: a wrong subject is worse than none. Roles are stored canonical (老婆 → 妻子, mom → mother).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from ..lang import USER_KEY, person_key
from ..lexicon.roles import (
    ANIMAL,
    IDENTITY_TOPICS,
    NAMED_PATTERN,
    PRONOUN_GENDER,
    TOGETHER,
    possessive,
    role_of,
    title_gender,
)
from ..types import normalize_name
from .phrases import Found, relation

if TYPE_CHECKING:
    from ..store.driver import Store

PEOPLE_KNOWN = 200  # the newest role-named people read from a group (and as many descriptions)
# The "my" / 我 of a person spoken of by role alone: my daughter → daughter, 我儿子 → 儿子; and
# the owner a named speaker's one is written with (Ivy's daughter, 小王的儿子: ``theirs``).
_UNNAMED = re.compile(r"^(?:my |我的?|[A-Z][\w-]*(?: [A-Z][\w-]*)?'s? |[\u4e00-\u9fff]{1,4}的)", re.IGNORECASE)
_EN_MINE = re.compile(r"\b(?:my|our)\b", re.IGNORECASE)
_EN_ME = re.compile(r"(?<=\w )(?:me|myself)\b")  # "helps me put …": whom it is done to, not its subject
_ZH_MINE = re.compile(r"我(?!们)的")
_ZH_MINE_LEAD = re.compile(r"^我(?![们的])")


def _by_role(name: str) -> tuple[str, tuple[str, str | None]] | None:
    """Whose one a name says and in what role, when it names them by role alone: 我的女儿 → (我, (女儿, f)),
    "Ivy's kids" → (ivy's, (children, None)); None for another name."""
    whose = _UNNAMED.match(name)
    role = role_of(name[whose.end() :]) if whose else None
    return (whose.group(0).replace("的", "").strip().lower(), role) if whose and role else None


def theirs(text: str, speaker: str | None, lead: bool = True) -> str:
    """What a named ``speaker`` calls theirs, written as theirs: "my kids" said by Ivy is "Ivy's
    kids", 我的车 / 我女儿 said by 小王 are 小王的车 / 小王的女儿; else two speakers' "my daughter"
    would be one node of the graph; "helps me" said by Ivy is "helps Ivy". ``lead``: a Chinese name
    opening with 我 (我女儿) is theirs too (not in a predicate, where 我 is whom something was done to:
    帮我修电脑). The user's stays "my"."""
    if not speaker or not text:
        return text
    out = _EN_MINE.sub(possessive(speaker, False), text)
    out = _EN_ME.sub(speaker, out)
    out = _ZH_MINE.sub(possessive(speaker, True), out)
    return _ZH_MINE_LEAD.sub(possessive(speaker, True), out) if lead else out


_FILLERS = {"the", "a", "an", "of", "that", "this", "my", "our", "one", "guy", "lady", "woman", "man"}


def _content_words(text: str) -> list[str]:
    text = text.lower()
    if re.search(r"[\u4e00-\u9fff]", text):
        return [c for c in text if "\u4e00" <= c <= "\u9fff" and c not in "的那这个位"]
    return [w for w in re.findall(r"[a-z]+", text) if w not in _FILLERS]


def owner_key(speaker: str | None) -> str:
    """Whose roles a turn's "my …" / 我的… names: the user's, or a named speaker's."""
    return USER_KEY if not speaker or person_key(speaker) == USER_KEY else normalize_name(speaker)


@dataclass
class People:
    """The people a conversation has named, as it is read: roles per owner, genders, and the order
    they were last mentioned in (the last at the end)."""

    roles: dict[tuple[str, str], str] = field(default_factory=dict)  # (owner, role) → name
    gender: dict[str, str] = field(default_factory=dict)  # normalized name → "f" / "m"
    recent: list[str] = field(default_factory=list)  # names, last mentioned last
    names: dict[str, str] = field(default_factory=dict)  # normalized name → the name as said
    described: dict[str, tuple[str, ...]] = field(default_factory=dict)  # normalized name → what they are said to be
    said: set[str] = field(default_factory=set)  # normalized names mentioned in what is being read
    unspoken: set[str] = field(default_factory=set)  # known only from tool calls, never from conversation
    speaker: str | None = None  # the named speaker of the turn being read (None: the user): whose "my …"
    animal_last: bool = False  # an animal was brought up after the last person: a she or he means it
    mentions: int = 0  # how many times anyone was mentioned, so far
    turn: int = 0  # the turn being read (its place in the conversation)
    turn_said: dict[str, int] = field(default_factory=dict)  # normalized name → the turn they were last mentioned in
    speakers: set[str] = field(default_factory=set)  # normalized names of those who spoke a turn: an I or a you
    # the sentence being read named someone as its topic, alone in a clause (我的上司，他是杭州人): its he or
    # she means them, unless of the other gender
    topic: str | None = None

    @classmethod
    def from_rows(cls, rows: Iterable[dict]) -> People:
        """From ``people_known`` rows ({owner, role, name, last_said}) and ``people_described`` rows
        ({name, description, last_said}), oldest first."""
        people = cls()
        rows = sorted((r for r in rows if r.get("name")), key=lambda r: str(r.get("last_said") or ""))
        for r in rows:
            if r.get("role"):
                people.learn(r["name"], r["role"], owner=r.get("owner") or USER_KEY)
            elif r.get("description"):
                people.describe(r["name"], r["description"])
            elif found := role_of(_UNNAMED.sub("", r["name"])):
                people.learn(r["name"], gender=found[1])  # my daughter, 我儿子: whom a later 她 / she may mean
            elif re.fullmatch(NAMED_PATTERN, r["name"]):
                people.learn(r["name"])  # Rosa, said to come to clean: a later "Rosa …" or she
        spoken = {normalize_name(r["name"]) for r in rows if r.get("last_said")}
        people.unspoken = set(people.names) - spoken
        return people

    @classmethod
    def of_group(cls, store: Store, group_id: str) -> People:
        """The people a group's speakers named with a role or described before (``people_known``,
        ``people_described``): whom a later session's 我表妹 or 她, or a question's "my son's tutor", means."""
        # the unnamed first: of those last spoken of at the same moment (my daughter's form teacher is
        # Ms Harper), the one named is the later mentioned
        known = store.read("people_unnamed", group_id=group_id, limit=PEOPLE_KNOWN)
        known += store.read("people_named", group_id=group_id, limit=PEOPLE_KNOWN, pattern=NAMED_PATTERN)
        known += store.read("people_known", group_id=group_id, limit=PEOPLE_KNOWN)
        described = store.read("people_described", group_id=group_id, limit=PEOPLE_KNOWN, topics=IDENTITY_TOPICS)
        people = cls.from_rows([*known, *described])
        people.said.clear()  # known from before; none of them mentioned in this conversation yet
        return people

    def copy(self) -> People:
        """A copy to read ahead with (what it learns, this one does not); the sentence's topic is not carried."""
        held = ("roles", "gender", "recent", "names", "described", "said", "unspoken", "turn_said", "speakers")
        return replace(self, topic=None, **{name: getattr(self, name).copy() for name in held})

    def describe(self, name: str, description: str) -> None:
        """What a person is said to be (a retired maths teacher, 退休的中学老师): a later "the retired
        teacher" or 那位退休老师 may mean them. They become the last mentioned. Not the user or the agent
        (I, 我, you): what they are is theirs, and no one's he or she."""
        if person_key(name) is not None:
            return
        key = normalize_name(name)
        said = self.described.get(key, ())
        if description not in said:
            self.described[key] = (*said, description)
        found = role_of((description.split() or [description])[-1])  # its head word: a retired teacher
        self._known(name, found[1] if found else None)

    def by_description(self, words: str) -> str | None:
        """The person last mentioned whom what is known of them fits: every word of ``words`` in
        their descriptions and roles, the noun (the last word; in Chinese the last two characters)
        within one of them. The retired teacher → the one said to be a retired maths teacher;
        那位退休老师 → the one said to be 退休的中学老师. None when no one fits."""
        if not (wanted := _content_words(words)):
            return None
        chinese = all(len(w) == 1 for w in wanted)
        head = "".join(wanted[-2:]) if chinese else wanted[-1]
        for key in reversed(self.recent):
            said = list(self.described.get(key, []))
            said += [role for (_, role), name in self.roles.items() if normalize_name(name) == key]
            have = {w for d in said for x in _content_words(d) for w in (x, x.removesuffix("s"))}
            if all(w in have for w in wanted) and (any(head in d for d in said) if chinese else head in have):
                return self.names[key]
        return None

    def learn(self, name: str, role: str | None = None, *, owner: str = USER_KEY, gender: str | None = None) -> None:
        """A person named, with their role to ``owner`` when it was said: they become the last mentioned.
        One named by the speaker's role alone (my daughter) is the named speaker's (Ivy's daughter)."""
        name = theirs(name, self.speaker)
        if role:
            canon, implied = role_of(role) or (role, None)
            self.roles[(owner, normalize_name(canon))] = name
            gender = gender or implied
        self._known(name, gender or title_gender(name))

    def _known(self, name: str, gender: str | None) -> None:
        """``name`` known, of ``gender`` unless their gender is known already, and the last mentioned."""
        key = normalize_name(name)
        if gender and key not in self.gender:
            self.gender[key] = gender
        self.names.setdefault(key, name)
        self.mention(name)

    def known_as(self, name: str, role: str, owner: str = USER_KEY) -> Found:
        """``name`` is the speaker's ``role`` (my cousin Ruth, 小雯是我表妹), learnt: the relation that says so."""
        self.learn(name, role, owner=owner)
        return relation(role, name)

    def learn_of(self, whose: str, name: str, role: str, said: str) -> Found:
        """Someone in a role to a person the speaker knows (my daughter's form teacher, Ms Harper;
        女儿的班主任刘老师): theirs in ``role``, and known by the words ``said``, so a later "the form
        teacher" or 班主任 means them. They become the last mentioned. The relation that says so."""
        self.learn(name, role, owner=normalize_name(whose))
        self.describe(name, said)
        return relation(role, name, whose)

    def knows(self, name: str) -> bool:
        return normalize_name(name) in self.names

    def mention(self, name: str) -> None:
        key = normalize_name(name)
        if key not in self.names:
            return
        self.animal_last, self.mentions = False, self.mentions + 1
        if key in self.recent:
            self.recent.remove(key)
        self.recent.append(key)
        self.said.add(key)
        self.turn_said[key] = self.turn

    def unnamed(self, said: str) -> str:
        """The name of the speaker's one in a role said unnamed (我爸, my mom): the name they were first said with
        in that role, whichever word of it (我父亲 said before: 我爸 is 我父亲), else ``said``."""
        mine = _by_role(theirs(said, self.speaker))  # a named speaker's 我爸 is 小王的爸, as ``learn`` writes it
        return next((name for name in self.names.values() if _by_role(name) == mine), said) if mine else said

    def by_role(self, role: str, owner: str = USER_KEY) -> str | None:
        """The person ``owner`` named in this role, or None: 表妹 → 小雯."""
        return self.roles.get((owner, normalize_name((role_of(role) or (role,))[0])))

    def bring_up(self, text: str, mentions_before: int) -> None:
        """After reading ``text``: an animal in it (this cute pup, my dog, 一只小猫) in a sentence that
        mentioned no one (``mentions`` is still ``mentions_before``) is what a later she or he most
        likely means, until a person is mentioned again ("I adopted a pup. Her name is Shadow" names
        no person; "Mona has a tortoise. She …" is Mona)."""
        if self.mentions == mentions_before and ANIMAL.search(text):
            self.animal_last = True

    def by_pronoun(self, pronoun: str) -> str | None:
        """The person a pronoun means: among those mentioned in this conversation, then those spoken
        of in earlier ones, then those known only from tool calls, the last mentioned one known to fit
        its gender, else the last one whose gender is unknown; never one known to be of the other
        gender; before all of them the topic of the sentence, said alone before it. None: no one
        fits. (Gary, the landlord named last session, is this session's "he", not the Mr Hill an
        agent once wrote down as a neighbour.)"""
        wanted = PRONOUN_GENDER.get(pronoun.lower())
        if wanted is None or self.animal_last:
            return None
        if self.topic is not None and self.gender.get(normalize_name(self.topic), wanted) == wanted:
            return self.topic
        tiers = (
            [k for k in self.recent[-1:] if self.turn_said.get(k) == self.turn],  # 我同事是护士，他住在北京: just named
            [k for k in self.recent if k in self.said],
            [k for k in self.recent if k not in self.said and k not in self.unspoken],
            [k for k in self.recent if k in self.unspoken and k not in self.said],
        )
        for keys in tiers:  # one who speaks in the conversation is an I or a you, never a he or she
            fits = [k for k in reversed(keys) if self.gender.get(k, wanted) == wanted and k not in self.speakers]
            fits.sort(key=lambda k: k not in self.gender)  # the last known to fit, else the last of unknown gender
            best = next((k for k in fits if not self.together(self.names[k])), None)  # 我爸妈: a they, not a she
            if best is not None:
                return self.names[best]
        return None

    def together(self, name: str) -> bool:
        """Whether ``name`` is people spoken of together (my parents, Ivy's kids, 我爸妈)."""
        found = role_of(_UNNAMED.sub("", name))
        return found is not None and found[0] in TOGETHER

    def by_they(self) -> str | None:
        """Whom a "they" / 他们 means: the ones spoken of together (my parents, my kids, 我爸妈) when
        they are the last mentioned, in this turn or the one before; None otherwise ("they" is as
        often the things just said, or people never named)."""
        last = self.recent[-1] if self.recent else None
        if last is None or self.animal_last or last not in self.said or self.turn_said.get(last, -2) < self.turn - 1:
            return None
        return self.names[last] if self.together(self.names[last]) else None

    def settle(self, name: str, pronoun: str) -> None:
        """A pronoun was read as ``name``: their gender is now known, and they are the last mentioned."""
        self._known(name, PRONOUN_GENDER.get(pronoun.lower()))


def introduce(people: People, name: str, role: str, what: str | None, owner: str, is_a: str) -> list[Found]:
    """Someone the speaker introduces (a nurse called Nina, 叫小吴的家教, my neighbour Tom): learnt
    in ``role`` and, when said, as ``what`` they are; the relation and, for ``what``, the identity
    (``is_a``: "is a" / 是) as memories, so later sessions know them too."""
    out = [people.known_as(name, role, owner)]
    if what:
        people.describe(name, what)
        out.append(Found("FACT", is_a, what, 0.5, subject=name, kind="fact"))
    return out
