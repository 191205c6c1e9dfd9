"""English: whom a clause is about — I, a person by name (Ruth), by role (my cousin, my piano teacher),
by pronoun (she / he), with the relations the opening says (my cousin Ruth, Ruth and her husband Mark) —
and the people a clause introduces or is all about (a nurse called Nina, a breakup, "X is my Y").
``people.People`` says whom a role or a pronoun means."""

from __future__ import annotations

import re

from ..lexicon.forms import only_adverb
from ..lexicon.readings import words_of
from ..lexicon.roles import EN_ROLE, EN_ROLES, NOT_KIN, PERSON_NAME, PETS, TITLE, mutual_words, one_of, role_of
from ..types import normalize_name
from .people import People, introduce
from .phrases import Found, Subject, read_as, relation

_NAME = PERSON_NAME

# opening words of a clause that begin no name: pronouns, connectives, prepositions (For James, … is no one)
_NOT_NAMES = frozenset(
    "I The This That It He She They We You There Who What My Our And But So For With From To At By As Of".split()
)

EN_LEAD = re.compile(
    r"^(?:(?:after that|after this|before that|after all that|once that's done|once that is done|oh|hey|hi|yeah|yes|yep|wow|well|so|and|but|also|plus|actually|anyway|anyways|btw|honestly|ok|okay|"
    r"um|uh|hmm|guess what|by the way|fyi|just|especially|right after|just after|after|before|now|these days|nowadays|recently|lately|finally|then|today|tonight|"
    r"fun fact|news|update|big news|besides that|besides|other than that|apart from that|on top of that|"
    r"in other news|meanwhile|unfortunately|fortunately|luckily|thankfully|sadly|of course|"
    r"since (?:we|I) last (?:spoke|talked|chatted|saw each other|caught up))\b[,!:.]?\s*)+",
    re.IGNORECASE,
)

_CONTRACTED = re.compile(r"^'(?:m|s|re|ve|ll|d)\b")
_CONTRACTIONS = {"'m": " am", "'s": " is", "'re": " are", "'ve": " have", "'ll": " will", "'d": " would"}

_MY = r"(?:[Mm]y|[Oo]ur)"

# Where "the … next door" lives: the speaker's neighbour.
_NEXT_DOOR = re.compile(r"^(?:next door|downstairs|upstairs|across the (?:street|road|hall))\b", re.IGNORECASE)

# "Ruth and her husband Mark came over": a relative said with the subject, named or not
_AND_THEIR = re.compile(r"^,? ?and (?:her|his|their) ")

# what two people do to each other: the one after "and" is its other party
_WITH_EACH_OTHER = re.compile(
    r"^(?:(?:have|had|just|finally|recently) )*(?:split up|broke up|break up|divorced|got divorced|separated|"
    r"got married|got engaged|married|had a (?:fight|falling out)|fell out|made up|are fighting|argued)\b"
)

# A plain name never met before, opening a clause with what a person does for someone or for a
# living (Rosa comes to clean our house, Sue runs the flower shop downstairs): someone. Any other
# capitalised opening (Tesco sells …, London was …) is not taken for a person.
_PERSON_DOES = re.compile(
    r"^(?P<name>[A-Z][a-z]+)(?= (?:comes|came) (?:to|over|round|by)\b| (?:runs|ran|owns) (?:the|a|an|our|my) |"
    r" (?:works|worked|teaches|taught) (?:at|as|in|for)\b| (?:lives|lived) (?:in|next door|downstairs|upstairs)\b|"
    r" (?:cleans|looks after|babysits|walks) (?:our|my|the) |"
    # what only a person (or a pet) does: "Tom passed away", "Rex died", "Anna moved to Oslo", "Sam got married"
    r" (?:passed away|died|moved (?:to|into|back|abroad|away)|got (?:married|engaged|divorced|promoted|fired)|retired)\b)"
)

