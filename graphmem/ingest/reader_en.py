"""English for the offline reader (``language.Language``): a sentence's clauses, whom each is about and
what it says of them, read with the patterns of ``rules_en`` and the clause reading below (subject,
predicate, object; a deed done to a thing named first; a clause about something else)."""

from __future__ import annotations

import re
from typing import Any

from ..lexicon.forms import is_participle, is_past, third_person
from ..lexicon.topics import slot_of
from ..types import MAX_NAME
from . import en_builds, en_subjects, rules_en
from .language import Language, Reader
from .people import People
from .phrases import _EN_CUT, _EN_TRAIL, Found, clean, without_dangling
from .words_en import (
    _ELIDED,
    _ELIDED_BEFORE_TO,
    _EN_AUX,
    _EN_BE,
    _EN_CAUSAL,
    _EN_CLAUSE_END,
    _EN_COMPANION,
    _EN_CONTRACTIONS,
    _EN_DETERMINERS,
    _EN_DO_EMPHASIS,
    _EN_DROPPED_ADVERBS,
    _EN_EMPTY_OBJECTS,
    _EN_END_POINTERS,
    _EN_EVENT_PARTICIPLES,
    _EN_HAVE,
    _EN_KEPT_ADVERBS,
    _EN_LEAD,
    _EN_LISTENER,
    _EN_MODAL,
    _EN_NEGATED_AUX,
    _EN_NOT_DONE,
    _EN_NOT_DONE_TO,
    _EN_NOT_FACT_VERBS,
    _EN_NOT_LEAD,
    _EN_NOT_VERB,
    _EN_NP_DETERMINERS,
    _EN_OFTEN,
    _EN_PARTICLES,
    _EN_PLACE,
    _EN_POINTER_PARTICLE,
    _EN_POINTERS,
    _EN_PREPOSITIONS,
    _EN_PRONOUN_SUBJECTS,
    _EN_REPORTED,
    _EN_STRANDED,
    _EN_SUBJECT,
    _EN_THEREFORE,
    _EN_THOUGHT,
    _EN_VERBISH,
    _EN_WHEN_AFTER,
    _IT_DID,
    _MADE_WHAT,
    _NOT_PLACES,
    _SAID_BEFORE,
    MAX_OBJECT_WORDS,
)


def _ends_on_pointer(phrase: str) -> bool:
    """An English phrase whose end points back instead of naming: "help people go through it",
    "love doing that", "make it happen", "sat with her"; what it is about was said before, not here.
    ("a song that moved me" names a song: "that" before the last word leads a clause.)"""
    words = [w.strip(",.;:!?\"'").lower() for w in phrase.split()]
    return bool(words) and (
        words[-1] in _EN_END_POINTERS
        or (len(words) > 1 and words[-2] in {"it", "them"})
        or _EN_POINTER_PARTICLE.search(phrase) is not None
    )


def _says_how_only(obj: str) -> bool:
    """An object that is only how it was done ("really hard", "so well")."""
    words = [_bare(w) for w in obj.split()]
    said = " ".join(w for w in words if w not in _EN_DROPPED_ADVERBS and w not in {"very", "pretty", "quite"})
    return said in _EN_EMPTY_OBJECTS


