"""What the offline reader asks of a language: split a sentence into clauses, find whom a clause is
about, read what it says of them.

``rules._Reader`` holds the order of reading, once for every language; a subclass (``reader_zh.CHINESE``,
``reader_en.ENGLISH``) answers these questions with its own words and patterns. The defaults here are
what a language that has nothing to say about a question answers; a question every language answers has none.
"""

from __future__ import annotations

import re
from typing import Any, Protocol

from .people import People
from .phrases import Found, Subject

Reader = Any  # rules._Reader: the window being read (its people, its memories), passed back to the language


class Language(Protocol):
    code: str  # "zh", "en"
    me: str  # how an unnamed speaker is written as a subject: 我, I
    joiner: str  # what joins two pieces of a phrase: "" in Chinese, " " in English
    keys: dict[str, str]  # the attribute keys it writes: "time", "how often"
    causal: list[re.Pattern[str]]  # a cause and its effect in one sentence (groups a, b)
    therefore: re.Pattern[str]  # a sentence opening that gives the effect of the sentence before
    often: re.Pattern[str]  # how often (a habit)
    thought: re.Pattern[str]  # a clause that only says what someone thinks, hopes, wonders

    # --- sentences and clauses
    def plain(self, sentence: str) -> str:
        """The sentence as the patterns read it (fillers out, an elided "I" put back …)."""

    def cause_and_effect(self, sentence: str) -> tuple[str, str] | None:
        """The cause and the effect a sentence says (因为…所以…, … because …), each two characters or more."""
        for pattern in self.causal:
            if m := pattern.match(sentence.strip(" 。.!！?？")):
                a, b = m.group("a").strip(" ，,"), m.group("b").strip(" ，,。.!！")
                if len(a) >= 2 and len(b) >= 2:
                    return a, b
        return None

    def about_someone_named(self, clause: str) -> bool:
        """A clause that opens with a name (小明参加了比赛): what it and a cause or an effect said with it
        leave unsaid is theirs, not the speaker's."""
        return False

    def planned(self, topic: str) -> bool:
        """A reading said with a verb of planning ("am planning"): its time is one to come, as a plan's."""
        return False

    def it_did(self, cause: str) -> re.Match[str] | None:
        """A cause said of "it" doing something: "it" is what the effect is about."""
        return None

    def clauses(self, reader: Reader, sentence: str) -> list[str | None]:
        """A sentence that is no cause and effect, its clauses each read (``reader._read``, ``reader.add``):
        the ids of the memories added."""

    def body(self, text: str, time_text: str | None) -> str:
        """A clause with its time taken out and its spaces set right."""

    def opening(
        self, reader: Reader, body: str, text: str, time_text: str | None, carried: Any
    ) -> tuple[str, str, list[Found], Found | None]:
        """(body, text, the people the clause introduces, a reading that is all it says, or None)."""

    # --- whom a clause is about
    def subject_of(self, clause: str, people: People, owner: str, carried: Subject | None) -> Subject | None: ...

    def role_of_someone(self, text: str, people: People, owner: str) -> Found | None: ...

    def partner_ended(self, text: str, people: People, owner: str) -> Found | None: ...

    def stated_people(self, text: str, people: People, owner: str) -> list[Found]: ...

    def said_together(self, text: str) -> bool: ...

    def said_mine(self, rest: str, name: str, people: People, owner: str) -> Found | None: ...

    def implied_subject(self, reader: Reader, body: str, time_text: str | None) -> Subject | None:
        """The subject a clause leaves unsaid (上个月搬到上海了: 我), or None."""
        return None

    def without_subject(self, body: str, text: str, time_text: str | None, generic: bool) -> list[Found]:
        """What a clause whose subject is no one known says (小明是医生; the train broke down)."""

    def together(self, people: People, name: str | None) -> bool:
        """Whether a named subject is several people (my parents), so that its verbs agree so."""
        return False

    # --- what it says of them
    def predicates(self, rest: str, third: bool, time_text: str | None) -> list[Found]:
        """The specific readings of a subject's predicate (``rest``), each naming its kind and slot."""

    def dated_attribute(self, rest: str) -> str | None:
        """The attribute a predicate gives a time as its value (生日是 of 我上司的生日是12月10号): a fact
        about someone, the date its value, not an event of that day."""
        return None

    def attribute_of(self, what: str, rest: str, when: str | None = None) -> Found | None:
        """What someone has that a reading of its own reads (their e-mail, their phone number, their
        birthday), said of them as the speaker says their own (我表哥的邮箱是…, "my cousin's email is …"):
        ``what`` the attribute's word, ``rest`` what follows it, ``when`` the time the clause names (a
        birthday's value). The reading's topic and value, or None."""

    def of_thing(self, rest: str) -> list[Found]:
        """What a thing of someone's is (her shop is called Petal)."""
        return []

    def otherwise(
        self, reader: Reader, body: str, text: str, subj: Subject, time_text: str | None, generic: bool, habitual: bool
    ) -> list[Found]:
        """The readings of a predicate no specific pattern took: a deed, a thing done with someone."""

    def whole_clause(
        self, reader: Reader, text: str, subj: Subject, time_text: str | None, generic: bool, habitual: bool
    ) -> list[Found]:
        """A clause kept whole as its subject's predicate (an event when timed), or nothing."""

    def whole_rest(self, reader: Reader, rest: str, subj: Subject) -> str | None:
        """A cause's or an effect's predicate as kept whole, or None when it says nothing of its own."""
        return rest

    def plural(self, topic: str) -> str:
        """A topic's verb agreeing with several subjects."""
        return topic

    def keeps(self, found: Found, topic: str, obj: str | None) -> bool:
        """Whether a memory says something of its own (not "it", not only how)."""
        return True
