"""The offline rule-based extractor, Chinese and English: ``RuleExtractor`` and the order of reading.

A window of turns is read in order, as a listener would: each sentence in its language (``Language``),
then its causes and effects, then each clause's subject (the speaker, a person by name, role or pronoun:
``people.People``) and what it says of them (a reading of ``lexicon/readings.py``, a language's pattern,
else the clause kept whole when timed). It is conservative, a wrong memory being worse than none: a
clause counts only where its subject opens it, a pronoun that fits no one gives nothing, and wishes,
guesses, what used to be, questions and picture captions ("[image: …]") give none. Assistant and system
turns are not mined. The output is ``schema.Extraction``, checked by ``schema.to_plan`` as the LLM
extractor's is. docs/architecture.md, "The reader", walks through it.
"""

from __future__ import annotations

import re
from datetime import timedelta

from pydantic import ValidationError as PydanticValidationError

from ..lang import is_chinese, is_user_speaker
from ..lexicon.readings import said_reading
from ..lexicon.roles import ATTRIBUTE_WORDS, WHAT_TOPICS, WHENCE_TOPICS, role_of
from ..timeparse import find_time_range, normalize_time
from ..types import MAX_NAME, normalize_name
from .language import Language
from .models import EpisodeView, ExtractionPlan
from .people import People, owner_key, theirs
from .phrases import Found, clean, read_as
from .reader_en import ENGLISH
from .reader_zh import CHINESE
from .schema import ExtractedLink, ExtractedMemory, Extraction, to_plan

# the importance of what someone else has, said as theirs (their birthday, e-mail, phone number, 单位叫…): a
# fact about them as any other (their hometown, their education), not one of the speaker's own slots (their
# reading's), nor what a reading of the words weighs said of oneself (叫: one's name)
THEIRS = 0.5
WHOLE_LIMIT = 40  # characters of a clause kept whole as its subject's predicate; a longer one is not kept

# --- sentence and clause splitting --------------------------------------------------------
_FULL_STOP = r"(?<![A-Z][a-z]\.)(?<!\b[A-Z]\.)(?<!Mrs\.)(?<=[.])"  # not a title's or an initial's (Mrs. Lee, J. Smith)
_SENTENCE_END = re.compile(
    rf"(?<=[。！？!?；;\n])|{_FULL_STOP}\s*(?=[\u4e00-\u9fff])|{_FULL_STOP}\s+(?=[A-Z\"'(])"
)  # a Chinese sentence after an English one

_CAPTION = re.compile(r"\s*\[image:[^\]]*\]", re.IGNORECASE)  # a picture's caption added to a turn

_QUESTION = re.compile(r"[?？]\s*[\"'”’)）]*$")

# a question put back to the listener after a statement: "…，你呢？", "…, do you?", "… - want to see a pic?"
_TO_LISTENER = re.compile(r"你|您|\byou\b|^\s*(?:wanna|want to|care to) (?:see|hear|know)\b", re.IGNORECASE)

# what makes a sentence a question: a Chinese question word anywhere, an English question word or auxiliary only at
# its start ("is your sister a nurse", "what is it": questions; "my sister is a nurse", "a friend who plays": not)
_ASKS = re.compile(
    r"为什么|什么|怎么|吗|呢|哪|谁|几|多少"
    r"|^\W*(?:why|what|how|where|who|which|when|do|does|did|is|are|can|could|would|should|have|has)\b",
    re.IGNORECASE,
)


def sentences(text: str) -> list[str]:
    """The sentences of a turn, each in one language: a sentence that says one part in Chinese and
    another in English ("我每周去游泳，my brother Leo lives in Oslo") is read as two."""
    return [part for said in _SENTENCE_END.split(text) if said.strip() for part in _by_language(said.strip())]