def _relative_deed(segment: str, time_text: str | None) -> Found | None:
    """A thing named before the speaker says what they did to it: "this pride parade I went to a few
    weeks ago", "the space I designed", "that cake I baked for her" → (I) went to / designed / baked
    it. Only a determiner and up to three plain words before "I", a past deed after it."""
    words = _en_without_time(segment, time_text).replace("’", "'").split()
    for i, w in enumerate(words):
        if w not in {"I", "we", "We"} or i < 2 or i + 1 >= len(words):
            continue
        verb = _bare(words[i + 1])
        if not is_past(verb) or (verb in _EN_NOT_DONE and verb != "made") or verb in _EN_NOT_FACT_VERBS:
            continue
        j = i - 1
        while j >= 0 and i - j <= 4 and _bare(words[j]) not in _EN_NP_DETERMINERS:
            plain = re.fullmatch(r"[A-Za-z][\w'-]*", words[j])
            if not plain or _bare(words[j]) in _EN_PREPOSITIONS | _EN_POINTERS | frozenset(
                "and or but so is was".split()
            ):
                break
            j -= 1
        if j < 0 or _bare(words[j]) not in _EN_NP_DETERMINERS or j == i - 1:
            continue
        head = _bare(words[i - 1])
        if head in _EN_NOT_DONE_TO or words[i - 1].endswith((",", ".")):
            continue
        topic = verb
        # "went to" at the end, or before the time: the preposition was the thing's
        stranded = re.search(
            rf"\b(?:I|we) {re.escape(words[i + 1])} (?P<prep>{'|'.join(_EN_STRANDED)})\b\s*(?P<next>.*)$", segment
        )
        if stranded and (
            not stranded.group("next").strip(" ,.!?")
            or (
                time_text and re.match(rf"(?:on |in |at |during )?{re.escape(time_text)}", stranded.group("next"), re.I)
            )
            or _EN_WHEN_AFTER.match(stranded.group("next"))
        ):
            topic = f"{verb} {stranded.group('prep')}"
        said = [words[j].lower(), *words[j + 1 : i - 1], _bare(words[i - 1])]  # "This book" → this book
        thing = " ".join(said)
        return Found("EVENT", topic, thing, 0.5, kind="event")
    return None


def _talked_about(verb: str, rest: list[str]) -> bool:
    """ "talked about my transgender journey": a talk given on something named is a deed ("talked
    to him", "talked about it" are not)."""
    return (
        verb in {"talked", "spoke"}
        and len(rest) > 1
        and _bare(rest[0]) == "about"
        and _bare(rest[1]) in {"my", "our", "the", "a", "an"}
    )


def _en_reaction(predicate: str) -> bool:
    """A predicate that only answers the other speaker: "totally agree", "really hope so", "bet"
    ("forgot my umbrella" says what happened)."""
    words = [_bare(w) for w in predicate.split()]
    while words and words[0] in _EN_DROPPED_ADVERBS:
        words = words[1:]
    return bool(words) and words[0] in _EN_NOT_FACT_VERBS and all(w in _EN_POINTERS for w in words[1:])


def _points_elsewhere(obj: str) -> bool:
    """An English object that names nothing by itself: it, that you …, how it …, your painting."""
    words = [w.strip(",.;:!?\"'").lower() for w in obj.split()]
    if not words:
        return True
    if any(w in _EN_LISTENER for w in words):
        return True
    first = words[0]
    if first in {"that", "this", "these", "those", "her"} and len(words) > 1:
        # a determiner before a noun names something ("that stuff I baked"); before a clause it does not
        return words[1] in _EN_POINTERS or words[1] in frozenset(
            "i we he she they is was are were 's the a an my".split()
        )
    return first in _EN_POINTERS


def _en_words(text: str) -> list[str]:
    return [w for w in text.split() if w]


def _bare(word: str) -> str:
    return word.strip(",.;:!?\"'()").lower()


def _en_lead_only(text: str) -> bool:
    """Whether what stands before a subject is only lead-in words (yeah, last week, a name: Sam)."""
    for word in _en_words(text):
        bare = word.strip(",.;:!?\"'()…")
        if not bare or bare[0].isdigit() or not any(ch.isalpha() for ch in bare):  # numbers, emoji, dashes
            continue
        if bare.lower() in _EN_NOT_LEAD or (
            bare.lower() not in _EN_LEAD and not (bare[0].isupper() and bare.isalpha())
        ):
            return False
    return True


