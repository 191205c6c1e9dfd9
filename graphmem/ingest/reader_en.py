"""English for the offline reader (``language.Language``): a sentence's clauses, whom each is about and
what it says of them, read with the patterns of ``rules_en`` and the clause reading here (subject,
predicate, object; a deed done to a thing named first; a clause about something else), over closed sets
of function words. What a lemmatiser knows is asked of it (``lexicon.forms``)."""

from __future__ import annotations

import re
from typing import Any

from ..lexicon import word_map
from ..lexicon.forms import is_participle, is_past, third_person
from ..lexicon.roles import role_of
from ..lexicon.topics import slot_of
from ..types import MAX_NAME
from . import en_builds, en_subjects, rules_en
from .en_builds import MINE, PERSONS
from .language import Language, Reader
from .people import People
from .phrases import _EN_CUT, _EN_TRAIL, Found, clean, without_dangling

# --- the words: closed sets of function words, verbs that say no deed of their own, clause openings
# Objects that only point elsewhere: what they mean is not in the clause.
_POINTERS = frozenset(
    "it its it's that this them these those him her there here what how why whether if so something anything "
    "everything nothing one myself ourselves which who where when".split()
)

_LISTENER = {"you", "your", "yours", "yourself", "yourselves", "ya", "u", "y'all"}

_END_POINTERS = {"it", "them", "that", "this", "those", "these", "him", "her"}

# a pointer a verb's particle or "happen" follows, anywhere in the phrase: "pass it on to others",
# "keep it up", "help make that happen"
_POINTER_PARTICLE = re.compile(
    r"\b(?:it|them) (?:on|up|off|out|down|back|over|away|happen|work)\b|\b(?:that|this) happen\b", re.IGNORECASE
)

# An object that says how, not what: "worked hard", "pulled together", "did well"; no memory.
_EMPTY_OBJECTS = frozenset(
    "hard|together|well|a lot|lots|so much|too much|much|again|too|more|better|fine|ok|okay|out|around|"
    "a bit|a little|forever|anyway|alright|a great time|a good time|great|good".split("|")
)

# The head of a noun phrase a relative clause says when, why or how of: "the day I met him" is no deed
# done to a day.
_NOT_DONE_TO = frozenset("day time moment year week month night morning evening weekend summer way reason".split())

_NP_DETERMINERS = frozenset("this that the a an my our".split())

_WHEN_AFTER = re.compile(
    r"(?:(?:a few|a couple of|a|one|two|three|several|\d+) (?:days?|weeks?|months?|years?) ago|last \w+|yesterday|"
    r"today|recently|earlier|this (?:week|month|year|morning))\b",
    re.IGNORECASE,
)

# --- English clauses: subject, predicate, object -------------------------------------------
# A clause ends at a dash, a semicolon or a colon, and at a comma or a conjunction before a new
# subject ("…, it was so powerful", "… and I").
_CLAUSE_END = re.compile(
    r"\s+[-–—]+\s+|\s*[;:]\s+|"
    r",\s+(?=(?:(?:and|but|so|or|then|plus|because|cause|since|though|although|while|as|after|before|until|"
    r"when|once|if|unless)\s+(?:[a-z]+ly,?\s+)?)?(?:it|it's|he|she|they|you|this|that|there)\b)|"
    r",\s+(?=(?:[\w']+\s+){0,3}(?:I|we)(?:'\w+)?\b)|"
    r"\s+(?=(?:and|but|so|because|cause|since|though|although|while|after|before|until|when|once|if|unless)\s+"
    r"(?:[\w']+\s+){0,2}(?:I|we)(?:'\w+)?\b)|"
    # "… and she lives in Perth", "… and my mom is a doctor", "… and her birthday is May 3": a new subject after
    # "and" (a pronoun, someone by whose they are, something of theirs) opens a clause of its own, comma or not
    r"\s+(?=(?:and|but|while)\s+(?:(?:he|she|they)(?:'s|'re)?\s+(?:is|are|lives|live|works|work|teaches|studies|"
    r"used to|loves|love|likes|like|owns|own|runs|moved|got)|(?:my|our)\s+[\w']+(?:\s+[\w']+)?\s+(?:is|was|are|"
    r"were|works|worked|lives|lived)|(?:his|her)\s+[\w']+(?:\s+[\w']+)?\s+(?:is|was))\b)",
    re.IGNORECASE,
)

