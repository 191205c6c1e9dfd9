"""English: what each pattern of ``rules_en`` builds from its match — the reading it names
(``lexicon/readings.py``) with its object, time and place — and the objects' ends; ``said_plainly``
rewrites a sentence into the shape the patterns read."""

from __future__ import annotations

import re
from collections.abc import Callable

from ..lexicon.forms import base_form, gerund, lemma, third_person
from ..lexicon.roles import TITLE_WORDS
from .phrases import Found, clean, read_as, without_dangling

_I = re.IGNORECASE

_NOT_THINGS = re.compile(
    r"^(?:a |an |the |some |two |three |new )?(?:question|idea|feeling|meeting|appointment|problem|headache|cold|"
    r"fever|time|chance|lot|bit|day|week|plan|dream|doubt|point|look|go|try|break|talk|chat|call|class|lesson|"
    r"test|exam|shift|date|reason|job|deadline|interview|favor|favour|crush|sec|minute|moment|habit|tendency|"
    r"way|hard time|good time|great time|blast|few|couple)\b",
    re.IGNORECASE,
)

_FUTURE = re.compile(
    r"\b(?:next|tomorrow|tonight|later|upcoming|coming|soon|this (?:weekend|evening|afternoon|summer|fall|winter|"
    r"spring|friday|saturday|sunday|monday|tuesday|wednesday|thursday))\b",
    re.IGNORECASE,
)

# Where a child or a student goes: a school by its name ("Greenway Primary", "Oakfield nursery").
_SCHOOLISH = re.compile(
    r"\b(?:school|primary|nursery|kindergarten|pre-?school|academy|college|university|uni|high|elementary|"
    r"montessori|sixth form|infants|juniors)\b",
    re.IGNORECASE,
)

# A comma inside an object: between two adjectives after a determiner ("a safe, inviting place") and
# before "as well as" ("both classical, as well as modern music"); the object goes on past it.
_ADJECTIVE_COMMA = re.compile(
    r",\s+(?!(?:and|or|but|so|which|who|that|then|because|though|if|when|while)\b)[a-z][a-z-]* [a-z]"
)

# the rest of a list after its first item: ", music and dance", " or tennis" (items of up to three
# words, none a word that opens a clause); it runs to the end of the clause
_LIST_ITEM = r"(?!(?:but|so|because|which|who|that|though|although|especially|except|when|if|while|then|since|as)\b)[\w'-]+(?:\s+[\w'-]+){0,2}"

_LIST_REST = re.compile(
    rf"(?:,\s*{_LIST_ITEM})*,?\s+(?:and|or)\s+{_LIST_ITEM}(?:\s+[\w'-]+){{0,3}}(?=\s*(?:[;:.!?]|$))", re.IGNORECASE
)


# a title's (lexicon.roles) or a place's abbreviation, whose full stop ends no object: St. Mary's Hospital, Mt. Sinai
_ABBREVIATED = re.compile(rf"\b(?:St|Mt|Ft|{TITLE_WORDS})$")


def _past_comma(m: re.Match) -> str:
    """The object ``m`` matched, carried past a comma or a full stop that does not end it (the patterns above)."""
    raw, after = m.group("obj"), m.string[m.end("obj") :]
    if _ABBREVIATED.search(raw) and (named := re.match(r"\.\s+[A-Z][^,;:.!?]*", after)):
        raw, after = raw + named.group(0), after[named.end() :]
    if after.startswith(",") and (listed := _LIST_REST.match(after)):
        return raw + listed.group(0)
    determined = re.search(r"\b(?:a|an|the|my|our|his|her|their|this|that)\s+[a-z-]+$", raw)
    if not (determined and _ADJECTIVE_COMMA.match(after)) and not re.match(r",\s+as well as\b", after, _I):
        return raw
    rest = re.match(r"[^;:.!?]*?(?=[,;:.!?]|$)", after[1:])
    return raw + "," + (rest.group(0) if rest else "")


# how long, said at an object's end, is not where or what: "in Austin for three years" → Austin (three
# years), "Acme for a couple of summers", "Leeds for the past few months", "piano for ages" (not "sandals
# for summer": what for)
_FOR_A_TIME = re.compile(
    r"\s+for\s+(?:the (?:last|past)\s+)?(?P<long>(?:a couple of\s+)?(?:(?!for\b)\w+\s+){0,2}?"
    r"(?:years?|months?|weeks?|days?|decades?|summers|winters|(?<!for )(?:summer|winter)|ages|a while))$",
    _I,
)