def _en_segments(sentence: str) -> list[tuple[int, int]]:
    """The clauses of an English sentence as spans; a lead-in alone ("Last Friday,") joins the
    clause after it."""
    starts, ends = [0], []
    for m in _EN_CLAUSE_END.finditer(sentence):
        if _EN_COMPANION.fullmatch(sentence[starts[-1] : m.start()].strip(" ,")):
            continue  # "My colleagues and I went …": one subject, not two clauses
        if m.start() > starts[-1]:
            ends.append(m.start())
            starts.append(m.end())
    ends.append(len(sentence))
    spans = [(a, b) for a, b in zip(starts, ends) if sentence[a:b].strip()]
    merged: list[tuple[int, int]] = []
    pending = None
    for a, b in spans:
        if pending is not None:
            a, pending = pending, None
        if _en_lead_only(sentence[a:b]) and (a, b) != spans[-1]:
            pending = a
            continue
        merged.append((a, b))
    return merged


def _agree(word: str, third: bool) -> str:
    """An auxiliary agreeing with the subject: am/is, have/has, do/does (we're → I am / Dana is)."""
    if word in {"am", "are", "is"}:
        return "is" if third else "am"
    if word in {"have", "has"}:
        return "has" if third else "have"
    if word in {"do", "does"}:
        return "does" if third else "do"
    if word in {"was", "were"}:
        return "was"
    return word


def _said_of_named(rest: str) -> str:
    """A first-person predicate as said of a named speaker: its first verb in the third person
    ("am gonna keep it up" → "is gonna keep it up", "totally agree" → "totally agrees")."""
    words = rest.split()
    i = 0
    while i < len(words) - 1 and words[i].lower() in _EN_DROPPED_ADVERBS | _EN_KEPT_ADVERBS:
        i += 1
    w = words[i].lower() if words else ""
    if w in {"am", "have", "do"}:
        words[i] = _agree(w, True)
    elif w in {"don't", "haven't"}:
        words[i] = {"don't": "doesn't", "haven't": "hasn't"}[w]
    elif w.isalpha() and w not in _EN_AUX and w not in _EN_MODAL and w not in {"was", "were", "can", "will"}:
        if not is_past(w) and not w.endswith(("ing", "s")):
            words[i] = third_person(w)
    return " ".join(words)


def _with_elided_subject(sentence: str) -> str:
    text = en_subjects.EN_LEAD.sub("", sentence)
    m = _ELIDED.match(text)
    if m is None or text.rstrip().endswith("?"):
        return sentence
    verb = m.group("verb").lower()
    if not is_past(verb) or verb in _EN_NOT_DONE or (m.group("to") and verb not in _ELIDED_BEFORE_TO):
        return sentence
    return f"{sentence[: len(sentence) - len(text)]}I {m.group('adverbs')}{verb} {text[m.end() :]}"


def _en_object(words: list[str], time_text: str | None) -> str | None:
    """The object of a clause: up to where the clause ends, time words and fillers taken out."""
    text = " ".join(words)
    if time_text:
        text = re.sub(re.escape(time_text), " ", text, flags=re.IGNORECASE)
    text = re.sub(r"\s+([,.;:!?])", r"\1", " ".join(text.split()))
    text = _EN_TRAIL.sub("", _EN_CUT.sub("", text)).strip(" ,.;:!?\"'")
    out = _en_words(text)
    if len(out) > MAX_OBJECT_WORDS:
        out = _en_words(text.split(",", 1)[0])
        if len(out) > MAX_OBJECT_WORDS:
            return None
    return " ".join(without_dangling(out)).strip(" ,.;:!?\"'")


def _en_without_time(text: str, time_text: str | None) -> str:
    """An English clause with its time taken out, and a word that only led to it ("about five
    years ago", "on Sunday")."""
    if not time_text:
        return text
    return re.sub(
        r"(?:\b(?:about|around|roughly|nearly|almost|over|since|for|in|on|at|during|by|from)\s+)?"
        + re.escape(time_text),
        " ",
        text,
        count=1,
        flags=re.IGNORECASE,
    )