# Capitalised words that say what someone is, not who: my sister is British (not a title, Mr, Ms, Dr, nor a given
# name that ends like a nationality or an adjective: Brian, Eric, Duncan are names all the same).
_NOT_A_NAME = re.compile(
    r"^(?!Mr|Ms|Dr|(?:Brian|Ian|Adrian|Julian|Vivian|Lillian|Gillian|Damian|Sebastian|Marian|Eric|Dominic|Norman|"
    r"Herman|Duncan)$)"
    r"(?:[A-Z][a-z]+(?:ish|ese|ian|can|man|ic)|Catholic|Muslim|Jewish|Buddhist|Hindu|Christian|Greek|Thai|Swiss|"
    r"Dutch|Irish|French|Vegan|Vegetarian|Fine|Great|Good|Okay|Ok|Home|Back|Here|There|Away|Done|Sorry|Ready|"
    r"Sure|Glad|Happy|Busy|Tired|Single|Married|Out|Off|So|Just|Still|Very|All)$"
)


def _a_name(name: str) -> bool:
    first = name.split()[0]
    if first in _NOT_NAMES or only_adverb(first):  # Usually, …: an adverb opening the clause
        return False
    return " " in name or not _NOT_A_NAME.match(name)


# After a role, which one it is: "in Shanghai", "with the café", "from work".
_WHICH_ONE = re.compile(
    r"^(?:with|in|from|at) (?:the |a |an |my |our )?(?:[A-Z][\w'-]*(?: [A-Z][\w'-]*)*|[a-z][\w'-]*) (?=[a-z])"
)

# Roles that are a person's family or household: "Ruth's husband", "his grandson" is about them.
EN_RELATIVES = frozenset({c for c, _ in EN_ROLES.values()} - NOT_KIN)

# Words before a role that make it someone other than the one named in it before (my new colleague), and
# words that modify no role (and, is, with)
_NOT_MODIFIERS = frozenset("new other former ex late second third another and or is was has had to in at with".split())


_PARTNER_ROLE = r"(?:boyfriend|girlfriend|husband|wife|partner|fianc[eé]e?)"

# "Sam and I broke up", "I broke up with my boyfriend", "we split up", "I got divorced", "I'm divorced now"
_PARTNER_ENDED = re.compile(
    rf"^(?:(?:(?P<who>[A-Z][a-z]+)|(?:my|our) (?P<role>{_PARTNER_ROLE})) and I|I and (?P<who2>[A-Z][a-z]+)|I|we|We)"
    r"(?:'ve| have| had)? (?:just |finally |recently |officially |already )*"
    r"(?:broke up|split up|separated|got divorced|divorced|am divorced|'m divorced|are divorced|'re divorced)"
    rf"(?: (?:with|from) (?:(?P<who3>[A-Z][a-z]+)|(?:my|our) (?P<role3>{_PARTNER_ROLE})))?\b"
)


def partner_ended(text: str, people: People, owner: str) -> Found | None:
    """A breakup or a divorce of the speaker's: the partner said (or the one known in that role, or
    none named: whoever it is) is no longer theirs."""
    m = _PARTNER_ENDED.match(text)
    if m is None:
        return None
    who = m.group("who") or m.group("who2") or m.group("who3")
    role = m.group("role") or m.group("role3")
    if who is None and role is not None:
        found = role_of(role)
        who = people.by_role(found[0], owner) if found else None
    topic = "divorced" if "divorced" in m.group(0) else "broke up with"
    return read_as("partner", "FACT", topic, who, ends=True)


def _role_named(text: str) -> tuple[str, int] | None:
    """A role anyone may have to someone, followed by their name (teacher Mrs Patel, boss, Linda):
    the role and where it ends; None without a name after it (my son's teacher says whom, not who)."""
    for m in (re.match(r"^[a-z]+ [a-z]+\b", text), re.match(r"^[a-z]+\b", text)):
        found = role_of(m.group(0)) if m else None
        named = re.match(rf",? ?(?P<name>{_NAME})\b", text[m.end() :]) if m and found else None
        if m and found and named and _a_name(named.group("name")):
            return found[0], m.end()
    return None