def _for_how_long(said: str) -> tuple[str | None, str | None]:
    """The object as a memory holds it and how long, if said: "Acme for three years" → ("Acme", "three years")."""
    long = _FOR_A_TIME.search(said)
    return clean(said[: long.start()] if long else said, False, 60), long.group("long") if long else None


# an object's first word that names nothing said ("it was fun", "what I said")
_NOT_NAMED = frozenset("it that this there here them you your what how which".split())


def said_object(m: re.Match) -> str | None:
    """The object a pattern matched (its group ``obj``), as a memory holds it; None when it names nothing."""
    if not m.groupdict().get("obj"):
        return None
    raw = re.sub(r"\s+(?:now|these days|anymore|any more|nowadays|again)\s*$", "", _past_comma(m).strip(), flags=_I)
    obj = _for_how_long(raw)[0]
    obj = " ".join(without_dangling((obj or "").split(), keep=1))  # "Acme on" once "Monday" is the time
    return obj if obj and obj.lower().split()[0] not in _NOT_NAMED else None


# an auxiliary as the speaker says it → as said of anyone else, and of people together (am → is, are)
PERSONS = {"am": ("is", "are"), "was": ("was", "were"), "have": ("has", "have"), "do": ("does", "do")}
PERSONS |= {"don't": ("doesn't", "don't"), "haven't": ("hasn't", "haven't")}
MINE = {form: mine for mine, forms in PERSONS.items() for form in (mine, *forms)}  # we're, Dana is → am


def agree(topic: str, third: bool) -> str:
    """A topic agreeing with its subject: live in / lives in (a past, "no longer", "quit": as they are)."""
    head, _, tail = topic.partition(" ")
    if not third or head in ("no", "is", "quit") or (head not in PERSONS and lemma(head) != head):
        return topic
    return f"{PERSONS[head][0] if head in PERSONS else third_person(head)} {tail}".strip()


Make = Callable[[re.Match, bool, str | None], list[Found] | None]

# a change that ends no value before it (one that does is an end): an event when timed
_CHANGES = ("moved to", "joined", "enrolled at")

# Where a place or an employer named as a slot's value ends: at the reason, the company or the
# purpose said after it ("moved to Berlin for a new job", "work at Acme because …", "moved to
# Leeds with my wife", "moved to Oslo to be near Mum").
_VALUE_ENDS = re.compile(r"\s+(?:for|because|since|so|after|when|while|with|to(?= [a-z]))\b.*$")


def reading(topic: str, name: str, ends: bool = False, needs_object: bool = True) -> Make:
    """The reading ``name`` (a slot's: residence, employer, job, school) in ``topic``'s words; a change
    when timed."""

    def make(m: re.Match, third: bool, time_text: str | None) -> list[Found] | None:
        obj = said_object(m)
        if obj and name in ("residence", "employer"):
            obj = _VALUE_ENDS.sub("", obj) or obj
        if obj is None and needs_object:
            return None
        mtype = "EVENT" if time_text and (ends or topic in _CHANGES) else "FACT"
        return [read_as(name, mtype, agree(topic, third), obj, ends=ends)]

    return make


def marital(m: re.Match, third: bool, time_text: str | None) -> list[Found] | None:
    """ "I'm married", "got divorced last year": married, to someone not named; got so at a time, an event."""
    be, what = m.group("be").lower(), m.group("what").lower()
    if time_text and be.endswith("got"):
        return [Found("EVENT", f"got {what}", None, 0.6)]
    return [Found("FACT", f"{'was' if be in ('was', 'were') else 'is'} {what}", None, 0.6)]


def fact(topic: str, importance: float = 0.6, timed: bool = False) -> Make:
    """A fact of the subject's in ``topic``'s words, its object as said; an event when ``timed`` and a
    time is said."""

    def make(m: re.Match, third: bool, time_text: str | None) -> list[Found] | None:
        obj = said_object(m)
        mtype = "EVENT" if timed and time_text else "FACT"
        return [Found(mtype, agree(topic, third), obj, importance)] if obj else None

    return make