# Words that may stand before the subject of a clause that states a fact: interjections,
# conjunctions, discourse adverbs and time words. Not "if", "unless", "once" (a condition), nor
# anything else: "the city I live in" and "a bike ride we took" are not about the speaker.
_LEAD = frozenset(
    """
oh hey hi hello yeah yes yep yup wow whoa well so and but also plus actually anyway anyways btw honestly ok okay
lol haha um uh hmm right sure thanks then now today tonight recently lately finally just still again too really
by the way guess what because cause since after before when while though although as until till ever in on at
this last next past early earlier later ago morning afternoon evening night week weekend month year day days
weeks months years monday tuesday wednesday thursday friday saturday sunday mon tue wed thu fri sat sun
two three few couple of man omg gosh speaking luckily sadly fortunately unfortunately you know fyi
""".split()
)

_COMPANION = r"(?:[Mm]y|[Oo]ur) [a-z]+(?: [a-z]+)?|[A-Z][a-z]+"

_SUBJECT = re.compile(
    rf"(?:(?P<with>{_COMPANION}) and )?"
    r"(?P<subj>\bI|\bi|\b[Ww]e)(?P<contr>'m|'ve|'d|'ll|'re)?(?![\w'])"
)

# Words that open a condition, a guess or a question: a capitalised one is no speaker's name.
_NOT_LEAD = frozenset(
    "if unless once whether maybe perhaps hopefully wish suppose imagine what why how where who which that the a "
    "an even whenever someday probably".split()
)

_CONTRACTIONS = {"'m": "am", "'ve": "have", "'ll": "will", "'re": "are", "'d": "'d"}

_NEGATED_AUX = word_map(  # a negated auxiliary → the auxiliary
    "do: don't|dont, does: doesn't|doesnt, did: didn't|didnt, can: can't|cant|cannot, will: won't, have: haven't|havent, "
    "has: hasn't, had: hadn't, is: isn't, are: aren't, was: wasn't|wasnt, were: weren't, could: couldn't, "
    "would: wouldn't, should: shouldn't, must: mustn't, am: ain't"
)

_BE = {"am", "are", "is", "was", "were", "be", "been", "being"}

_HAVE = {"have", "has", "had"}

_AUX = _BE | _HAVE | set("do does did will would shall should can could may might must 'd".split())

_MODAL = {"would", "should", "could", "might", "may", "must", "shall"}  # a wish or a possibility

_DROPPED_ADVERBS = frozenset(
    "just really actually finally also recently totally truly definitely kinda so even already currently now all "
    "both literally basically honestly seriously officially super lately first only sort absolutely somehow "
    "luckily".split()
)

# Verbs an emphatic do stands before ("I do love it", "she did go"); before anything else do is the verb.
_DO_EMPHASIS = frozenset(
    """
love like enjoy hope want miss need remember think believe know feel have care mean appreciate agree understand
wish get go see try make take come look seem wonder not never always still really also just
""".split()
)

_KEPT_ADVERBS = {"always", "usually", "often", "sometimes", "rarely", "still"}

_PARTICLES = {"up", "out", "off", "down", "back", "away", "over", "around", "along"}

_PREPOSITIONS = {"about", "of", "for", "in", "into", "with", "to", "at", "by", "on", "from", "over", "as"}

# Verbs of saying, thinking and feeling: "I think …", "I told her …", "I wanted to tell you …"
# report or hedge; the fact, if any, is in what follows, which is not this clause's object.
_NOT_FACT_VERBS = frozenset(
    """
think thinks thought guess guessed mean means meant know knows knew hope hopes hoped hoping wish wishes wished
feel feels felt feeling bet agree agreed wonder wondered wondering suppose supposed believe believed imagine
imagined understand understood appreciate appreciated remember remembered remembering forget forgot forgotten
say says said saying tell tells told telling ask asks asked asking thank thanked wait waiting need needs needed
mention mentioned realize realized realise realised hear heard recall recalled promise promised admit admitted
doubt doubted reckon share shared check checked let update chat chatted talk talked reach reached owe
""".split()
)

# What someone else said is a thing they did ("Ms Harper said my daughter concentrates well"), kept
# with what they said; the speaker's own "I said / I told her" still frames what follows.
_REPORTED = frozenset({"say", "says", "said", "tell", "tells", "told", "mention", "mentioned"})

_NOT_VERB = frozenset(
    "a an the my our some these those this that it to so very really pretty quite not no yes yeah all just more "
    "too last much many also still ever never always even only both sure glad sorry here there gonna wanna gotta "
    "can could would should might must will shall may do did does and or but if like in at on of for with from by "
    "as about one ok okay totally definitely actually honestly already hope think".split()
)

# Participles that say something happened ("I got married last June"), not how one felt ("I was tired").
_EVENT_PARTICIPLES = frozenset(
    "born married engaged divorced promoted hired fired elected injured hurt diagnosed baptized baptised accepted "
    "admitted adopted discharged released vaccinated robbed evicted laid graduated".split()
)

MAX_OBJECT_WORDS = 16  # a longer run-on object cannot be told where it ends: no memory