# Words after his / her / Ruth's that are no thing of theirs: an auxiliary, a quantifier, an adverb.
_NOT_THEIR_THINGS = frozenset("own way best first last only other been got gone just also really all".split())


# What someone has that a reading of its own reads (phone number, e-mail address): its words (the
# consolidator's slot words, lexicon.topics.SLOTS) → the attribute.
ATTRIBUTE_NAME = {
    **{w: "phone number" for w in words_of("phone", "en")},
    **{w: "email" for w in words_of("email", "en")},
}

_THEIR_ATTRIBUTE = re.compile(
    "^(?:" + "|".join(sorted(map(re.escape, ATTRIBUTE_NAME), key=len, reverse=True)) + r")(?= (?:is|was|'s|has)\b)"
)


def _relative_at(text: str) -> tuple[str, int] | None:
    """The relative a text opens with (husband, best friend, grandson) and where it ends, or a
    thing of theirs said before its verb (her shop is …, his knee hurts)."""
    for m in (re.match(r"^[a-z]+ [a-z]+\b", text), re.match(r"^[a-z]+\b", text)):
        found = role_of(m.group(0)) if m else None
        if m and found and found[0] in EN_RELATIVES:
            return found[0], m.end()
    m = _THEIR_ATTRIBUTE.match(text)
    if m:  # her phone number is …: a thing of theirs in more than one word
        return m.group(0), m.end()
    m = re.match(r"^(?P<noun>[a-z]+) (?P<verb>[a-z']+)\b", text)
    if m and not m.group("noun").endswith(("ing", "ed", "ly")) and m.group("noun") not in _NOT_THEIR_THINGS:
        verb = m.group("verb")
        if verb in {"is", "are", "was", "were", "has", "had", "isn't", "wasn't"} or (
            verb.endswith(("es", "ed")) and len(verb) > 4
        ):
            return m.group("noun"), m.end("noun")
    return None


def _and_their(subj: Subject, people: People) -> Subject:
    """Ruth and her husband Mark came over …: Mark is Ruth's husband from now on, and the clause
    is about Ruth (with him); "and her husband" unnamed is only left out of the clause."""
    m = _AND_THEIR.match(subj.rest)
    relative = _relative_at(subj.rest[m.end() :]) if m else None
    if m is None or relative is None or role_of(relative[0]) is None:
        return subj
    after = subj.rest[m.end() + relative[1] :]
    named = re.match(rf"^,? ?(?P<name>{_NAME})(?=[ ,.!;:]|$),?", after)
    if _WITH_EACH_OTHER.match((after[named.end() :] if named else after).strip()):
        return subj  # Tom and his girlfriend broke up: whom it was with, not who came along
    if named and _a_name(named.group("name")):
        name = named.group("name")
        subj.together = people.learn_of(subj.name or "", name, relative[0], relative[0])
        people.mention(subj.name or "")  # the clause is still about them
        after = after[named.end() :]
    subj.rest = after.strip()
    return subj


# After 's, these make it "has" (she's taken up, he's been): a participle not said of a state.
_HAS_PARTICIPLE = re.compile(
    r"^'s (?:just |finally |already |also |recently |now )*(?:been|got|gotten|taken|done|gone|made|had|become|begun|"
    r"started|joined|moved|bought|adopted|finished|quit|left|picked|signed|booked|found|won|lost|"
    r"[a-z]+ed (?:up|a|an|the|her|his|to [a-z]+|[a-z]+ing)\b)",
    re.IGNORECASE,
)


def _expand(rest: str, possessive: bool = False) -> str:
    if possessive and rest.startswith("'s "):
        return rest  # Ruth's dog …: not "Ruth is"
    if _HAS_PARTICIPLE.match(rest):
        return " has" + rest[2:]
    return _CONTRACTED.sub(lambda c: _CONTRACTIONS[c.group(0)], rest, count=1).strip()