def before(topic: str, kind: str, m: re.Match) -> list[Found] | None:
    """ "used to live in Leeds", "worked at Acme for eight years": where someone was, a fact of the past
    that sets no slot, and for how long when said."""
    obj, duration = said_object(m), _for_how_long((m.group("obj") or "").strip())[1]
    if (m.groupdict().get("used") or "").startswith("lived") and not duration:
        return None  # "lived in Oslo in 2015": an event of its time, read as said
    return [Found("FACT", topic, obj, 0.6, {"duration": duration} if duration else None, kind=kind)] if obj else None


def held_since(topic: str, reading: str) -> Make:
    """ "have worked at X since 2019" / "have lived in X for three years": still there, the slot's value
    now, since when or for how long; "have worked at X" alone may mean any time before: none."""

    def make(m: re.Match, third: bool, time_text: str | None) -> list[Found] | None:
        raw = m.group("obj") or ""
        since = time_text if time_text and time_text.lower().startswith("since ") else None
        if not since and " since " in raw:  # since I graduated: not a time the parser reads, said as it was
            raw, _, after = raw.partition(" since ")
            since = after.strip() or None
        obj, duration = _for_how_long(raw)
        if not obj or not (since or duration):
            return None
        attributes = {"since": since} if since else {"duration": duration or ""}
        return [read_as(reading, "FACT", agree(topic, third), obj, attributes)]

    return make


_worked_since = held_since("work at", "employer")

# what one plays or does for years, by the verb's lemma ("have been playing", "played", "sang")
PLAYED = frozenset("play do practice practise dance sing paint ski surf climb swim ride".split())


def at_work(found: Found, m: re.Match, third: bool) -> list[Found]:
    """``found``, and where they work when the clause names it ("I teach math at a high school")."""
    place = said_object(m)
    return [found] + ([read_as("employer", "FACT", agree("work at", third), place)] if place else [])


def teaches(m: re.Match, third: bool, time_text: str | None) -> list[Found] | None:
    what = clean(m.group("what"), False, 40)
    return at_work(Found("FACT", agree("teach", third), what, 0.6), m, third) if what else None


def played(m: re.Match, third: bool, time_text: str | None) -> list[Found] | None:
    """ "have played piano for three years" / "have been doing yoga for two years": what they still do,
    and for how long; "played soccer for five years": a span that ended, said in the past."""
    verb = m.group("verb").lower()
    if lemma(verb) not in PLAYED:
        return None
    obj, duration = _for_how_long(_past_comma(m))
    words = (obj or "").lower().split()
    if not obj or words[0] in {"it", "this", "that", "there", "with", "around"}:
        return None
    if not duration:  # "I play guitar": an instrument or a game (not "play a role"); another verb needs how long
        if verb not in ("play", "plays") or m.group("have") or words[-1] in {"role", "part", "safe", "dead", "fair"}:
            return None
        if words[0] in {"a", "an", "for", "to", "on", "in", "at", "by", "games", "along"}:
            return None
        obj = re.sub(r"\s+for\s+.*$", "", obj)  # "piano for an hour": how long each time
        obj = obj.split(" ", 1)[1] if words[0] == "the" and len(words) > 1 else obj  # the piano: piano
        return [Found("FACT", agree("play", third), obj, 0.6)]
    if not m.group("have") and (verb == lemma(verb) or verb.endswith("ing")):
        return None  # "I play piano for an hour": how long each time, no span
    topic = agree(lemma(verb).replace("practise", "practice"), third) if m.group("have") else verb
    return [Found("FACT", topic, obj, 0.6, {"duration": duration})]


def learning(m: re.Match, third: bool, time_text: str | None) -> list[Found] | None:
    obj, duration = _for_how_long(m.group("obj") or "")
    if not obj or obj.split()[0].lower() in {"to", "how", "that", "it", "this"}:
        return None  # "learning to cope", "learning how it works": no subject to name
    verb = m.group("verb").lower().replace("practising", "practicing")
    return [Found("FACT", agree(f"am {verb}", third), obj, 0.6, {"duration": duration} if duration else None)]