# Past verbs that say no deed of their own: a state, a stance, a try or a report
_NOT_DONE = frozenset(
    "had was were did got made used wanted loved liked enjoyed hated tried seemed looked sounded felt thought "
    "needed meant kept let put figured noticed".split()
)

# What "made" is followed by when it made a thing ("made a painting", "made my own pots")
_MADE_WHAT = frozenset("a an another some my our two three four five several".split())

# An object that points at what was said before ("that movie", "it", "them"): no deed of its own
_SAID_BEFORE = re.compile(r"^(?:it|that|this|these|those|them)\b|^one$", re.IGNORECASE)

# A chat sentence that leaves its "I" out: a past verb first, then what it was done to ("Took a
# short trip to Rome", "Lost my job yesterday", "Just started doing aerial yoga"), not how someone
# feels ("Excited for the future!", "Impressed by your work") nor a question ("Got any tips?").
_ELIDED = re.compile(
    r"^(?P<adverbs>(?:(?:just|also|finally|recently|actually)\s+)*)(?P<verb>[A-Z][a-z]+|[a-z]+) "
    r"(?=(?:a|an|the|my|our|some|up|off|\w+ing|(?P<to>to) [a-z]+)\b)",
    re.IGNORECASE,
)

_ELIDED_BEFORE_TO = frozenset("started began decided went came moved headed".split())

_CAUSAL = [
    re.compile(r"^because (?:of )?(?P<a>[^,]+), (?:so )?(?P<b>.+)$", re.IGNORECASE),
    re.compile(r"^(?P<b>.+?),? because (?:of )?(?P<a>[^,;]+)", re.IGNORECASE),
    re.compile(
        r"^(?P<a>.+?)(?:,| -|;) (?:so|therefore|which is why|that's why|and so) "
        r"(?P<b>(?:I|we|he|she|they|it|my|our)\b.+)$",
        re.IGNORECASE,
    ),
]

# How often someone does something: a habit, not a date ("every Saturday" is no one Saturday).
_DAY_NAMES = "Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday"

_OFTEN = re.compile(
    rf"\b(?:(?:every|each) (?:other |single )?(?:day|morning|afternoon|evening|night|week|weekend|month|year|"
    rf"summer|winter|{_DAY_NAMES})|on (?:the )?(?:weekends|weekdays|weeknights|(?:{_DAY_NAMES})s)|"
    r"(?:once|twice|three times|four times|a few times|\d+ times) (?:a|per) (?:day|week|month|year)|"
    r"(?:daily|weekly)(?! li(?:fe|ves)\b))\b",  # "in our daily lives": no how often
    re.IGNORECASE,
)

# A cause or an effect kept whole is none when it only says what someone knows or thinks is so
# ("so I know I'll be ok", 所以我相信会好的): the clause after the verb is the point, and read
# whole with it, it makes a fact of the knowing (Ivy knows I'll be ok). Feelings stay (觉得很累).
_THOUGHT = re.compile(
    r"^(?:(?:just|really|still|also|now|do|did|kind of|kinda)\s+)*"
    r"(?:know|knew|think|thought|guess|believe|suppose|bet|reckon|hope|doubt|imagine|realized?|realised?|"
    r"figured?|wonder|am sure|was sure|'m sure)\s+"
    r"(?:that|I(?:'ll|'m|'d|'ve)?|(?:you|we|they)(?:'ll|'re)?|(?:he|she|it)(?:'ll|'s)?|there|everything|things)\b",
    re.IGNORECASE,
)

_VERBISH = frozenset(
    "is was are were has had have will would can could did does do got gets kept broke went came made said became "
    "felt looked seemed took gave ran fell left told won lost began started stopped makes keeps needs wants loves "
    "hates likes".split()
)

# A pronoun subject names nobody the clause says: "it really bugged me" is no fact about anything.
_PRONOUN_SUBJECTS = frozenset(
    "i we you it he she they this that there these those which who what everyone someone something everything".split()
)

# a cause said of "it" doing something (it kept me up at night): "it" is what the effect is about
_IT_DID = re.compile(
    r"^\s*(?P<it>it|It) (?!(?:is|was|'s|will|would|can|could|may|might|must|should|does|did|has|had|isn't|wasn't|"
    r"doesn't|didn't|rained|snowed|poured|seems|seemed|looks|looked|feels|felt|sounds|sounded)\b)[a-z]+\b"
)

_THEREFORE = re.compile(
    r"^(?:so|that's why|that is why|this is why|which is why|because of that|as a result)[,]?\s+", re.I
)

_PLACE = re.compile(r"\b(?:at|in) (?:the |a |an )?(?P<place>[A-Z][\w'.-]*(?: [A-Z][\w'.-]*)*|[a-z]+)$")