def _named_relative(subj: Subject, people: People) -> Subject | None:
    """Ruth's son Leo …, her husband Mark …: the relative named, known from now on as theirs (a
    relation of Ruth's), and the clause about them; None when no name follows the relative."""
    if subj.name is None or subj.of_role is None or role_of(subj.of_role) is None:
        return None
    m = re.match(rf"^,? ?(?P<name>{_NAME})(?:,)? (?=[a-z])", subj.rest)
    if m is None or not _a_name(m.group("name")):
        return None
    name = m.group("name")
    return Subject(name, _expand(subj.rest[m.end() :]), people.learn_of(subj.name, name, subj.of_role, subj.of_role))


def _with_relative(subj: Subject, people: People) -> Subject:
    """Ruth's husband …: the clause is about Ruth's husband, kept as Ruth's (``of_role``)."""
    relative = (_relative_at(subj.rest[3:]) or _role_named(subj.rest[3:])) if subj.rest.startswith("'s ") else None
    if relative is None:
        if subj.rest.startswith("'s"):
            subj.rest = _expand(subj.rest)
        return subj
    subj.rest, subj.of_role = subj.rest[3 + relative[1] :].strip(), relative[0]
    return _named_relative(subj, people) or subj


def _described(text: str, people: People) -> Subject | None:
    """ "The retired teacher next door …", "that Irish colleague …": the person known by those words
    (a role, or what they were said to be); next door, upstairs: the speaker's neighbour."""
    words = text.split()
    if len(words) < 3 or words[0].lower() not in {"the", "that", "this"}:
        return None
    for n in range(min(4, len(words) - 2), 0, -1):
        desc = " ".join(w.strip(",") for w in words[1 : 1 + n])
        after = " ".join(words[1 + n :])
        near = _NEXT_DOOR.match(after)
        rest = after[near.end() :].strip() if near else after
        if not rest or words[n].endswith(",") and not near:
            continue
        name = people.by_description(desc) or (people.by_role("neighbor") if near else None)
        if name is not None:
            people.mention(name)
            return Subject(name, _expand(rest))
    return None


# "my neighbour, whose name is Tom, is a nurse": the name said in a clause of its own, read as "my neighbour Tom is …"
_WHOSE_NAME = re.compile(rf"(?<=[a-z]),? (?:whose|who's) name is (?P<name>{_NAME}),? ?")


# the rest of a list of people after the first one and its comma: "(my mom,) dad and sister live …"
_LISTED = re.compile(r"(?:(?:my|our|the) )?[\w'-]+(?: [\w'-]+)?,? (?:and|or|&) ")