def _en_clause_fact(
    segment: str, time_text: str | None, third: bool, negation: bool = False, bare: bool = False
) -> Found | None:
    """A clause whose subject is the speaker, as subject + predicate + object.

    ``third``: the speaker is named (Dana), so the verb agrees in the third person. ``negation``: a
    negated clause is kept, "not" in its topic (said of someone named: "doesn't work on Wednesdays"
    is what they do; the speaker's own "I don't know" says nothing). ``bare``: a verb alone is kept
    (a habit: "I run" every morning)."""
    body = _en_without_time(segment, time_text).replace("’", "'")
    m = _EN_SUBJECT.search(body)
    if m is None or not _en_lead_only(body[: m.start()]):
        return None
    words = [w for w in _en_words(body[m.end() :]) if any(ch.isalnum() for ch in w)]
    tokens: list[str] = []  # the predicate before its verb: auxiliaries, kept adverbs
    contr = (m.group("contr") or "").lower()
    if contr:
        tokens.append(_EN_CONTRACTIONS[contr])
    negated, i, do_verb = False, 0, False
    while i < len(words):
        w = words[i].lower().replace("’", "'")
        nxt = _bare(words[i + 1]) if i + 1 < len(words) else ""
        if w in _EN_NEGATED_AUX:
            tokens.append(_EN_NEGATED_AUX[w])
            negated = True
        elif w in {"not", "never"} or (w == "no" and nxt == "longer"):
            negated = True
            i += w == "no"
        elif w in {"do", "does", "did"} and nxt and nxt not in _EN_DO_EMPHASIS and nxt not in _EN_AUX:
            do_verb = True
            break  # "he does tai chi": do is the verb ("I do love jazz": only emphasis)
        elif w in _EN_AUX:
            tokens.append(w)
        elif w == "used" and nxt == "to":
            tokens.append("used to")
            i += 1
        elif w in {"kind", "sort"} and nxt == "of":
            i += 1
        elif w in _EN_DROPPED_ADVERBS:
            pass
        elif w in _EN_KEPT_ADVERBS:
            tokens.append(w)
        else:
            break
        i += 1
    if (negated and not negation) or i >= len(words):
        return None
    auxes = [t for t in tokens if t not in _EN_KEPT_ADVERBS]
    if any(a in _EN_MODAL for a in auxes) or (negated and not auxes):  # "never eats": not read
        return None
    raw = words[i]
    verb = _bare(raw)
    if "'d" in tokens:  # I'd been / I'd gone: had; I'd love / I'd go: would
        if not is_participle(verb):
            return None
        tokens = ["had" if t == "'d" else t for t in tokens]
        auxes = [t for t in tokens if t not in _EN_KEPT_ADVERBS]
    rest = words[i + 1 :]
    if verb in {"gonna", "going"} and (verb == "gonna" or (rest and _bare(rest[0]) == "to")):
        after = _bare(rest[1]) if verb == "going" and len(rest) > 1 else (_bare(rest[0]) if rest else "")
        goes_somewhere = verb == "going" and (
            after in {"a", "an", "the", "my", "our", "this", "that", "some"}
            or (len(rest) > 1 and rest[1][:1].isupper())
            or after[:1].isdigit()
        )
        if not goes_somewhere:  # going to + verb: a plan ("was going to": one given up)
            if any(a in {"was", "were"} for a in auxes):
                return None
            tokens = (tokens or ["am"]) + ["going to"]
            rest = rest[1:] if verb == "going" else rest
            if not rest:
                return None
            raw, verb, rest = rest[0], _bare(rest[0]), rest[1:]
            auxes = [t for t in tokens if t not in _EN_KEPT_ADVERBS]
    if auxes == ["had"] and not is_participle(verb):  # "I had a great time": had is the verb
        tokens, auxes, raw, verb, rest = [t for t in tokens if t != "had"], [], "had", "had", words[i:]
    if (
        not raw[:1].islower()
        or not verb.isalpha()
        or (verb in _EN_NOT_VERB and not do_verb)
        or (verb in _EN_NOT_FACT_VERBS and not (third and verb in _EN_REPORTED) and not _talked_about(verb, rest))
        or verb in _EN_POINTERS
    ):
        return None
    last = auxes[-1] if auxes else None
    predicate = [verb]
    if last in _EN_BE and not verb.endswith("ing") and verb != "going":
        # be + adjective or participle: only with its preposition ("passionate about", "born in")
        if rest and _bare(rest[0]) in _EN_PREPOSITIONS and verb not in _EN_PREPOSITIONS:
            predicate.append(_bare(rest[0]))
            rest = rest[1:]
        elif not (time_text and not rest and verb in _EN_EVENT_PARTICIPLES):  # "I was born in 1990"
            return None
    elif last in _EN_HAVE and not is_participle(verb):
        return None
    elif last in {"do", "does"} and not negated:  # an emphatic "I do love": the verb alone
        tokens = [t for t in tokens if t not in {"do", "does"}]
        auxes = [t for t in auxes if t not in {"do", "does"}]
    happened = False  # "got married", "got promoted": what happened, said with no object
    if verb in {"got", "get", "gets", "getting"} and rest and _bare(rest[0]) in _EN_EVENT_PARTICIPLES:
        predicate.append(_bare(rest[0]))
        rest, happened = rest[1:], True
    if rest and _bare(rest[0]) in _EN_PARTICLES and predicate == [verb] and not raw.endswith((",", ".")):
        predicate.append(_bare(rest[0]))
        rest = rest[1:]
    if raw.endswith((",", ".", "!", "?", ";")):
        rest = []
    if rest and rest[0].lower() == "to" and len(rest) > 1 and _bare(rest[1]) in _EN_NOT_FACT_VERBS:
        return None  # "I wanted to tell …": what follows is the point
    if third and not auxes and not is_past(verb) and predicate[0] == verb:
        predicate[0] = third_person(verb)
    head = [_agree(t, third) for t in tokens]
    if negated:  # "does not work", "has not seen"
        head = [*head, "not"]
    topic = " ".join(head + predicate)
    obj = _en_object(rest, time_text)
    if obj is None or (obj == "" and rest and not time_text):
        return None
    if obj and _points_elsewhere(obj):
        return None
    if not obj and not time_text and not happened and not (bare and not rest and not auxes):
        return None
    companion = m.group("with")
    attributes = {"with": companion} if companion and companion.lower() not in _EN_LEAD else None
    return Found("EVENT" if time_text else "FACT", topic[:MAX_NAME], obj or None, 0.5, attributes)