# words after "in" / "at" that say how, not where ("moving in together", "in advance", "at all")
_NOT_PLACES = frozenset(
    "home all time bed person general together advance love trouble touch mind charge tears shock "
    "fact particular short turn total private public secret peace front return".split()
)


def _ends_on_pointer(phrase: str) -> bool:
    """An English phrase whose end points back instead of naming: "help people go through it",
    "love doing that", "make it happen", "sat with her"; what it is about was said before, not here.
    ("a song that moved me" names a song: "that" before the last word leads a clause.)"""
    words = [w.strip(",.;:!?\"'").lower() for w in phrase.split()]
    return bool(words) and (
        words[-1] in _END_POINTERS
        or (len(words) > 1 and words[-2] in {"it", "them"})
        or _POINTER_PARTICLE.search(phrase) is not None
    )


def _relative_deed(segment: str, time_text: str | None) -> Found | None:
    """A thing named before the speaker says what they did to it: "this pride parade I went to a few
    weeks ago", "the space I designed", "that cake I baked for her" → (I) went to / designed / baked
    it. Only a determiner and up to three plain words before "I", a past deed after it."""
    words = _without_time(segment, time_text).replace("’", "'").split()
    for i, w in enumerate(words):
        if w not in {"I", "we", "We"} or i < 2 or i + 1 >= len(words):
            continue
        verb = _bare(words[i + 1])
        if not is_past(verb) or (verb in _NOT_DONE and verb != "made") or verb in _NOT_FACT_VERBS:
            continue
        j = i - 1
        while j >= 0 and i - j <= 4 and _bare(words[j]) not in _NP_DETERMINERS:
            plain = re.fullmatch(r"[A-Za-z][\w'-]*", words[j])
            if not plain or _bare(words[j]) in _PREPOSITIONS | _POINTERS | frozenset("and or but so is was".split()):
                break
            j -= 1
        if j < 0 or _bare(words[j]) not in _NP_DETERMINERS or j == i - 1:
            continue
        if _bare(words[i - 1]) in _NOT_DONE_TO or words[i - 1].endswith((",", ".")):
            continue
        # "went to" at the end, or before the time: the preposition was the thing's
        prep = r"(?P<prep>to|at|in|on|for|with|about|from|into)"
        stranded = re.search(rf"\b(?:I|we) {re.escape(words[i + 1])} {prep}\b\s*(?P<next>.*)$", segment)
        after = stranded.group("next") if stranded else ""
        timed = time_text and re.match(rf"(?:on |in |at |during )?{re.escape(time_text)}", after, re.I)
        if stranded and (not after.strip(" ,.!?") or timed or _WHEN_AFTER.match(after)):
            verb = f"{verb} {stranded.group('prep')}"
        thing = " ".join([words[j].lower(), *words[j + 1 : i - 1], _bare(words[i - 1])])  # "This book" → this book
        return Found("EVENT", verb, thing, 0.5, kind="event")
    return None


def _talked_about(verb: str, rest: list[str]) -> bool:
    """ "talked about my transgender journey": a talk given on something named is a deed ("talked
    to him", "talked about it" are not)."""
    about = " ".join(_bare(w) for w in rest[:2])
    return verb in {"talked", "spoke"} and re.fullmatch(r"about (?:my|our|the|a|an)", about) is not None


def _reaction(predicate: str) -> bool:
    """A predicate that only answers the other speaker: "totally agree", "really hope so", "bet"
    ("forgot my umbrella" says what happened)."""
    words = [_bare(w) for w in predicate.split()]
    while words and words[0] in _DROPPED_ADVERBS:
        words = words[1:]
    return bool(words) and words[0] in _NOT_FACT_VERBS and all(w in _POINTERS for w in words[1:])


def _points_elsewhere(obj: str) -> bool:
    """An English object that names nothing by itself: it, that you …, how it …, your painting."""
    words = [w.strip(",.;:!?\"'").lower() for w in obj.split()]
    if not words or any(w in _LISTENER for w in words):
        return True
    first = words[0]
    if first in {"that", "this", "these", "those", "her"} and len(words) > 1:
        # a determiner before a noun names something ("that stuff I baked"); before a clause it does not
        return words[1] in _POINTERS or words[1] in frozenset("i we he she they is was are were 's the a an my".split())
    return first in _POINTERS


def _bare(word: str) -> str:
    return word.strip(",.;:!?\"'()").lower()


def _lead_only(text: str) -> bool:
    """Whether what stands before a subject is only lead-in words (yeah, last week, a name: Sam)."""
    for word in text.split():
        bare = word.strip(",.;:!?\"'()…")
        if not bare or bare[0].isdigit() or not any(ch.isalpha() for ch in bare):  # numbers, emoji, dashes
            continue
        if bare.lower() in _NOT_LEAD or (bare.lower() not in _LEAD and not (bare[0].isupper() and bare.isalpha())):
            return False
    return True