def _opening(clause: str, people: People, owner: str) -> Subject | None:
    # a time said first leaves its comma behind ("Yesterday, I …" read without "Yesterday")
    text = EN_LEAD.sub("", clause.strip().replace("’", "'").lstrip(",;: ")).strip()
    text = _WHOSE_NAME.sub(r" \g<name> ", text, count=1).replace("  ", " ")  # my neighbour, whose name is Tom, …
    m = re.match(rf"^(?P<name>{_NAME}) (?:is|was) {_MY} (?:best |close |good |old |dear )?(?P<role>{EN_ROLE})\b", text)
    if m and (found := role_of(m.group("role"))) and m.group("name").split()[0] not in _NOT_NAMES:
        return Subject(m["name"], "", people.known_as(m["name"], found[0], owner))
    m = re.match(
        rf"^{_MY} (?P<mods>(?:[A-Za-z-]+ ){{0,2}}?)(?P<role>{EN_ROLE}|[a-z]+(?: pal)?|[A-Z]{{2,4}})"
        rf"(?P<how>'s name is| is (?:called|named)| is) (?P<name>{_NAME})(?=$|[,.!;:]|\s+(?:and|but|now)\b)",
        text,
    )
    found = role_of(m.group("role")) if m else None
    if m and (found or m.group("how") != " is") and _a_name(m.group("name")):
        # my sister is Anna, my dentist is Dr Okafor; any noun when the name is said to be its name
        name, mods = m.group("name"), (m.group("mods") or "").strip()
        mine = people.known_as(name, found[0] if found else m.group("role").lower(), owner)
        if mods:
            people.describe(name, f"{mods} {m.group('role')}")
        return Subject(name, "", mine)
    m = re.match(rf"^{_MY} (?P<mods>(?:[A-Za-z-]+ ){{0,2}}?)(?P<role>{EN_ROLE})\b,? ?(?P<name>{_NAME})?,?", text)
    if m and re.match(r"\s*and (?:I|we)\b", text[m.end("role") :]):
        m = None  # "My wife and I went …": the speaker, with her (read below)
    found = role_of(m.group("role")) if m else None
    mods = (m.group("mods") or "").strip() if m else ""
    if m and found and not any(w in _NOT_MODIFIERS for w in mods.lower().split()):
        role, name = found[0], m.group("name")
        if name and name.split()[0] not in _NOT_NAMES:
            rest, role = text[m.end() :], one_of(role)  # my friends Rachel and Mike: each a friend
            other = re.match(rf"\s*and (?P<name>{_NAME})\b", rest) if role != found[0] else None
            both = None
            if other and other.group("name").split()[0] not in _NOT_NAMES:
                both = people.known_as(other.group("name"), role, owner)
                rest = rest[other.end() :]
            people.learn(name, role, owner=owner)
            if mods:  # my Irish colleague Ruth: what she is, for "the Irish colleague" later
                people.describe(name, f"{mods} {m.group('role')}")
            return _with_relative(Subject(name, rest, relation(role, name), together=both), people)
        after = text[m.end("role") :].lstrip(", ")
        if _LISTED.match(after) and text[m.end("role") :].startswith(","):
            return None  # my mom, dad and sister …: several people, none of them alone
        where = _WHICH_ONE.match(after)
        if where:  # my friend in Shanghai …, my cousin with the bakery …: which one, then what they did
            after = after[where.end() :]
        known = people.by_role(role, owner) or people.by_description(f"{mods} {m.group('role')}".strip())
        if known:
            people.mention(known)
            return _with_relative(Subject(known, after), people)
        if mods:
            return None  # my new colleague, my other cousin: not the one named before
        people.learn(f"my {role}", gender=found[1])  # someone a pronoun may mean
        return _with_relative(Subject(f"my {role}", after), people)  # my son's teacher Mrs Patel …
    m = re.match(  # "Her name is Linda", or "She's called Linda"
        rf"^(?:(?P<pron>(?i:his|her)) name(?:'s| is)|(?P<pron2>(?i:he|she))(?:'s| is) (?:called|named)) "
        rf"(?P<name>{_NAME})(?=$|[,.!;:]|\s+(?:and|but)\b)",
        text,
    )
    pron = (m.group("pron") or m.group("pron2")) if m else None
    whose = people.by_pronoun(pron) if pron else None
    found = role_of(whose[3:]) if whose and whose.startswith("my ") else None
    if m and pron and whose and found and _a_name(m.group("name")):  # "My colleague … Her name is Priya"
        people.settle(whose, pron)
        people.learn(m.group("name"), found[0], owner=owner, gender=people.gender.get(normalize_name(whose)))
        more = re.match(r"\s+(?:and|but)\s+(?:(?:she|he|they)\s+)?(?=[a-z])", text[m.end() :])
        rest = text[m.end() + more.end() :] if more else ""  # "… and she works as an architect": hers too
        return Subject(m.group("name"), rest, relation(found[0], m.group("name")))
    m = re.match(r"^(?:(?P<his>his|her) |(?:she|he)\b)", text, re.IGNORECASE)
    relative = _relative_at(text[m.end() :]) if m and m.group("his") else None
    if m and (relative or not m.group("his")):  # she …, her husband …: whom the pronoun means
        pronoun = m.group(0).strip()
        name = people.by_pronoun(pronoun)
        if name is None:
            return None
        people.settle(name, pronoun)
        if relative is None:
            return Subject(name, _expand(text[m.end() :]), pronoun=pronoun.lower())
        subj = Subject(name, text[m.end() + relative[1] :].strip(), of_role=relative[0])
        return _named_relative(subj, people) or subj
    m = re.match(r"^they\b", text, re.IGNORECASE)
    together = people.by_they() if m else None
    if m and together:  # "My parents came over. They brought a cake.": the ones spoken of together
        people.mention(together)
        return Subject(together, _expand(text[m.end() :]), pronoun="they")
    for key in sorted(people.names, key=len, reverse=True):
        said = people.names[key]
        # "Ruth's …", "Ruth moved …"; not "Ruth, thanks …", which speaks to her
        if re.match(rf"^{re.escape(said)}(?:'s\b|\b(?!\s*,))", text) and said[:1].isupper():
            people.mention(said)
            return _with_relative(Subject(said, _expand(text[len(said) :], possessive=True)), people)
    described = _described(text, people)
    if described is not None:
        return described
    m = re.match(rf"^(?P<name>{TITLE}(?:[A-Z]\. ?){{0,2}}[A-Z][a-z]+)\b", text) or _PERSON_DOES.match(text)
    if m and _a_name(m.group("name")):  # Mrs Ortiz …, Rosa comes to clean …: someone, named before or not
        people.learn(m.group("name"))
        return _with_relative(Subject(m.group("name"), _expand(text[m.end() :], possessive=True)), people)
    m = re.match(r"^(?:(?:[Mm]y|[Oo]ur) (?P<with>[a-z]+(?: [a-z]+)?) and |[A-Z][a-z]+ and )?(?:I|[Ww]e)\b", text)
    if m:  # "My colleagues and I went …", "We went …": the speaker, the others kept by the clause reader
        found = role_of(m.group("with") or "")
        if found and not people.by_role(found[0], owner):
            people.learn(f"my {found[0]}", gender=found[1])  # "My wife and I …. She …"
        return Subject(None, _expand(text[m.end() :]))
    return None