def _third_person(text: str, time_text: str | None) -> Found | None:
    """A causal clause about something else ("the train broke down"): its own subject and verb."""
    words = " ".join(_en_without_time(text, time_text).split()).strip(" ,.;!?").split(" ")
    first = words[0].lower().split("'")[0] if words else ""
    if not first or first in _EN_PRONOUN_SUBJECTS or first in _EN_LISTENER:
        return None
    for i, word in enumerate(words[:5]):
        w = word.lower()
        if i and (w in _EN_VERBISH or (w.endswith("ed") and len(w) > 3)):
            subject = " ".join(x for x in words[:i] if x.lower() not in _EN_DETERMINERS)
            if not subject or any(x.lower() in _EN_PRONOUN_SUBJECTS | _EN_LISTENER for x in words[:i]):
                return None
            obj = clean(" ".join(words[i + 1 :]), False)
            if obj and _points_elsewhere(obj):
                return None
            return Found("EVENT" if time_text else "FACT", w, obj, 0.5, subject=subject[:MAX_NAME])
    return None


def _with_place(found: Found) -> Found:
    """An English event's place, where its object ends with one (at the airport, in Soho)."""
    if found.memory_type == "EVENT" and found.object:
        m = _EN_PLACE.search(found.object)
        if m and m.group("place").lower() not in _NOT_PLACES:
            found.attributes = {**(found.attributes or {}), "place": m.group("place")}
    return found