# The parts of a sentence between commas; English words enough to be a clause of their own (a name
# or a brand inside a Chinese sentence — 我买了iPhone 15 — stays in it).
_COMMA = re.compile(r"(?<=[，,；;])\s*")
_LATIN_WORD = re.compile(r"\b[A-Za-z][A-Za-z'-]*\b")
ENGLISH_CLAUSE_WORDS = 3


def _by_language(sentence: str) -> list[str]:
    """A sentence split where its clauses change language (at a comma); else the sentence."""
    runs: list[tuple[str, list[str]]] = []
    for part in (p for p in _COMMA.split(sentence) if p.strip()):
        kind = (
            "zh" if is_chinese(part) else "en" if len(_LATIN_WORD.findall(part)) >= ENGLISH_CLAUSE_WORDS else "either"
        )
        if runs and (kind == "either" or runs[-1][0] in (kind, "either")):
            runs[-1] = (kind if runs[-1][0] == "either" else runs[-1][0], [*runs[-1][1], part])
        else:
            runs.append((kind, [part]))
    if len(runs) < 2:
        return [sentence]
    return [re.sub(r"[，,；;]\s*$", "", "".join(run)).strip() for _, run in runs]


# A habit that says only how many times (去三次, "go twice") or only "go" (去): what, or where to, was said before.
_HOW_MANY_TIMES = re.compile(r"^(?:去|来|做|练|go|goes|do|does)?\s*(?:[一二两三四五六七八九十几\d]+次|once|twice)$")
_BARE_GO = {"去", "来", "go", "goes", "come", "comes"}

# A plan's time that ended more than this before the turn, named without a year or a word for the
# past (last, ago, 上, 去年, 前, 昨), is read as the next such time.
PLAN_GRACE = timedelta(days=7)

# a day of the week alone ("on Friday", 周五, 星期天): a plan's is the next one, even a day after it
_WEEKDAY = re.compile(
    r"^(?:on |this )?(?:mon|tues|wednes|thurs|fri|satur|sun)day\W*$|^(?:这|本)?(?:周|星期|礼拜)[一二三四五六日天]\W*$",
    re.IGNORECASE,
)

# words that place a time in the past (上个月, 去年, 三天前, 昨天, a year); not 上 of 上午, 晚上, 早上, 马上, 上旬
_NAMED_PAST = re.compile(
    r"\b(?:last|ago|yesterday|before|previous|earlier)\b|(?<![早晚马])上(?![午旬])|[去前昨]|\d{4}|年", re.IGNORECASE
)


class RuleExtractor:
    """``extract(episodes, people) -> ExtractionPlan``: memories per turn, linked to that turn.

    ``people`` (``people.People``): the people the group already knows by role (the pipeline
    reads them from the database); the extractor adds those the turns name as it reads them, in
    order, so a pronoun or a role means whom the conversation so far means by it."""

    name = "rules"
    uses_people = True

    def extract(self, episodes: list[EpisodeView], people: People | None = None) -> ExtractionPlan:
        reader = _Reader(self, people.copy() if people is not None else People())
        # whoever speaks in the window is an I or a you in it, never a he or she
        reader.people.speakers |= {
            normalize_name(ep.speaker or "") for ep in episodes if not is_user_speaker(ep.speaker)
        }
        for turn, ep in enumerate(episodes, 1):
            if ep.role == "user":  # assistant and system turns are not mined
                reader.episode(turn, ep)
        extraction = Extraction(memories=reader.memories, links=reader.links)
        return to_plan(extraction, episodes, absolute=reader.absolute)  # the ids of memories whose times are absolute

    def _absolute(self, text: str, ep: EpisodeView, ahead: bool = False) -> str | None:
        """The time as an absolute value (昨天 said on 2025-11-05 → 2025-11-04) when that reads back
        the same from any reference time; None: keep the words, read against the turn's time.
        ``ahead`` (a plan): a time named without its year that has passed is the next one ("in
        May" said in November is next May, "on Friday" said on a Wednesday this Friday; a yearless
        time read alone is the last one)."""
        try:
            tv = normalize_time(text, ep.timestamp)
            if not tv.parsed:
                return None
            grace = timedelta(0) if _WEEKDAY.search(text) else PLAN_GRACE  # "on Friday" for a plan: the coming one
            passed = tv.end is not None and tv.end <= ep.timestamp - grace
            if ahead and passed and not _NAMED_PAST.search(text):
                # a weekday that has passed is next week's; a month or a date, next year's
                for then in (ep.timestamp + timedelta(days=7), ep.timestamp.replace(year=ep.timestamp.year + 1)):
                    later = normalize_time(text, then)
                    if later.parsed and later.start is not None and later.start > ep.timestamp:
                        tv = later
                        break
            shown = tv.display()
            again = normalize_time(shown, ep.timestamp.replace(year=ep.timestamp.year + 7))
        except Exception:  # noqa: BLE001 - unreadable: keep the words
            return None
        same = again.parsed and again.start == tv.start and again.granularity == tv.granularity
        return shown if same else None

    def _time(self, text: str, ep: EpisodeView) -> str | None:
        try:
            hit = find_time_range(text, ep.timestamp)
        except Exception:  # noqa: BLE001 - a time we cannot read is no time
            return None
        if not hit:
            return None
        # "since last March": the reader's words start at "last"; the span starts at "since"
        since = re.search(r"\bsince\s+" + re.escape(hit[2]), text, re.IGNORECASE)
        return since.group(0) if since and not hit[2].lower().startswith("since") else hit[2]