def joined(m: re.Match, third: bool, time_text: str | None) -> list[Found] | None:
    """joined / started at: a school when its name says so (started at Greenway Primary), else a
    place of work, with the job when said (joined a care home in Kent as a manager)."""
    obj = said_object(m)
    working = re.search(r"\bworking (?:at|for)\b", m.group(0), re.IGNORECASE)  # "started working at a bakery"
    if not obj:
        return None
    # "joined a gym called PureGym": a group by its name, joined as its member (of PureGym)
    member = re.match(
        r"^(?:a|an|the)\s+(?:[a-z-]+\s+){0,2}(?:gym|club|team|choir|band|group|league) (?:called|named) ", obj
    )
    obj = obj[member.end() :] if member else obj
    if not (working or re.search(r"\b[A-Z]", obj)) or member:
        # "joined a book club", "joined the choir": a group joined, no employer ("joined" names that slot)
        joined = re.search(r"\bjoined$", m.group(0)[: m.start("obj")].strip(), _I)
        if joined and (member or re.match(r"^(?:a|an|the|our|my|this|that|local)\b", obj, _I)):
            return [Found("EVENT" if time_text else "FACT", "became a member of", obj, 0.5)]
        return None
    if _SCHOOLISH.search(obj):
        return reading("enrolled at", "school")(m, third, time_text)
    org, _, job = obj.partition(" as ")
    job = re.sub(r"^(?:a|an|the|our|their|its) ", "", job.strip(), flags=re.IGNORECASE)
    found = reading("joined", "employer")(m, third, time_text) or []
    if job and found and len(job.split()) <= 4:
        found[0].object = org.strip()
        found.append(read_as("job", found[0].memory_type, agree("work as", third), job))
    return found or None


def named_org(make: Make) -> Make:
    """Only a name (a capitalised word) is a place of work or study here: "left Acme", not "left early"."""

    def check(m: re.Match, third: bool, time_text: str | None) -> list[Found] | None:
        return make(m, third, time_text) if re.search(r"\b[A-Z]|[一-鿿]", said_object(m) or "") else None

    return check


def graduated(m: re.Match, third: bool, time_text: str | None) -> list[Found] | None:
    """The school someone graduated from (a name), and the degree it gave when said with it."""
    school = named_org(reading("graduated from", "school", ends=True))(m, third, time_text)
    if school and m.group("degree"):
        school.append(Found("FACT", agree("have", third), clean(m.group("degree"), False, 40), 0.6))
    return school


def work_as(m: re.Match, third: bool, time_text: str | None) -> list[Found] | None:
    job, org = clean(m.group("job"), False, 40), said_object(m)
    if not job or not org:
        return None
    return [
        read_as("employer", "FACT", agree("work at", third), org),
        read_as("job", "FACT", agree("work as", third), job),
    ]


# a liking's verb said otherwise (its base form asked of the lemmatiser)
_LIKING = {"adore": "love", "despise": "hate", "can't stand": "hate", "cannot stand": "hate"}

# after "like to": verbs that say what is being asked or said, not a thing liked (I'd like to say, I love to hear that)
_NOT_A_LIKING = re.compile(r"^(?:say|think|know|hear|see|ask|thank|add|mention|point|tell|be|get|have)$", re.IGNORECASE)

# after "don't eat" / "don't drink", words that say how much or what now, not a food kept off
_NOT_A_FOOD = re.compile(
    r"^(?:much|a |an |any|anything|that|this|it|the |enough|too|out|alone|at|with|in|on|before|after|late|"
    r"breakfast|lunch|dinner|there|here|fast|properly|well|right|like|when|while|until|till)\b",
    re.IGNORECASE,
)


# verbs that name a habit with no object ("I don't smoke anymore", "I no longer drink"): what stopped
_HABITS_ALONE = ("smoke", "drink", "gamble", "vape")


def fan(m: re.Match, third: bool, time_text: str | None) -> list[Found] | None:
    obj = said_object(m)
    if not obj:
        return None
    what = " ".join(m.group("what").lower().split())
    longer = m.group("longer") or re.search(r"\b(?:anymore|any more)\b", m.group(0), _I)
    how = ("no longer " if longer else "not ") if m.group("neg") or m.group("longer") else ""
    topic = f"is {how}{'a fan of' if 'fan' in what else what}"
    return [read_as("stop" if longer else "dislike" if m.group("neg") else "like", "OPINION", topic, obj)]