def subject_of(clause: str, people: People, owner: str, carried: Subject | None = None) -> Subject | None:
    """The subject a clause opens with, or None: no one the reader can name (none is ``carried`` over)."""
    subj = _opening(clause, people, owner)
    return _and_their(subj, people) if subj is not None and subj.name is not None else subj


# My daughter's form teacher is Ms Harper / Ruth's husband is called Tom: someone in a role to a
# person the speaker knows.
_ROLE_OF_SOMEONE = re.compile(
    rf"^(?:{_MY} (?P<rel>{EN_ROLE})|(?P<whose>{_NAME}))'s (?P<role>{EN_ROLE}|[a-z]+(?: [a-z]+)?) "
    rf"(?:is called|is named|is) (?P<name>{_NAME})[.!]?$"
)


def role_of_someone(text: str, people: People, owner: str) -> Found | None:
    """My daughter's form teacher is Ms Harper → my daughter · form teacher · Ms Harper, learnt as that; or None."""
    m = _ROLE_OF_SOMEONE.match(text)
    role = role_of(m.group("role")) if m and _a_name(m.group("name")) else None
    if m is None or role is None:
        return None
    rel = role_of(m.group("rel")) if m.group("rel") else None
    if rel is not None:
        whose = people.by_role(rel[0], owner) or f"my {rel[0]}"
        if not people.knows(whose):
            people.learn(whose, gender=rel[1])
    elif m.group("whose") and _a_name(m.group("whose")):
        whose = m.group("whose")
        people.learn(whose)
    else:
        return None
    return people.learn_of(whose, m.group("name"), role[0], m.group("role"))


# words before a role that only say which of them (a younger brother, an older sister, twin)
_KIN_WORDS = {"younger", "older", "elder", "little", "big", "baby", "twin", "kid", "step"}

# "Jess and I have been friends since college": someone the speaker is something to, together
_TOGETHER = re.compile(
    rf"^(?P<name>{_NAME}) and I (?:have been|'ve been|are|were|became|have become) (?:\w+ ){{0,2}}?"
    rf"(?P<role>{mutual_words(False)})\b"
)
# my cousin Ruth, my friends Rachel and Mike: relations said inside a clause
_STATED = re.compile(rf"(?<=\s)(?:my|our) (?P<role>{EN_ROLE}),? (?P<name>{_NAME})(?: and (?P<and>{_NAME}))?\b")