def _statement_part(sentence: str) -> str | None:
    """The sentence, or what it states before a question put back to the listener
    ("我最喜欢秋天，你呢？" → 我最喜欢秋天); None for a question."""
    if not _QUESTION.search(sentence):
        return sentence
    body = re.sub(r"[?？\s\"'”’)）]+$", "", sentence)
    for sep in ("，" if "，" in sentence else ",", " - ", " – ", " — "):
        head, _, tail = body.rpartition(sep)
        if head and _TO_LISTENER.search(tail) and not _ASKS.search(head):
            return head
    return None


def _of_relative(found: Found, role: str, joiner: str) -> None:
    """What a person's relative does, kept as the person's (老周的老伴喜欢养兰花 → 老周 老伴喜欢养 兰花;
    Ruth's husband builds boats → Ruth husband builds boats): it sets none of the person's own slots."""
    found.topic = f"{role}{joiner}{found.topic}"[:MAX_NAME]
    found.slot, found.ends = None, False
    found.kind = "event" if found.memory_type == "EVENT" else "fact"
    if found.memory_type == "RELATION":
        found.memory_type = "FACT"


def language_of(sentence: str) -> Language:
    """The language a sentence is read in: English when it opens with English words, however many
    Chinese names it holds ("I work at 腾讯 now"), else Chinese when it holds a Chinese character."""
    english = re.match(r"^\W*[A-Za-z]", sentence) and len(_LATIN_WORD.findall(sentence)) >= ENGLISH_CLAUSE_WORDS
    return CHINESE if is_chinese(sentence) and not english else ENGLISH