def _segments(sentence: str) -> list[str]:
    """The clauses of an English sentence; a lead-in alone ("Last Friday,") joins the clause after it."""
    starts, ends = [0], []
    for m in _CLAUSE_END.finditer(sentence):
        # not after "My colleagues" of "My colleagues and I went …": one subject, not two clauses
        if m.start() > starts[-1] and not re.fullmatch(_COMPANION, sentence[starts[-1] : m.start()].strip(" ,")):
            ends.append(m.start())
            starts.append(m.end())
    ends.append(len(sentence))
    spans = [(a, b) for a, b in zip(starts, ends) if sentence[a:b].strip()]
    merged: list[str] = []
    start = None  # where a lead-in alone began, to be joined to the clause after it
    for a, b in spans:
        start = a if start is None else start
        if not (_lead_only(sentence[start:b]) and (start, b) != spans[-1]):
            merged.append(sentence[start:b].strip())
            start = None
    return merged


def _first_verb(words: list[str]) -> int:
    """Where a predicate's verb is: after the adverbs before it (at its last word at most)."""
    i = 0
    while i < len(words) - 1 and words[i].lower() in _DROPPED_ADVERBS | _KEPT_ADVERBS:
        i += 1
    return i


def _said_of_named(rest: str) -> str:
    """A first-person predicate as said of a named speaker: its first verb in the third person
    ("am gonna keep it up" → "is gonna keep it up", "totally agree" → "totally agrees")."""
    words = rest.split()
    i = _first_verb(words)
    w = words[i].lower() if words else ""
    if w in MINE:
        words[i] = PERSONS[MINE[w]][0]
    elif w.isalpha() and w not in _AUX and not is_past(w) and not w.endswith(("ing", "s")):
        words[i] = third_person(w)
    return " ".join(words)


def _with_elided_subject(sentence: str) -> str:
    text = en_subjects.EN_LEAD.sub("", sentence)
    m = _ELIDED.match(text)
    if m is None or text.rstrip().endswith("?"):
        return sentence
    verb = m.group("verb").lower()
    if not is_past(verb) or verb in _NOT_DONE or (m.group("to") and verb not in _ELIDED_BEFORE_TO):
        return sentence
    return f"{sentence[: len(sentence) - len(text)]}I {m.group('adverbs')}{verb} {text[m.end() :]}"


def _object(words: list[str], time_text: str | None) -> str | None:
    """The object of a clause: up to where the clause ends, time words and fillers taken out."""
    text = " ".join(words)
    if time_text:
        text = re.sub(re.escape(time_text), " ", text, flags=re.IGNORECASE)
    text = re.sub(r"\s+([,.;:!?])", r"\1", " ".join(text.split()))
    text = _EN_TRAIL.sub("", _EN_CUT.sub("", text)).strip(" ,.;:!?\"'")
    out = text.split() if len(text.split()) <= MAX_OBJECT_WORDS else text.split(",", 1)[0].split()  # a run-on's start
    if len(out) > MAX_OBJECT_WORDS:
        return None
    return " ".join(without_dangling(out)).strip(" ,.;:!?\"'")


def _without_time(text: str, time_text: str | None) -> str:
    """An English clause with its time taken out, and a word that only led to it ("about five
    years ago", "on Sunday")."""
    if not time_text:
        return text
    lead = r"(?:\b(?:about|around|roughly|nearly|almost|over|since|for|in|on|at|during|by|from)\s+)?"
    return re.sub(lead + re.escape(time_text), " ", text, count=1, flags=re.IGNORECASE)