def stated_people(text: str, people: People, owner: str) -> list[Found]:
    """The relations a clause says, together (``_TOGETHER``) or inside it (``_STATED``): each learnt."""
    out = []
    together = _TOGETHER.match(text)
    if together and _a_name(together["name"]) and (role := role_of(together["role"])):
        out.append(people.known_as(together["name"], one_of(role[0]), owner))
    for m in _STATED.finditer(text):  # my friends Rachel and Mike: each of them a friend
        if role := role_of(m["role"]):
            named = [n for n in (m["name"], m["and"]) if n and n.split()[0] not in _NOT_NAMES]
            out.extend(people.known_as(name, one_of(role[0]), owner) for name in named)
    return out


def said_mine(rest: str, name: str, people: People, owner: str) -> Found | None:
    """ "(He) is my college roommate", said of someone named before: the speaker's, in that role."""
    m = re.match(
        r"^(?:is|was) (?:my|our) (?:(?:best|close|good|old|dear|childhood) )?(?P<role>[a-z]+(?: [a-z]+)?)[.!]?$",
        rest,
        re.IGNORECASE,
    )
    found = (role_of(m.group("role")) or role_of(m.group("role").split()[-1])) if m else None
    return people.known_as(name, found[0], owner) if found else None


# "a nurse called Nina", "an old friend named Leo Park", of a role only "a coworker, Sam, …": someone
# introduced by what they are and their name, which stands for the phrase ("I met a nurse called Nina" → I met Nina)
_INTRODUCED = re.compile(
    rf"\b(?:a|an|this|one) (?P<what>(?:[A-Za-z-]+ ){{0,2}}?[a-z-]+)(?:,? (?:called|named|by the name of) |(?P<apposed>, ))"
    rf"(?P<name>{_NAME})\b(?(apposed)(?=,|[.;!]|$))"
)

# "Mia, the new analyst, joined …": a name, then what they are between commas (not another name: "Transportation,
# the Committee on the Judiciary, …" lists names)
_APPOSITIVE = re.compile(
    rf"^(?P<name>{_NAME}), (?P<det>the|a|an|my|our) (?P<what>[a-z][A-Za-z' -]{{1,39}}?), (?=[a-z])"
)

# "…, her name is Lily": where a name said after the clause begins (its comma may have gone with a time read
# out of the clause: "had a baby girl last week, her name is …")
_NAME_IS = re.compile(r"(?:,\s*|\s+)(?:and )?(?:his|her|their) name(?: is|'s)(?=\s)")

# "…, his name is Felix": the name of the person the clause before introduced ("my colleague lives in Leeds,
# her name's Priya": the one of that role)
_NAMED_AFTER = re.compile(
    rf"\b(?P<det>a|an|(?i:my|our)) (?P<what>(?:[a-z-]+ ){{0,2}}?[a-z-]+)\b[^.;!?]*?{_NAME_IS.pattern} (?P<name>{_NAME})\b"
)

# the name said after a clause, to be left out of it: "had a baby girl, her name is Lily" → "had a baby girl"
NAME_SAID_AFTER = re.compile(_NAME_IS.pattern + r" [A-Z][\w'-]*(?: [A-Z][\w'-]*)?")


# what names a person when a name follows it (a guy called Tom, a nurse named Nina, a juggler named Jamie): a role,
# a word for a person or for one who does something; not a place, a thing or an animal (an area called Soho)
_PERSON_HEAD = re.compile(
    r"(?:guy|man|woman|girl|boy|lady|person|kid|baby|child|teen|chef|cook|nurse|physio|vet|pilot|poet|clerk|priest|"
    r"nun|monk|judge|guide|barista|nanny|host|mechanic|architect|expert|athlete|veteran|official|student|docent|"
    r"(?:assist|consult|account|attend)ant|[a-z]+(?<!list)(?<!cent)(?<!theat)(?:er|or|ist|ian))$"
)