class _Reader:
    """One window of turns read in order: the memories and links found, the people met. The order
    of reading is here, once; what each language says and how is its ``Language``'s."""

    def __init__(self, rules: RuleExtractor, people: People):
        self.rules = rules
        self.people = people
        self.memories: list[ExtractedMemory] = []
        self.links: list[ExtractedLink] = []
        self.absolute: set[str] = set()
        self._seen: set[tuple] = set()
        self._said_here = True  # whether the time being read is said in the clause being read
        self.lang: Language = ENGLISH  # the language of the sentence being read

    # --- one turn ---
    def episode(self, turn: int, ep: EpisodeView) -> None:
        self.turn, self.ep = turn, ep
        self.owner = owner_key(ep.speaker)
        self.named = not is_user_speaker(ep.speaker)
        self.speaker = ep.speaker.strip() if self.named and ep.speaker else None
        self.people.speaker, self.people.turn = self.speaker, turn
        self._seen = set()
        last: str | None = None  # the last memory of the sentence before (a "so …" sentence's cause)
        for said in sentences(_CAPTION.sub("", ep.content)):
            sentence = _statement_part(said)
            if not sentence:  # a question asks; it states nothing
                last = None
                continue
            self.lang = language_of(sentence)
            mentions, self.people.topic = self.people.mentions, None
            sentence = self.lang.plain(sentence)
            therefore = self.lang.therefore.match(sentence) if last is not None else None
            ids = self._sentence(sentence[therefore.end() :] if therefore else sentence)
            if therefore and ids and last:  # 所以…, "so …": the effect of what the sentence before said
                self.links.append(ExtractedLink(cause=last, effect=ids[0]))
            last = ids[-1] if ids else None
            self.people.bring_up(sentence, mentions)

    def _sentence(self, sentence: str) -> list[str]:
        """The memories of one sentence (their ids): a cause and its effect, linked, or its clauses."""
        cause_effect = self.lang.cause_and_effect(sentence)
        if not cause_effect:
            return [i for i in self.lang.clauses(self, sentence) if i]
        main: list[str | None] = []
        clauses = list(cause_effect)
        said_of = self.lang.it_did(clauses[0])
        if said_of:  # "I quit coffee because it kept me up": "it" is the thing the effect is about
            people, self.people = self.people, self.people.copy()  # a look ahead: learns no one
            effect = self._clause(clauses[1], None, carried=None, generic=True)[0]
            self.people = people
            thing = next((f.object for f in effect if f.object and f.memory_type != "RELATION"), None)
            if thing and len(thing.split()) <= 4:
                clauses[0] = thing + clauses[0][said_of.end("it") :]
        # 小明生病了，所以…: the unsaid subject is theirs
        named = any(self.lang.about_someone_named(c) for c in clauses)
        for clause in clauses:
            time_text = self.rules._time(clause, self.ep)
            generic = not named or self._says_subject(clause, time_text)
            found = self._clause(clause, time_text, carried=None, generic=generic)[0]
            added = [self.add(f, time_text) for f in found]
            lead = [i for f, i in zip(found, added) if i and f.memory_type != "RELATION"] or [i for i in added if i]
            main.append(lead[0] if lead else None)
        if main[0] and main[1]:
            self.links.append(ExtractedLink(cause=main[0], effect=main[1]))
        return [i for i in main if i]

    def _says_subject(self, clause: str, time_text: str | None) -> bool:
        """Whether a clause says whom it is about (a look ahead: learns no one)."""
        return self.lang.subject_of(self.lang.body(clause, time_text), self.people.copy(), self.owner, None) is not None

    def _clause(
        self, text: str, time_text: str | None, *, carried, generic: bool, habitual: bool = False
    ) -> tuple[list[Found], object]:
        """What a clause says: the relations it names, then its subject's predicate (a specific
        reading first, else, when timed or a cause or an effect, the clause kept whole)."""
        lang = self.lang
        body, text, found, said = lang.opening(self, lang.body(text, time_text), text, time_text, carried)
        if said is not None:
            return [*found, said], carried
        if (named := lang.role_of_someone(body, self.people, self.owner)) is not None:
            return [*found, named], carried
        if (ended := lang.partner_ended(body, self.people, self.owner)) is not None:  # a breakup, a divorce
            ended.memory_type = "EVENT" if time_text else "FACT"
            return [*found, ended], carried
        subj = lang.subject_of(body, self.people, self.owner, carried)
        found.extend(lang.stated_people(body, self.people, self.owner))
        if found and lang.said_together(body):  # 我跟小静是大学同学: the relation is all it says
            return found, carried
        if subj is None and carried is None and not found:
            subj = lang.implied_subject(self, body, time_text)
        if subj is None:
            return found or lang.without_subject(body, text, time_text, generic), carried
        if subj.name and not subj.rest.strip(" ，,") and not found and subj.pronoun is None:
            self.people.topic = subj.name  # 我的上司，他…: the clause names whom the sentence is about
        found.extend(f for f in (subj.relation, subj.described, subj.together) if f is not None)
        mine = lang.said_mine(subj.rest, subj.name, self.people, self.owner) if subj.name and not subj.of_role else None
        if mine is not None:  # "He is my college roommate" / 他是我大学室友, said of someone named before
            return [*found, mine], subj
        # 我表哥的邮箱是…, "my cousin's birthday is May 3": theirs, read as the speaker's own is (its topic, its
        # whole value), as weighty as anything else said of them (THEIRS)
        thing = subj.of_role is not None and role_of(subj.of_role) is None  # her shop, his knee, 表哥的邮箱
        had = lang.attribute_of(subj.of_role, subj.rest, time_text) if subj.of_role and thing else None
        if had is not None:
            had.subject, had.importance = subj.name, had.importance if subj.name is None else THEIRS
            return [*found, had], subj
        plural = lang.together(self.people, subj.name)
        third = (subj.name is not None or self.named) and not plural
        preds = lang.of_thing(subj.rest) if thing else self._said(subj.rest, time_text)
        preds = preds or lang.predicates(subj.rest, third, time_text)
        if not preds and time_text and time_text in text:  # a time word that is the object (我最喜欢春天)
            preds = self._liking_a_time(" ".join(text.split()), subj, third, carried)
        if not preds and time_text and (attribute := lang.dated_attribute(subj.rest)):  # 生日是12月10号
            preds = [Found("FACT", attribute, time_text, 0.7 if subj.name is None else THEIRS, kind="fact")]
        if not preds and (time_text or generic or habitual or subj.name is not None) and subj.rest:
            preds = self._whole(text, subj, time_text, generic, habitual)
        if not preds:
            preds = lang.otherwise(self, body, text, subj, time_text, generic, habitual)
        for f in preds:
            f.subject = subj.name
            if plural:
                f.topic = lang.plural(f.topic)
            if subj.of_role:
                _of_relative(f, subj.of_role, lang.joiner)
                if subj.of_role in ATTRIBUTE_WORDS:  # 我上司的单位叫…: what they have, not their name (叫)
                    f.importance = THEIRS
            elif f.memory_type == "RELATION" and f.object:  # 跟小李结婚了: 小李 is known by that role
                self.people.learn(f.object, f.topic, owner=owner_key(subj.name) if subj.name else self.owner)
        return found + preds, subj

    def _said(self, predicate: str, time_text: str | None) -> list[Found]:
        """A reading of the table (``lexicon.readings``) that a person's whole predicate says in its own
        words: its topic word in this language, its kind, slot and confidence; an event when timed."""
        if (r := said_reading(predicate, self.lang.code)) is None:
            return []
        mtype = "EVENT" if time_text or r.kind == "event" else "FACT"
        return [read_as(r.id, mtype, r.topic[self.lang.code], None, ends=r.marked and bool(r.ends))]

    def _read(self, text: str, time_text: str | None, carried) -> tuple[list[Found], object]:
        """A clause outside a cause: a habit where it says how often and states one, else ``_clause``."""
        if (often := self.lang.often.search(text)) is not None:
            found, subj = self._habit(text, often, carried)
            if any(f.memory_type != "RELATION" for f in found):
                return found, subj
        return self._clause(text, time_text, carried=carried, generic=False)

    def _habit(self, text: str, often: re.Match, carried) -> tuple[list[Found], object]:
        """A clause that says how often (I swim every Saturday, 我每天早上跑步): what its subject does,
        kept as a fact with how often, read without the phrase and dated by no time in it."""
        rest = f"{text[: often.start()]}{self.lang.joiner}{text[often.end() :]}"
        found, subj = self._clause(" ".join(rest.split()), None, carried=carried, generic=False, habitual=True)
        phrase = often.group(0).rstrip("都也会")
        # 我每周去三次, "I go every day": to where?
        found = [f for f in found if not (_HOW_MANY_TIMES.match(f.topic) or (f.topic in _BARE_GO and not f.object))]
        for f in found:
            if f.kind in ("event", "fact"):  # a liking or a plan says no more for it
                f.memory_type, f.kind = "FACT", "fact"
                f.attributes = {**(f.attributes or {}), self.lang.keys["how often"]: phrase}
        return found, subj

    def _liking_a_time(self, text: str, subj, third: bool, carried) -> list[Found]:
        """A preference whose object the time reader took for a time (我最喜欢春天, I love Sundays)."""
        again = self.lang.subject_of(text, self.people.copy(), self.owner, carried)
        if again is None or again.name != subj.name:
            return []
        return [f for f in self.lang.predicates(again.rest, third, None) if f.kind == "preference"]

    def _whole(self, text: str, subj, time_text: str | None, generic: bool, habitual: bool = False) -> list[Found]:
        """A clause no specific reading took, kept whole as its subject's predicate (an event when
        timed); in a cause or an effect, whatever it says (没吃早饭, didn't sleep well, was awful)."""
        found = self.lang.whole_clause(self, text, subj, time_text, generic, habitual)
        if found or not generic:
            return found
        rest = clean(subj.rest, self.lang.code == "zh", MAX_NAME)
        if not rest or len(rest) > WHOLE_LIMIT or self.lang.thought.match(rest):
            return []  # nothing, a clause cut at the limit (a part of what it said), or a thought
        rest = self.lang.whole_rest(self, rest, subj)  # none for one about "it"
        return [Found("EVENT" if time_text else "FACT", rest, None, 0.5)] if rest else []

    # --- one memory ---
    def add(self, found: Found, time_text: str | None) -> str | None:
        mine = self.speaker  # a named speaker's "my …" is theirs: Ivy's kids, 小王的女儿
        subject = theirs(found.subject, mine) if found.subject else (mine or self.lang.me)
        topic, obj = theirs(found.topic, mine, lead=False), theirs(found.object, mine) if found.object else None
        attributes = dict(found.attributes or {})
        if time_text and found.memory_type == "EVENT":
            attributes.setdefault(self.lang.keys["time"], time_text)
        relative = False
        for k, v in attributes.items():
            if v == time_text:
                absolute = self.rules._absolute(v, self.ep, ahead=found.kind == "plan" or self.lang.planned(topic))
                attributes[k] = absolute or v
                relative = relative or absolute is None
            else:
                attributes[k] = theirs(v, mine)
        if not self.lang.keeps(found, topic, obj):
            return None
        ident = (subject.lower(), found.memory_type, topic.lower(), (obj or "").lower())
        if ident in self._seen:
            return None
        self._seen.add(ident)
        if obj:
            self.people.mention(obj)
            what = found.topic in WHAT_TOPICS and found.subject  # what someone named is
            if (what or found.topic in WHENCE_TOPICS) and self.people.knows(subject):
                self.people.describe(subject, obj)  # "the retired teacher", 那个广东同事 may mean them later
        mid = f"m{len(self.memories) + 1}"
        try:
            memory = ExtractedMemory(
                id=mid,
                turn=self.turn,
                kind="event" if found.kind == "fact" and found.memory_type == "EVENT" else found.kind,
                subject=subject[:MAX_NAME],
                memory_type=found.memory_type,
                topic=topic[:MAX_NAME],
                object=obj,
                attributes=attributes,
                importance=found.importance,
                slot=found.slot,
                ends=found.ends,
            )
        except PydanticValidationError:  # a phrase no memory can hold (too long, a control character)
            return None
        self.memories.append(memory)
        if not relative:
            self.absolute.add(mid)
        return mid