def _clause_fact(
    segment: str, time_text: str | None, third: bool, negation: bool = False, bare: bool = False
) -> Found | None:
    """A clause whose subject is the speaker, as subject + predicate + object.

    ``third``: the speaker is named (Dana), so the verb agrees in the third person. ``negation``: a
    negated clause is kept, "not" in its topic (said of someone named: "doesn't work on Wednesdays"
    is what they do; the speaker's own "I don't know" says nothing). ``bare``: a verb alone is kept
    (a habit: "I run" every morning)."""
    body = _without_time(segment, time_text).replace("’", "'")
    m = _SUBJECT.search(body)
    if m is None or not _lead_only(body[: m.start()]):
        return None
    words = [w for w in body[m.end() :].split() if any(ch.isalnum() for ch in w)]
    # the predicate before its verb: auxiliaries, kept adverbs
    tokens = [_CONTRACTIONS[m.group("contr").lower()]] if m.group("contr") else []
    negated, i, do_verb = False, 0, False
    while i < len(words):
        w = words[i].lower()
        nxt = _bare(words[i + 1]) if i + 1 < len(words) else ""
        if w in _NEGATED_AUX:
            tokens.append(_NEGATED_AUX[w])
            negated = True
        elif w in {"not", "never"} or (w == "no" and nxt == "longer"):
            negated = True
            i += w == "no"
        elif w in {"do", "does", "did"} and nxt and nxt not in _DO_EMPHASIS and nxt not in _AUX:
            do_verb = True
            break  # "he does tai chi": do is the verb ("I do love jazz": only emphasis)
        elif w in _AUX or w in _KEPT_ADVERBS:
            tokens.append(w)
        elif w == "used" and nxt == "to":
            tokens.append("used to")
            i += 1
        elif w in {"kind", "sort"} and nxt == "of":
            i += 1
        elif w not in _DROPPED_ADVERBS:
            break
        i += 1
    if (negated and not negation) or i >= len(words):
        return None
    raw, verb = words[i], _bare(words[i])
    if "'d" in tokens and not is_participle(verb):  # I'd love / I'd go: would, not read
        return None
    tokens = ["had" if t == "'d" else t for t in tokens]  # I'd been / I'd gone: had
    auxes = [t for t in tokens if t not in _KEPT_ADVERBS]
    if any(a in _MODAL for a in auxes) or (negated and not auxes):  # "never eats": not read
        return None
    rest = words[i + 1 :]
    if verb in {"gonna", "going"} and (verb == "gonna" or (rest and _bare(rest[0]) == "to")):
        after = _bare(rest[1]) if len(rest) > 1 else ""  # going to a place, to Rome, to 5 …
        named = len(rest) > 1 and rest[1][:1].isupper()
        goes_somewhere = verb == "going" and (after in _NP_DETERMINERS | {"some"} or named or after[:1].isdigit())
        if not goes_somewhere:  # going to + verb: a plan ("was going to": one given up)
            rest = rest[1:] if verb == "going" else rest
            if not rest or any(a in {"was", "were"} for a in auxes):
                return None
            tokens = (tokens or ["am"]) + ["going to"]
            raw, verb, rest = rest[0], _bare(rest[0]), rest[1:]
            auxes = [t for t in tokens if t not in _KEPT_ADVERBS]
    if auxes == ["had"] and not is_participle(verb):  # "I had a great time": had is the verb
        tokens, auxes, raw, verb, rest = [t for t in tokens if t != "had"], [], "had", "had", words[i:]
    if (
        not raw[:1].islower()
        or not verb.isalpha()
        or (verb in _NOT_VERB and not do_verb)
        or (verb in _NOT_FACT_VERBS and not (third and verb in _REPORTED) and not _talked_about(verb, rest))
        or verb in _POINTERS
    ):
        return None
    last = auxes[-1] if auxes else None
    predicate = [verb]
    if last in _BE and not verb.endswith("ing") and verb != "going":
        # be + adjective or participle: only with its preposition ("passionate about", "born in")
        if rest and _bare(rest[0]) in _PREPOSITIONS and verb not in _PREPOSITIONS:
            predicate.append(_bare(rest.pop(0)))
        elif not (time_text and not rest and verb in _EVENT_PARTICIPLES):  # "I was born in 1990"
            return None
    elif last in _HAVE and not is_participle(verb):
        return None
    elif last in {"do", "does"} and not negated:  # an emphatic "I do love": the verb alone
        tokens = [t for t in tokens if t not in {"do", "does"}]
        auxes = [t for t in auxes if t not in {"do", "does"}]
    # "got married", "got promoted": what happened, said with no object
    happened = verb in {"got", "get", "gets", "getting"} and bool(rest) and _bare(rest[0]) in _EVENT_PARTICIPLES
    if happened or (rest and _bare(rest[0]) in _PARTICLES and predicate == [verb] and not raw.endswith((",", "."))):
        predicate.append(_bare(rest.pop(0)))  # "got married"; a particle: "pick up"
    if raw.endswith((",", ".", "!", "?", ";")):
        rest = []
    if rest and rest[0].lower() == "to" and len(rest) > 1 and _bare(rest[1]) in _NOT_FACT_VERBS:
        return None  # "I wanted to tell …": what follows is the point
    if third and not auxes and not is_past(verb):
        predicate[0] = third_person(verb)
    head = [PERSONS[MINE[t]][0] if t in MINE and third else MINE.get(t, t) for t in tokens]
    head += ["not"] if negated else []  # "has not seen"
    topic = " ".join(head + predicate)
    obj = _object(rest, time_text)
    if obj is None or (obj == "" and rest and not time_text) or (obj and _points_elsewhere(obj)):
        return None
    if not obj and not time_text and not happened and not (bare and not rest and not auxes):
        return None
    companion = m.group("with")
    attributes = {"with": companion} if companion and companion.lower() not in _LEAD else None
    return Found("EVENT" if time_text else "FACT", topic[:MAX_NAME], obj or None, 0.5, attributes)