def possession(m: re.Match, third: bool, time_text: str | None) -> list[Found] | None:
    verb = m.group("verb").lower()
    det, obj = (m.group("det") or "").lower().strip(), said_object(m)
    if not obj:
        return None
    having = verb in {"have", "has", "got", "have got", "has got", "own", "owns"}
    if having and (not det or _NOT_THINGS.match(f"{det} {obj}".strip())):
        return None
    obj = f"{m.group('det').strip()} {obj}" if det else obj  # as said: a puppy, two cats, my own boat
    topic = agree("have", third) if having else "bought" if verb == "purchased" else verb
    mtype = "EVENT" if time_text and topic in {"bought", "adopted"} else "FACT"
    return [read_as("possession", mtype, topic, obj)]


_NOT_PLANS = re.compile(r"^(?:tell|say|ask|let|think|see|check|try|be|get back|talk|call|text|keep)\b", re.IGNORECASE)

# Words a plan's verb phrase cannot start with: "I hope so", "I'm going for it", "want 'em to…".
_NOT_A_VERB = re.compile(
    r"^(?:a|an|the|my|our|your|his|her|their|its|this|that|these|those|some|so|it|you|me|him|them|us|em|'em|for|"
    r"with|at|in|on|by|from|of|about|into|out|up|down|not|never|too|well|there|here|what|how)\b",
    re.IGNORECASE,
)

# After "am going to", a place or an occasion, not a verb: "going to a conference".
_DESTINATION = re.compile(r"^(?:a|an|the|my|our|his|her|their|this|that|some)\b|^[A-Z0-9]")


def negated_preference(m: re.Match, third: bool, time_text: str | None) -> list[Found] | None:
    """ "I don't like jazz", "I no longer smoke", "I don't eat pork": a stance or an end; any other
    negated verb states nothing unless it is no longer done."""
    verb, food = lemma(m.group("verb").lower()), (m.group("obj") or "").strip()
    no_longer = bool(m.group("longer"))
    # "I don't eat pork", "she doesn't drink alcohol": a food or drink kept off, said plainly (not "I don't eat much")
    kept_off = verb in ("eat", "drink") and 0 < len(food.split()) <= 3 and not _NOT_A_FOOD.match(food)
    if not (no_longer or verb in ("like", "love", "enjoy") or kept_off):
        return None
    obj = said_object(m)
    if obj and obj.lower() in ("anymore", "any more") and verb in _HABITS_ALONE:
        obj = None  # "I don't smoke anymore": the habit itself ended
    if not obj:
        return [read_as("stop", "OPINION", "stopped", gerund(verb))] if verb in _HABITS_ALONE and no_longer else None
    topic = f"no longer {verb}" if no_longer else agree("dislike" if verb == "like" else f"don't {verb}", third)
    return [read_as("stop" if no_longer else "dislike", "OPINION", topic, obj)]


# "I used to smoke, but I quit (last year)": the habit the bare quit ends, said in the clause before
_USED_TO_QUIT = re.compile(
    r"\b(?P<who>I|we) used to (?P<verb>[a-z]+)(?P<obj>(?: [\w'-]+){0,4}?),?"
    r" (?:(?:but|and|so|until) )?(?:I|we) (?:have |'ve )?(?:finally |eventually |recently |just |then )?"
    r"(?:quit|stopped|gave (?:it |that |them )?up)(?: (?:it|that|them))?(?=$|[ ,;.!?])",
    re.IGNORECASE,
)

# "Wanted to let you know that I …", "I just have to tell you, I …": a lead-in before what is said
_TELLING = re.compile(
    r"(?:^|(?<=[,.!]\s))(?:I )?(?:just |really )?(?:wanted|want|had|have|needed|need|got|gotta) to "
    r"(?:let you know|tell you|share(?: with you)?|say|update you|fill you in)(?: (?:that|about this|about it))?[,:!]?\s+"
    r"(?=(?:I|we|my|our)\b)",
    re.IGNORECASE,
)

# "Been real busy tackling a project …", "Been working on a new song": "I have been …" said short
_BEEN_DOING = re.compile(
    r"^(?P<lead>\W*)[Bb]een (?:(?:real|really|so|super|pretty|very|quite) )?(?:busy )?(?P<verb>[a-z]+ing)\b"
)

_MY_PLAN = re.compile(r"\b(?:my|our) (?:plan|goal|dream|hope) is to\b", re.IGNORECASE)