def _of_what_is(rest: str) -> list[Found]:
    """Her shop is called Petal, his knee is bad: what a thing of theirs is (``_of_relative`` names whose)."""
    m = re.match(r"^(?:is|are|was|were) (?P<how>called |named )?(?P<what>[^,;:!?]+)", rest.strip(" ."))
    what = clean(m.group("what"), False, 60) if m else None
    if not m or not what or what.split()[0].lower() in {"not", "never", "no"} or _points_elsewhere(what):
        return []
    return [Found("FACT", "is called" if m.group("how") else "is", what, 0.5)]


class English(Language):
    code, me, joiner = "en", "I", " "
    keys = {"time": "time", "how often": "how often"}
    causal, therefore, often, thought = _EN_CAUSAL, _EN_THEREFORE, _EN_OFTEN, _EN_THOUGHT

    # --- sentences and clauses
    def plain(self, sentence: str) -> str:
        return en_builds.said_plainly(_with_elided_subject(sentence.replace("’", "'")))

    def it_did(self, cause: str) -> re.Match[str] | None:
        return _IT_DID.match(cause)

    def clauses(self, reader: Reader, sentence: str) -> list[str | None]:
        """What the sentence says whole (``rules_en.sentence_facts``), then its clauses, each dated by
        its own time or by one said in a clause of its own before it ("Last month was busy - I …")."""
        ids = [reader.add(f, None) for f in rules_en.sentence_facts(sentence, reader.named)]
        framing = None
        for a, b in _en_segments(sentence):
            segment = sentence[a:b].strip()
            own = reader.rules._time(segment, reader.ep)
            time_text = own or framing
            found, _ = reader._read(segment, time_text, None)
            if not found and (deed := _relative_deed(segment, time_text)) is not None:
                found = [self._to_person(reader, deed)]
            ids.extend(reader.add(f, time_text) for f in found)
            framing = own if own and not found else (None if own else framing)
        return ids

    def body(self, text: str, time_text: str | None) -> str:
        return " ".join(_en_without_time(text, time_text).split())

    def opening(
        self, reader: Reader, body: str, text: str, time_text: str | None, carried: Any
    ) -> tuple[str, str, list[Found], Found | None]:
        """The people a clause introduces ("my cousin Ruth"); the name said after the clause is no part of it."""
        body, met = rules_en.introduced(body, reader.people, reader.owner)
        if met and " name is " not in body:
            text = rules_en.without_name_said_after(text)
        return body, text, list(met), None

    # --- whom a clause is about
    role_of_someone = staticmethod(en_subjects.role_of_someone)
    partner_ended = staticmethod(en_subjects.partner_ended)

    def subject_of(self, body: str, people: People, owner: str, carried):
        return en_subjects.subject_of(body, people, owner)  # an English subject carries over no clause

    stated_people = staticmethod(en_subjects.stated_people)
    said_together = staticmethod(en_subjects.said_together)
    said_mine = staticmethod(rules_en.said_mine)

    def without_subject(self, body: str, text: str, time_text: str | None, generic: bool) -> list[Found]:
        """In a cause or an effect, a clause about something else ("the train broke down")."""
        event = _third_person(text, time_text) if generic else None
        return [event] if event else []

    def together(self, people: People, name: str | None) -> bool:
        return name is not None and people.together(name)  # "my parents love …" agrees as "I love …"

    # --- what it says of them
    def predicates(self, rest: str, third: bool, time_text: str | None) -> list[Found]:
        return rules_en.predicates(rest, third, time_text)

    def of_thing(self, rest: str) -> list[Found]:
        return _of_what_is(rest)

    def otherwise(
        self, reader: Reader, body: str, text: str, subj, time_text: str | None, generic: bool, habitual: bool
    ) -> list[Found]:
        found = _of_what_is(subj.rest) if subj.of_role else []
        if not found and subj.name is None and not (time_text or generic or habitual):
            found = self._done(reader, body)
        return found

    def _done(self, reader: Reader, text: str) -> list[Found]:
        """What the speaker did, said in the simple past with what they did it to ("I took a pottery
        class", "we adopted a rescue dog"): an event, undated when the clause says no time. Not "have
        done" (what someone has ever done, "I've seen that film") nor "am doing" (often how someone
        is: "staying positive")."""
        f = _en_clause_fact(text, None, reader.named)
        if f is None or not f.object or slot_of(f.topic) or _SAID_BEFORE.match(f.object):
            return []  # a slot's word ("joined a gym") is the slot's reading or none
        verb = f.topic.split()[0]
        made = verb == "made" and f.object.split()[0].lower() in _MADE_WHAT  # made a painting, not made me cry
        if not is_past(verb) or (verb in _EN_NOT_DONE and verb != "had" and not made):
            return []
        f.memory_type, f.kind = "EVENT", "event"
        f.object = re.sub(r"(?:\s+(?:recently|lately|too|as well|again|already|so far))+$", "", f.object, flags=re.I)
        done = self._to_person(reader, _with_place(f))
        if verb == "had" and done.object not in reader.people.names.values():
            return []  # "had a great time" is how it went; "had lunch with Chloe", time spent with her
        return [done]

    def _to_person(self, reader: Reader, f: Found) -> Found:
        """ "sold my old fridge to Brenda (at the market)": the person a deed was done to or with, when
        known by name, is its object, so the deed and what is said of them meet at one node."""
        obj = f.object or ""
        for said in sorted(reader.people.names.values(), key=len, reverse=True):
            m = re.search(rf"\b{re.escape(said)}\b", obj)
            if not m or m.start() == 0:
                continue
            after = obj[m.end() :].strip()
            where = re.fullmatch(r"(?:at|in|on|via) (?:the |a |an )?(?P<where>.+)", after)
            if after and not where:
                break  # more is said after the person than where: kept whole
            f.topic, f.object = f"{f.topic} {obj[: m.start()].strip()}"[:MAX_NAME], said
            if where:
                f.attributes = {**(f.attributes or {}), "place": where.group("where")}
            break
        return f

    def whole_clause(
        self, reader: Reader, text: str, subj, time_text: str | None, generic: bool, habitual: bool
    ) -> list[Found]:
        if subj.name is None:
            event = _en_clause_fact(text, time_text, reader.named, bare=habitual)
            if event is None and generic:
                event = _third_person(text, time_text)
            return [_with_place(event)] if event else []
        words = subj.rest.split()
        if not words:
            return []
        lead = 0  # adverbs before the verb stay as said: "still lives" → "I still live"
        while lead < len(words) - 1 and words[lead].lower() in _EN_DROPPED_ADVERBS | _EN_KEPT_ADVERBS:
            lead += 1
        first = words[lead].lower()
        base = {"is": "am", "has": "have", "does": "do", "goes": "go", "was": "was"}.get(first)
        if base is None:  # lives → live; a noun as well as a verb may follow (grows tomatoes): not a lemma
            base = first[:-1] if first.endswith("s") and not first.endswith("ss") and len(first) > 3 else first
        said = "I " + " ".join(words[:lead] + [base] + words[lead + 1 :])
        event = _en_clause_fact(said, time_text, True, True, bare=habitual)
        return [_with_place(event)] if event else []

    def whole_rest(self, reader: Reader, rest: str, subj) -> str | None:
        if _points_elsewhere(rest) or (subj.name is None and _en_reaction(rest)):
            return None
        return _said_of_named(rest) if subj.name is None and reader.named else rest  # "I'm thrilled" said by Ivy

    def plural(self, topic: str) -> str:
        return en_builds.plural(topic)

    def keeps(self, found: Found, topic: str, obj: str | None) -> bool:
        if found.kind != "relation" and _ends_on_pointer(obj or topic):
            return False
        return not (obj and _says_how_only(obj))


ENGLISH = English()