# "The Panasonic air purifier works really well", "Central Park is really nice": what the speaker thinks of a
# thing named, the thing the memory's subject (as 华为Mate60真心好用), so what else is said of it is one step away
_JUDGED = (
    r"good|great|nice|amazing|awesome|excellent|fantastic|wonderful|perfect|brilliant|lovely|beautiful|"
    r"comfortable|reliable|impressive|solid|bad|terrible|awful|disappointing|noisy|overpriced|worth it|well|fine"
)
_REVIEW = re.compile(
    r"^(?:(?:honestly|really|actually|and|but|so|well|oh|wow),?\s+)*(?P<det>(?:the|my|our|this|that|these|those)\s+)?"
    r"(?:(?:new|old|current)\s+)?(?P<x>[^,;:]+?)\s+"
    r"(?P<how>(?:is|are|was|were|works|worked|has been|have been|runs|looks|sounds|feels|tastes)\s+"
    r"(?:(?:really|so|very|pretty|quite|super|absolutely|just|honestly|incredibly|amazingly|surprisingly)\s+)*"
    rf"(?:{_JUDGED})\b[^,;]*)(?:[,;].*)?$",  # what follows a comma is the next thing said
    re.IGNORECASE,
)
# the kinds of place a name ends in (Central Park, Westfield Mall): a place named, not a person
_A_PLACE = re.compile(
    r"\b(?:park|mall|museum|hotel|cafe|café|restaurant|hospital|cent(?:er|re)|gardens?|square|beach|lake|gym|"
    r"market|library|zoo|stadium|theat(?:er|re)|bakery|bar)$",
    re.IGNORECASE,
)


def _review(body: str) -> Found | None:
    """What the speaker thinks of a thing they name: at most five words, one capitalised or holding a digit
    (iPhone 13), said as a thing (after the or my, or a kind of place), no pronoun or preposition in them."""
    m = _REVIEW.match(body.strip(" .!?"))
    if m is None:
        return None
    words = m.group("x").split()
    if not 1 <= len(words) <= 5 or any(w.lower() in _PRONOUN_SUBJECTS | _POINTERS | _PREPOSITIONS for w in words):
        return None
    if not any(any(c.isdigit() or c.isupper() for c in w) for w in words):
        return None  # my job, the weather: nothing named
    if any(role_of(w) is not None for w in words) or not (m.group("det") or _A_PLACE.search(m.group("x"))):
        return None  # my brother Tom, Tom: a person
    return Found("FACT", m.group("how").lower(), None, 0.5, subject=" ".join(words)[:MAX_NAME], kind="fact")


def _third_person(text: str, time_text: str | None) -> Found | None:
    """A causal clause about something else ("the train broke down"): its own subject and verb."""
    words = " ".join(_without_time(text, time_text).split()).strip(" ,.;!?").split(" ")
    first = words[0].lower().split("'")[0]
    if not first or first in _PRONOUN_SUBJECTS or first in _LISTENER:
        return None
    for i, word in enumerate(words[:5]):
        w = word.lower()
        if i and (w in _VERBISH or (w.endswith("ed") and len(w) > 3)):
            subject = " ".join(x for x in words[:i] if x.lower() not in {"the", "a", "an"})  # this, that: pronouns
            if not subject or any(x.lower() in _PRONOUN_SUBJECTS | _LISTENER for x in words[:i]):
                return None
            obj = clean(" ".join(words[i + 1 :]), False)
            if obj and _points_elsewhere(obj):
                return None
            return Found("EVENT" if time_text else "FACT", w, obj, 0.5, subject=subject[:MAX_NAME])
    return None


def _with_place(found: Found) -> Found:
    """An English event's place, where its object ends with one (at the airport, in Soho)."""
    m = _PLACE.search(found.object) if found.memory_type == "EVENT" and found.object else None
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


# a topic said with a verb of planning ("am planning", "plan"; not "planned")
_PLANNED = re.compile(r"^(?:(?:am|is|are) )?(?:planning|plans?|intends?|intending)\b", re.IGNORECASE)