# a pet put down or put to sleep is a pet that died: "we had to put our cat down" → "our cat passed away"
_PUT_DOWN = re.compile(
    r"\b(?:I|[Ww]e)\s+(?:(?:had|have|'ve had)\s+to\s+)?(?:put|had)\s+(?P<what>(?:my|our)\s+(?:old\s+|little\s+)?"
    r"(?:dog|cat|puppy|pup|kitten|horse|pony|rabbit|bunny|hamster|pet)(?:\s+[A-Z][a-z]+)?|[A-Z][a-z]+)\s+(?:put\s+)?"
    r"(?:down|to\s+sleep)\b"
    # "put Tom down for the late shift", "on the list" is no death; "down on Sunday", "in 2019" say when
    r"(?!\s+(?:for|as|to|at)\b|\s+(?:on|in)\s+(?![A-Z\d]))"
)


# "The park I went to yesterday was Riverside Park": the one the speaker went to, uses, lives in, named
_THE_ONE = re.compile(
    r"^(?P<lead>\W*)[Tt]he (?:[a-z]+ ){0,2}?[a-z]+ (?:that |which )?I(?P<be>'m| am| was)? "
    r"(?P<verb>(?:went|go|going|live|lived|stay|stayed|work|worked) (?:to|in|at)|visited|visit|use|used|bought|drive|attended)"
    r"(?P<when>(?: (?!is\b|was\b)[\w-]+){0,3}?) (?:is|was) (?P<name>(?:the |an? )?(?:[A-Z]|i[A-Z])[^,;.!?]*)"
)
# "My sister lives in Shanghai and works at Alibaba": two facts of one subject, the second's said without it
_DOES = r"(?:lives?|works?|teach(?:es)?|stud(?:ies|y)|owns?|runs?|lived|worked|moved|studied|grew up)"
_AND_DOES = re.compile(
    rf"^(?P<subj>I|[Ww]e|(?:[Mm]y|[Oo]ur) [a-z-]+(?: [a-z-]+)?|[A-Z][a-z]+) (?P<first>{_DOES} [^,;.!?]+?) and "
    rf"(?:also |now )?(?=(?:{_DOES}|has|have|loves?|likes?|plays?|drives?) )"
)


def _the_one_said(o: re.Match) -> str:
    """ "The event I'm going to next week is the Austin Food Festival" → "I am going to the Austin Food Festival next week"."""
    be = " am" if o["be"] in ("'m", " am") else o["be"] or ""
    return f"{o['lead']}I{be} {o['verb']} {o['name']}{o['when']}"


def said_plainly(sentence: str) -> str:
    """The sentence said the way the clause rules read it (each rewrite's example is at its pattern):
    "I used to smoke but I quit last year" → "I quit smoking last year"."""
    sentence = _TELLING.sub("", sentence)
    sentence = _THE_ONE.sub(_the_one_said, sentence)
    sentence = _AND_DOES.sub(lambda d: f"{d.group('subj')} {d.group('first')}; {d.group('subj')} ", sentence)
    sentence = _PUT_DOWN.sub(lambda p: f"{p.group('what')} passed away", sentence)
    sentence = _BEEN_DOING.sub(lambda b: f"{b.group('lead')}I have been {b.group('verb')}", sentence)
    sentence = _MY_PLAN.sub(lambda p: "I plan to" if p.group(0)[:2].lower() == "my" else "we plan to", sentence)
    m = _USED_TO_QUIT.search(sentence)
    if m is None or m.group("verb").lower() in ("be", "have", "work", "live", "go", "think", "feel"):
        return sentence
    said = f"{m.group('who')} quit {gerund(m.group('verb'))}{m.group('obj')}"
    return sentence[: m.start()] + said + sentence[m.end() :]


# what "off to" is followed by when it sets out to do something: "I'm off to go swimming"
_OFF_TO = frozenset("go get see meet visit pick catch play do run walk swim work watch join start buy shop".split())


def plan(what: str, third: bool, event: bool, topic: str = "plan to") -> list[Found]:
    """A plan in its speaker's words: "plans to move to Denver"."""
    return [read_as("plan", "EVENT" if event else "FACT", agree(topic, third), what)]


