"""What the offline reader asks of a language: split a sentence into clauses, find whom a clause is
about, read what it says of them.

``rules._Reader`` holds the order a sentence is read in, once for every language; an implementation
(``reader_zh.CHINESE``, ``reader_en.ENGLISH``) holds the words and patterns of one language and
answers the questions below. ``rules.language_of`` picks the implementation for a sentence. The patterns
themselves stay in the language's rule modules (``rules_zh``, ``rules_en``: the readings of the table
in ``lexicon/readings.py``, each pattern naming the reading it produces).
"""

from __future__ import annotations

import re
from typing import Any, Protocol

from .people import People
from .phrases import Found

Reader = Any  # rules._Reader: the window being read (its people, its memories), passed back to the language


class Language(Protocol):
    code: str  # "zh", "en"
    me: str  # how an unnamed speaker is written as a subject: 我, I
    joiner: str  # what joins two pieces of a phrase: "" in Chinese, " " in English
    keys: dict[str, str]  # the attribute keys it writes: "time", "how often"
    therefore: re.Pattern[str]  # a sentence opening that gives the effect of the sentence before
    often: re.Pattern[str]  # how often (a habit)
    thought: re.Pattern[str]  # a clause that only says what someone thinks, hopes, wonders

    # --- sentences and clauses
    def plain(self, sentence: str) -> str:
        """The sentence as the patterns read it (fillers out, an elided "I" put back …)."""

    def cause_and_effect(self, sentence: str) -> tuple[str, str] | None:
        """A sentence that says a cause and its effect (因为…所以…, … because …): the two clauses."""

    def it_did(self, cause: str) -> re.Match[str] | None:
        """A cause said of "it" doing something: "it" is what the effect is about."""

    def clauses(self, reader: Reader, sentence: str) -> list[str | None]:
        """A sentence that is no cause and effect, split into its clauses and each read (through
        ``reader._read`` and ``reader.add``): the ids of the memories added."""

    def body(self, text: str, time_text: str | None) -> str:
        """A clause with its time taken out and its spaces set right."""

    def opening(
        self, reader: Reader, body: str, text: str, time_text: str | None, carried: Any
    ) -> tuple[str, str, list[Found], Found | None]:
        """What a clause says before its subject is looked for: (body, text, the people it
        introduces, a reading that is all it says, or None)."""

    def clean(self, text: str, limit: int) -> str | None:
        """A phrase trimmed to what a memory keeps of it."""

    # --- whom a clause is about
    def subject_of(self, body: str, people: People, owner: str, carried: Any): ...

    def role_of_someone(self, body: str, people: People, owner: str) -> Found | None: ...

    def partner_ended(self, body: str, people: People, owner: str) -> Found | None: ...

    def stated_people(self, body: str, people: People, owner: str) -> list[Found]: ...

    def said_together(self, body: str) -> bool: ...

    def said_mine(self, rest: str, name: str, people: People, owner: str) -> Found | None: ...

    def implied_subject(self, reader: Reader, body: str, time_text: str | None):
        """The subject a clause leaves unsaid (上个月搬到上海了: 我), or None."""

    def without_subject(self, body: str, text: str, time_text: str | None, generic: bool) -> list[Found]:
        """What a clause whose subject is no one known says (小明是医生; the train broke down)."""

    def together(self, people: People, name: str | None) -> bool:
        """Whether a named subject is several people (my parents), so that its verbs agree so."""

    # --- what it says of them
    def predicates(self, rest: str, third: bool, time_text: str | None) -> list[Found]:
        """The specific readings of a subject's predicate (``rest``), each naming its kind and slot."""

    def of_thing(self, rest: str) -> list[Found]:
        """What a thing of someone's is (her shop is called Petal)."""

    def otherwise(
        self, reader: Reader, body: str, text: str, subj, time_text: str | None, generic: bool, habitual: bool
    ) -> list[Found]:
        """The readings of a predicate no specific pattern took: a deed, a thing done with someone."""

    def whole_clause(
        self, reader: Reader, text: str, subj, time_text: str | None, generic: bool, habitual: bool
    ) -> list[Found]:
        """A clause kept whole as its subject's predicate (an event when timed), or nothing."""

    def whole_rest(self, reader: Reader, rest: str, subj) -> str | None:
        """A cause's or an effect's predicate as kept whole, or None when it says nothing of its own."""

    def plural(self, topic: str) -> str:
        """A topic's verb agreeing with several subjects."""

    def keeps(self, found: Found, topic: str, obj: str | None) -> bool:
        """Whether a memory says something of its own (not "it", not only how)."""