class English(Language):
    code, me, joiner = "en", "I", " "
    keys = {"time": "time", "how often": "how often"}
    causal, therefore, often, thought = _CAUSAL, _THEREFORE, _OFTEN, _THOUGHT

    # --- sentences and clauses
    def plain(self, sentence: str) -> str:
        return en_builds.said_plainly(_with_elided_subject(sentence.replace("’", "'")))

    def it_did(self, cause: str) -> re.Match[str] | None:
        return _IT_DID.match(cause)

    def planned(self, topic: str) -> bool:
        return _PLANNED.match(topic) is not None

    def clauses(self, reader: Reader, sentence: str) -> list[str | None]:
        """What the sentence says whole (``rules_en.sentence_facts``), then its clauses, each dated by
        its own time or by one said in a clause of its own before it ("Last month was busy - I …")."""
        ids = [reader.add(f, None) for f in rules_en.sentence_facts(sentence, reader.named)]
        framing = None
        for segment in _segments(sentence):
            own = reader.rules._time(segment, reader.ep)
            time_text = own or framing
            found, _ = reader._read(segment, time_text, None)
            if not found and (deed := _relative_deed(segment, time_text)) is not None:
                found = [self._to_person(reader, deed)]
            ids.extend(reader.add(f, time_text) for f in found)
            framing = own if own and not found else (None if own else framing)
        return ids

    def body(self, text: str, time_text: str | None) -> str:
        return " ".join(_without_time(text, time_text).split())

    def opening(
        self, reader: Reader, body: str, text: str, time_text: str | None, carried: Any
    ) -> tuple[str, str, list[Found], Found | None]:
        """The people a clause introduces ("my cousin Ruth"); the name said after the clause is no part of it."""
        body, met = en_subjects.introduced(body, reader.people, reader.owner)
        if met and " name is " not in body:
            text = en_subjects.NAME_SAID_AFTER.sub("", text)
        return body, text, met, None if met else _review(body)  # the Panasonic air purifier works well

    # --- whom a clause is about
    role_of_someone = staticmethod(en_subjects.role_of_someone)
    partner_ended = staticmethod(en_subjects.partner_ended)
    stated_people = staticmethod(en_subjects.stated_people)
    said_mine = staticmethod(en_subjects.said_mine)
    subject_of = staticmethod(en_subjects.subject_of)

    def said_together(self, text: str) -> bool:  # "Jess and I have been friends since college": all it says
        return en_subjects._TOGETHER.match(text) is not None

    def without_subject(self, body: str, text: str, time_text: str | None, generic: bool) -> list[Found]:
        """In a cause or an effect, a clause about something else ("the train broke down")."""
        event = _third_person(text, time_text) if generic else None
        return [event] if event else []

    def together(self, people: People, name: str | None) -> bool:
        return name is not None and people.together(name)  # "my parents love …" agrees as "I love …"

    # --- what it says of them
    predicates = staticmethod(rules_en.predicates)
    attribute_of = staticmethod(rules_en.attribute_of)
    of_thing = staticmethod(_of_what_is)

    def plural(self, topic: str) -> str:
        """A topic read as the speaker's, agreeing with people spoken of together: am into → are into."""
        head, _, tail = topic.partition(" ")
        return f"{PERSONS[head][1] if head in PERSONS else head} {tail}".strip()

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
        f = _clause_fact(text, None, reader.named)
        if f is None or not f.object or slot_of(f.topic) or _SAID_BEFORE.match(f.object):
            return []  # a slot's word ("joined a gym") is the slot's reading or none
        verb = f.topic.split()[0]
        made = verb == "made" and f.object.split()[0].lower() in _MADE_WHAT  # made a painting, not made me cry
        if not is_past(verb) or (verb in _NOT_DONE and verb != "had" and not made):
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
        words, event = subj.rest.split(), None
        if subj.name is None:
            event = _clause_fact(text, time_text, reader.named, bare=habitual)
            event = event or (_third_person(text, time_text) if generic else None)
        elif words:  # said as the speaker's own: "still lives" → "I still live"
            lead = _first_verb(words)  # adverbs before the verb stay as said
            first = words[lead].lower()
            base = MINE.get(first, "go" if first == "goes" else None)
            if base is None:  # lives → live; a noun as well as a verb may follow (grows tomatoes): not a lemma
                base = first[:-1] if first.endswith("s") and not first.endswith("ss") and len(first) > 3 else first
            said = "I " + " ".join(words[:lead] + [base] + words[lead + 1 :])
            event = _clause_fact(said, time_text, True, True, bare=habitual)
        return [_with_place(event)] if event else []

    def whole_rest(self, reader: Reader, rest: str, subj) -> str | None:
        if _points_elsewhere(rest) or (subj.name is None and _reaction(rest)):
            return None
        return _said_of_named(rest) if subj.name is None and reader.named else rest  # "I'm thrilled" said by Ivy

    def keeps(self, found: Found, topic: str, obj: str | None) -> bool:
        pointer = found.kind != "relation" and _ends_on_pointer(obj or topic)
        said = [w for w in map(_bare, (obj or "").split()) if w not in _DROPPED_ADVERBS | {"very", "pretty", "quite"}]
        return not (pointer or (obj and " ".join(said) in _EMPTY_OBJECTS))  # "really hard": only how it was done


ENGLISH = English()