def intention(m: re.Match, third: bool, time_text: str | None) -> list[Found] | None:
    """A plan or an intention, its verb phrase as said: "plans to open a bakery". A hope or a
    wish must name what is to be done (to + a verb): "I hope so", "I want 'em to stay"
    are not plans."""
    what = said_object(m)
    if not what or _NOT_PLANS.match(what):
        return None
    how = " ".join(m.group("how").lower().split())
    if how == "will" and not (time_text and _FUTURE.search(time_text)):
        return None  # "I'll always remember that trip": not a plan
    topic = "plan to"
    if how.endswith(("thinking about", "thinking of", "considering")) or (how.endswith("going") and not m.group("to")):
        first, _, rest = what.partition(" ")
        verb = base_form(first)
        if verb is None:
            return None  # "I'm going for it"
        what = f"{verb} {rest}".strip()  # thinking of opening a café → plans to open a café
    elif how.endswith("excited") and not m.group("to"):
        return None  # "excited about the trip": a feeling, no plan said
    elif how.endswith("off") and not _DESTINATION.match(what) and what.split()[0].lower() not in _OFF_TO:
        return None  # "off to bed", "off to sleep"
    elif how.endswith(("going", "off")) and _DESTINATION.match(what):
        what = f"go to {what}"  # going to a conference; off to the gym
    elif how.endswith("planning") and not m.group("to"):
        if _NOT_THINGS.match(what) or _NOT_A_VERB.match(what) is None:
            return None  # "planning a couple"; a gerund or a verb without "to" is not read
        topic = "plan"  # planning a trip to Lisbon
    elif how != "will" and (not m.group("to") or _NOT_A_VERB.match(what)):
        return None
    intent = how.startswith(("want", "hope", "would like", "am hoping", "is hoping"))
    return plan(what, third, bool(time_text), "want to" if intent and topic == "plan to" else topic)


def _going(at: Callable[[str], object]) -> Make:
    """am visiting / am leaving for … at a time ``at`` accepts: a plan (leaving for → plans to leave for)."""

    def make(m: re.Match, third: bool, time_text: str | None) -> list[Found] | None:
        first, _, rest = m.group("verb").lower().partition(" ")
        base, what = base_form(first), said_object(m)
        if not time_text or not at(time_text) or not what or base is None:
            return None
        return plan(f"{base} {rest}".strip() + f" {what}", third, True)

    return make


going = _going(_FUTURE.search)  # with a time to come
going_at = _going(lambda t: not re.search(r"\b(?:last|ago|yesterday)\b", t, re.IGNORECASE))  # a time not gone


# What "have been …ing" says of how someone is or what they meant, not of what they have been doing
_NOT_ONGOING = frozenset(
    "feel think hope wonder try want wait mean need do have be get say tell ask talk chat keep hear go come "
    "struggle deal stay live work".split()
)


def ongoing(m: re.Match, third: bool, time_text: str | None) -> list[Found] | None:
    """What someone is in the middle of, as said; with a time to come it is a plan, which this does not read."""
    obj = said_object(m)
    if not obj or (time_text and _FUTURE.search(time_text)):
        return None
    return [Found("FACT", agree("am " + " ".join(m.group("verb").lower().split()), third), obj)]


def been_doing(m: re.Match, third: bool, time_text: str | None) -> list[Found] | None:
    """What someone has been doing lately: not how they have been feeling, nor where they live or work (slots)."""
    base, obj = base_form(m.group("verb").lower()), said_object(m)
    verb = m.group("verb").lower()
    if base == "work" and obj and obj.lower().startswith("on "):  # working on a song: a project, not a job
        verb, obj, base = "working on", obj[3:], "work on"
    if base is None or base in _NOT_ONGOING or not obj:
        return None
    return [Found("EVENT" if time_text else "FACT", agree(f"have been {verb}", third), obj)]


def identity(m: re.Match, third: bool, time_text: str | None) -> list[Found] | None:
    obj = said_object(m)
    if not obj or re.match(r"^(?:bit|little|lot|big fan|fan|huge fan|part of|kind of|sort of)\b", obj, re.I):
        return None
    # "a vet in Bath", "a retired teacher from Cork": what they are ends where a place named begins
    where = re.match(r"^(?P<what>.+?) (?P<how>in|at|from) (?P<place>[A-Z][\w'.-]*(?: [A-Z][\w'.-]*)*)$", obj)
    what, how, place = (where["what"], where["how"], where["place"]) if where else (obj, None, None)
    if how == "from":
        return [Found("FACT", "is a", what), Found("FACT", "is from", place, 0.6)]
    return [Found("FACT", "is a", what, 0.5, {"place": place} if place else None)]