# "I have a new manager.": someone of a role, not named yet, whom a she or "her name is …" may mean next
_HAVE_ONE = re.compile(
    rf"^(?:I|[Ww]e)(?:'ve| have| now have| got| have got)? (?:got )?(?:a|an) (?:new )?(?P<role>{EN_ROLE})[.!]?$"
)


def introduced(text: str, people: People, owner: str) -> tuple[str, list[Found]]:
    """People a clause introduces by what they are and their name: each learnt as someone the
    speaker knows, what they are said (Nina is a nurse); the clause with the name in the phrase's place."""
    out: list[Found] = []
    if (one := _HAVE_ONE.match(text.strip())) and (role := role_of(one.group("role"))) and role[0] not in PETS:
        people.learn(f"my {role[0]}", gender=role[1])
    m = _APPOSITIVE.match(text)
    if m and _a_name(m.group("name")):
        name, what = m.group("name"), m.group("what")
        mine = role_of(what) if m.group("det") in ("my", "our") else None
        out = introduce(people, name, mine[0] if mine else "acquaintance", None if mine else what, owner, "is a")
        return name + " " + text[m.end() :], out
    for pattern in (_INTRODUCED, _NAMED_AFTER):
        m = pattern.search(text)
        if m is None or m.group("name").split()[0] in _NOT_NAMES:
            continue
        what, name = m.group("what"), m.group("name")
        said = _NAME_IS.search(m.group(0)) if pattern is _NAMED_AFTER else None
        whole = text[m.start("what") : m.start() + said.start()].split() if said else []
        if 1 < len(whole) <= 3 and all(w.isalpha() and w.islower() for w in whole):
            what = " ".join(whole)  # "a baby girl, her name is Lily": the whole phrase, not its first word
        owned = re.search(  # and who has them: "Rachel had a baby boy named Max" is Rachel's, not the speaker's
            rf"(?:\b(?P<who>I|[Ww]e|{_NAME})(?:'ve|,)?(?: (?:have|just|now|also|already|still|both|all|[a-z]+ly))* )?"
            r"(?:have|has|had|got|own|owns|adopted|bought|keep|keeps)\s+$",
            text[: m.start()],
        )
        found = role_of(what.split()[-1]) or role_of(" ".join(what.split()[-2:]))
        if m.groupdict().get("apposed") and found is None:
            continue  # "a party, Sarah, …" speaks to Sarah: only a role is named between commas
        who = owned["who"] if owned else None
        by_me = who in ("I", "We", "we")
        theirs = who if who and not by_me and _a_name(who) else None
        person, pet = bool(found and found[0] not in PETS), bool(by_me and found and found[0] in PETS)  # my dog Max
        if not (person or pet) and (owned or not _PERSON_HEAD.search(what.split()[-1].lower())):
            continue  # a thing, a place or a pet (she has a dog called Rex, a café called Lark), not someone met
        by_role = pattern is _NAMED_AFTER and m.group("det").lower() in ("my", "our")
        if by_role and found is None:
            continue  # my new job …, her name is …: no one of a role the phrase names
        if by_role and found is not None:
            out = introduce(people, name, found[0], None, owner, "is a")
        elif found and by_me:  # "I have a younger brother named Leo": Leo is the speaker's brother
            plain = all(w in _KIN_WORDS for w in what.lower().split()[:-1])  # a younger brother: the role says it
            out = introduce(people, name, found[0], None if role_of(what) or plain else what, owner, "is a")
        elif theirs and found:  # "Rachel had a baby boy named Max": Rachel's son
            people.learn(theirs)
            out = [people.learn_of(theirs, name, found[0], what)]
        else:
            out = introduce(people, name, "acquaintance", what, owner, "is a")
        if pattern is _INTRODUCED:
            text = text[: m.start()] + name + text[m.end() :]
        else:
            text = text[: m.start() + (said.start() if said else len(m.group(0)))]  # the clause before the name
        break
    return text, out