def work_at(m: re.Match, third: bool, time_text: str | None) -> list[Found] | None:
    """I work at / she works for X: the employer now. "worked at X" and "used to work at X" say
    where they worked, a fact of the past that sets no slot; "have worked" and "worked at X
    before" give none here."""
    said = m.group(0)
    if have := re.match(r"^(?:have|has) (?:worked|(been) working)", said, _I):
        still = reading("work at", "employer")(m, third, None) if have[1] else None  # been working: still there
        return _worked_since(m, third, time_text) or still
    if re.search(r"\b(?:before|previously|back then|in the past)$", said, _I):
        return None
    if re.search(r"\b(?:worked|interned) (?:at|for) |^used to ", said, _I):
        return before("worked at", "work", m)
    found = reading("work at", "employer")(m, third, time_text)
    as_a_job = r"^(?P<org>.+?) as (?:a |an )?(?P<job>[a-z][a-z -]{1,40})$"
    if found and (as_what := re.match(as_a_job, found[0].object or "")):  # "works at the hospital as a nurse"
        found[0].object = as_what.group("org")
        found.append(read_as("job", "FACT", agree("work as", third), as_what.group("job")))
    return found


def preference(m: re.Match, third: bool, time_text: str | None) -> list[Found] | None:
    obj = said_object(m)
    if not obj or obj.lower() in {"to", "too"}:
        return None
    verb = lemma(" ".join(m.group("verb").lower().split()))
    verb = _LIKING.get(verb, verb)
    if obj.lower().startswith("to "):  # "I like to read before bed": reading before bed, a liking
        doing = re.match(r"^to (?:(?:just|really|always|usually|often|sometimes|also) )*(?P<verb>[a-z]+)\b", obj, _I)
        if doing is None or verb not in ("like", "love", "enjoy", "hate", "prefer") or _NOT_A_LIKING.match(doing[1]):
            return None
        obj = gerund(doing["verb"]) + obj[doing.end() :]
    reading = "dislike" if verb in ("hate", "dislike") else "like"
    return [read_as(reading, "OPINION", third_person(verb) if third else verb, obj)]


def diet(what: str, changed: bool, third: bool, time_text: str | None) -> list[Found] | None:
    """vegan / vegetarian / a meat eater: what someone eats, a slot (a newer diet replaces the older)."""
    obj = re.sub(r"[- ]+", " ", what.lower()).replace("pescetarian", "pescatarian").replace("carnivore", "meat eater")
    mtype = "EVENT" if time_text and changed else "FACT"
    return [read_as("diet", mtype, agree("am", third), obj)]


def stopped_or_habit(m: re.Match, third: bool, time_text: str | None) -> list[Found] | None:
    """ "stopped smoking", "gave up eating meat": a habit or a doing that ended (not "stopped working")."""
    verb, obj = m.group("verb").lower(), m.group("obj")
    if obj is None:
        return None if verb == "working" else [read_as("stop", "OPINION", "stopped", verb)]
    what = clean(obj, False, 40)
    return [read_as("stop", "OPINION", f"stopped {verb}", what)] if what else None


MONTH = re.compile(r"\b(?:January|February|March|April|May|June|July|August|September|October|November|December)\b")


def been_at(m: re.Match, third: bool, time_text: str | None) -> list[Found] | None:
    """ "have been at X since 2019 / for three years": X is where they work when the span is one a job
    has (a year, years, months) and X no school or someone's place (at Mom's since Friday)."""
    at, span = m.group("obj"), f"{time_text or ''} {m.group('obj')}"
    long = re.search(r"\bsince (?:\w+ )?\d{4}\b|\bfor (?:\w+ )?(?:years?|months?|decades?)\b", span, _I)
    if not (long or re.search(rf"\bsince (?:last )?{MONTH.pattern}", span)):
        return None
    if _SCHOOLISH.search(at) or re.search(r"'s?\b", at):
        return None
    return _worked_since(m, third, time_text)
