"""English clauses: whom a clause is about, and what it says of them.

A clause opens with its subject — I, a person by name (Ruth), by role (my cousin, my piano
teacher), by pronoun (she / he) — which ``subject_of`` reads (``people.People`` says whom a role
or a pronoun means); ``predicates`` reads the rest: where they live or moved to, where they work
or study (and quitting, joining, graduating), what they like or no longer do, what they have or
bought, what they plan, and their name, origin or what they are. The verbs are read in every
person (live / lives / living), so "she lives in Oslo" is read as "I live in Oslo" is.

Only the present and what changed set a slot: "I live in Oslo", "I moved to Oslo", "I live in
Oslo now"; "I used to live in Oslo" sets none. A negated clause states nothing unless it is a
stance or an end: "I don't like jazz", "I no longer drink coffee", "I don't live in Oslo anymore".
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from ..lexicon.roles import EN_ROLE, EN_ROLES, role_of
from .people import People, introduce
from .phrases import Found, clean, without_dangling

_NAME = r"(?:(?:Mr|Mrs|Ms|Dr|Miss)\.? )?[A-Z][a-z]+(?:[ -][A-Z][a-z]+)?"
_NOT_NAMES = frozenset("I The This That It He She They We You There Here Who What My Our And But So".split())
EN_LEAD = re.compile(
    r"^(?:(?:after that|after this|before that|after all that|once that's done|once that is done|oh|hey|hi|yeah|yes|yep|wow|well|so|and|but|also|plus|actually|anyway|anyways|btw|honestly|ok|okay|"
    r"um|uh|hmm|guess what|by the way|fyi|just|especially|right after|just after|after|before|now|these days|nowadays|recently|lately|finally|then|today|tonight|"
    r"fun fact|news|update|big news|besides that|besides|other than that|apart from that|on top of that|"
    r"in other news|meanwhile|unfortunately|fortunately|luckily|thankfully|sadly|of course|"
    r"since (?:we|I) last (?:spoke|talked|chatted|saw each other|caught up))\b[,!:.]?\s*)+",
    re.IGNORECASE,
)
_CONTRACTIONS = [
    (re.compile(r"^'m\b|^ am\b"), " am"),
    (re.compile(r"^'s\b"), " is"),
    (re.compile(r"^'re\b"), " are"),
    (re.compile(r"^'ve\b"), " have"),
    (re.compile(r"^'ll\b"), " will"),
    (re.compile(r"^'d\b"), " would"),
]


@dataclass
class Subject:
    name: str | None  # None: the speaker
    rest: str
    relation: Found | None = None
    pronoun: str | None = None
    of_role: str | None = None  # the clause is about this relative of the subject's (Ruth's husband, his grandson)
    described: Found | None = None  # what the opening says they are (as rules_zh.Subject)
    together: Found | None = None  # a relative said with them: "Ruth and her husband Mark" (Ruth · husband · Mark)


_MY = r"(?:[Mm]y|[Oo]ur)"
# Where "the … next door" lives: the speaker's neighbour.
_NEXT_DOOR = re.compile(r"^(?:next door|downstairs|upstairs|across the (?:street|road|hall))\b", re.IGNORECASE)


def subject_of(clause: str, people: People, owner: str) -> Subject | None:
    """The subject a clause opens with, or None when it opens with no one the reader can name."""
    subj = _opening(clause, people, owner)
    return _and_their(subj, people) if subj is not None and subj.name is not None else subj


# "Ruth and her husband Mark came over": a relative said with the subject, named or not
_AND_THEIR = re.compile(r"^,? ?and (?:her|his|their) ")
# what two people do to each other: the one after "and" is its other party
_WITH_EACH_OTHER = re.compile(
    r"^(?:(?:have|had|just|finally|recently) )*(?:split up|broke up|break up|divorced|got divorced|separated|"
    r"got married|got engaged|married|had a (?:fight|falling out)|fell out|made up|are fighting|argued)\b"
)


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
    if named and _a_name(named.group("name")) and named.group("name").split()[0] not in _NOT_NAMES:
        name = named.group("name")
        people.learn_of(subj.name or "", name, relative[0], relative[0])
        subj.together = Found("RELATION", relative[0], name, 0.7, subject=subj.name, kind="relation")
        people.mention(subj.name or "")  # the clause is still about them
        after = after[named.end() :]
    subj.rest = after.strip()
    return subj


def _opening(clause: str, people: People, owner: str) -> Subject | None:
    # a time said first leaves its comma behind ("Yesterday, I …" read without "Yesterday")
    text = EN_LEAD.sub("", clause.strip().replace("’", "'").lstrip(",;: ")).strip()
    m = re.match(rf"^(?P<name>{_NAME}) (?:is|was) {_MY} (?:best |close |good |old |dear )?(?P<role>{EN_ROLE})\b", text)
    found = role_of(m.group("role")) if m else None
    if m and found and m.group("name").split()[0] not in _NOT_NAMES:
        name, role = m.group("name"), found[0]
        people.learn(name, role, owner=owner)
        return Subject(name, "", _relation(role, name))
    m = re.match(
        rf"^{_MY} (?P<mods>(?:[A-Za-z-]+ ){{0,2}}?)(?P<role>{EN_ROLE}|[a-z]+(?: pal)?|[A-Z]{{2,4}})"
        rf"(?P<how>'s name is| is (?:called|named)| is) (?P<name>{_NAME})(?=$|[,.!;:]|\s+(?:and|but|now)\b)",
        text,
    )
    found = role_of(m.group("role")) if m else None
    if m and (found or m.group("how") != " is") and _a_name(m.group("name")):
        # my sister is Anna, my dentist is Dr Okafor; any noun when the name is said to be its name
        role = found[0] if found else m.group("role").lower()
        name, mods = m.group("name"), (m.group("mods") or "").strip()
        people.learn(name, role, owner=owner, gender=found[1] if found else None)
        if mods:
            people.describe(name, f"{mods} {m.group('role')}")
        return Subject(name, "", _relation(role, name))
    m = re.match(
        rf"^{_MY} (?P<mods>(?:[A-Za-z-]+ ){{0,2}}?)(?P<role>{EN_ROLE})\b,? ?(?P<name>{_NAME})?(?P<tail>,)?", text
    )
    if m and re.match(r"\s*and (?:I|we)\b", text[m.end("role") :]):
        m = None  # "My wife and I went …": the speaker, with her (read below)
    found = role_of(m.group("role")) if m else None
    mods = (m.group("mods") or "").strip() if m else ""
    if m and found and not (mods and _not_modifier(mods)):
        role = found[0]
        name = m.group("name")
        if name and name.split()[0] not in _NOT_NAMES:
            people.learn(name, role, owner=owner)
            if mods:  # my Irish colleague Ruth: what she is, for "the Irish colleague" later
                people.describe(name, f"{mods} {m.group('role')}")
            return _with_relative(Subject(name, text[m.end() :], _relation(role, name)), people)
        after = text[m.end("role") :].lstrip(", ")
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
    m = re.match(r"^(?P<pron>his|her) ", text, re.IGNORECASE)
    relative = _relative_at(text[m.end() :]) if m else None
    if m and relative:
        name = people.by_pronoun(m.group("pron"))
        if name is None:
            return None
        people.settle(name, m.group("pron"))
        subj = Subject(name, text[m.end() + relative[1] :].strip(), of_role=relative[0])
        return _named_relative(subj, people) or subj
    m = re.match(r"^they\b", text, re.IGNORECASE)
    together = people.by_they() if m else None
    if m and together:  # "My parents came over. They brought a cake.": the ones spoken of together
        people.mention(together)
        return Subject(together, _expand(text[m.end() :]), pronoun="they")
    m = re.match(r"^(she|he)\b", text, re.IGNORECASE)
    if m:
        name = people.by_pronoun(m.group(1))
        if name is None:
            return None
        people.settle(name, m.group(1))
        return Subject(name, _expand(text[m.end() :]), pronoun=m.group(1).lower())
    for key in sorted(people.names, key=len, reverse=True):
        said = people.names[key]
        # "Ruth's …", "Ruth moved …"; not "Ruth, thanks …", which speaks to her
        if re.match(rf"^{re.escape(said)}(?:'s\b|\b(?!\s*,))", text) and said[:1].isupper():
            people.mention(said)
            return _with_relative(Subject(said, _expand(text[len(said) :], possessive=True)), people)
    described = _described(text, people)
    if described is not None:
        return described
    m = re.match(r"^(?P<name>(?:Mr|Mrs|Ms|Dr|Miss)\.? [A-Z][a-z]+)\b", text) or _PERSON_DOES.match(text)
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


# A plain name never met before, opening a clause with what a person does for someone or for a
# living (Rosa comes to clean our house, Sue runs the flower shop downstairs): someone. Any other
# capitalised opening (Tesco sells …, London was …) is not taken for a person.
_PERSON_DOES = re.compile(
    r"^(?P<name>[A-Z][a-z]+)(?= (?:comes|came) (?:to|over|round|by)\b| (?:runs|ran|owns) (?:the|a|an|our|my) |"
    r" (?:works|worked|teaches|taught) (?:at|as|in|for)\b| (?:lives|lived) (?:in|next door|downstairs|upstairs)\b|"
    r" (?:cleans|looks after|babysits|walks) (?:our|my|the) )"
)


# Capitalised words that say what someone is, not who: my sister is British.
_NOT_A_NAME = re.compile(
    r"^(?:[A-Z][a-z]+(?:ish|ese|ian|can|man|ic)|Catholic|Muslim|Jewish|Buddhist|Hindu|Christian|Greek|Thai|Swiss|"
    r"Dutch|Irish|French|Vegan|Vegetarian|Fine|Great|Good|Okay|Ok|Home|Back|Here|There|Away|Done|Sorry|Ready|"
    r"Sure|Glad|Happy|Busy|Tired|Single|Married|In|Out|Off|On|Not|So|Just|Still|Also|Really|Very|All)$"
)


# Given names that end like a nationality or an adjective (Brian, Eric, Duncan): names all the same.
_NAMES_LIKE_WORDS = frozenset(
    "Brian Ian Adrian Julian Vivian Lillian Gillian Damian Sebastian Marian Eric Dominic Norman Herman Duncan".split()
)


def _a_name(name: str) -> bool:
    first = name.split()[0]
    return first not in _NOT_NAMES and (
        first in _NAMES_LIKE_WORDS
        or not (" " not in name and _NOT_A_NAME.match(name) and first[:2] not in ("Mr", "Ms", "Dr"))
    )


# After a role, which one it is: "in Shanghai", "with the café", "from work".
_WHICH_ONE = re.compile(
    r"^(?:with|in|from|at) (?:the |a |an |my |our )?(?:[A-Z][\w'-]*(?: [A-Z][\w'-]*)*|[a-z][\w'-]*) (?=[a-z])"
)


# Roles that are a person's family or household: "Ruth's husband", "his grandson" is about them.
EN_RELATIVES = frozenset(
    {c for c, _ in EN_ROLES.values()} - {"boss", "manager", "colleague", "classmate", "mentor", "landlord", "therapist"}
)
# Words before a role that make it someone other than the one named in it before.
_OTHER_ONE = {"new", "other", "former", "ex", "late", "second", "third", "another"}


def _not_modifier(mods: str) -> bool:
    words = mods.lower().split()
    return any(w in _OTHER_ONE or w in _NOT_MODIFIERS_VERBS for w in words)


_NOT_MODIFIERS_VERBS = {"and", "or", "is", "was", "has", "had", "to", "in", "at", "with"}


def _with_relative(subj: Subject, people: People) -> Subject:
    """Ruth's husband …: the clause is about Ruth's husband, kept as Ruth's (``of_role``)."""
    relative = _relative_at(subj.rest[3:]) if subj.rest.startswith("'s ") else None
    relative = relative or (_role_named(subj.rest[3:]) if subj.rest.startswith("'s ") else None)
    if relative is None:
        if subj.rest.startswith("'s"):
            subj.rest = _expand(subj.rest)
        return subj
    subj.rest, subj.of_role = subj.rest[3 + relative[1] :].strip(), relative[0]
    return _named_relative(subj, people) or subj


def _named_relative(subj: Subject, people: People) -> Subject | None:
    """Ruth's son Leo …, her husband Mark …: the relative named, known from now on as theirs (a
    relation of Ruth's), and the clause about them; None when no name follows the relative."""
    if subj.name is None or subj.of_role is None or role_of(subj.of_role) is None:
        return None
    m = re.match(rf"^,? ?(?P<name>{_NAME})(?:,)? (?=[a-z])", subj.rest)
    if m is None or not _a_name(m.group("name")) or m.group("name").split()[0] in _NOT_NAMES:
        return None
    name = m.group("name")
    people.learn_of(subj.name, name, subj.of_role, subj.of_role)
    relation = Found("RELATION", subj.of_role, name, 0.7, subject=subj.name, kind="relation")
    return Subject(name, _expand(subj.rest[m.end() :]), relation)


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
    return Found("FACT", topic, who, 0.7, kind="relation", slot="partner", ends=True)


def said_mine(rest: str, name: str, people: People, owner: str) -> Found | None:
    """ "(He) is my college roommate", said of someone named before: the speaker's, in that role."""
    m = re.match(
        r"^(?:is|was) (?:my|our) (?:(?:best|close|good|old|dear|childhood) )?(?P<role>[a-z]+(?: [a-z]+)?)[.!]?$",
        rest,
        _I,
    )
    found = (role_of(m.group("role")) or role_of(m.group("role").split()[-1])) if m else None
    if found is None:
        return None
    people.learn(name, found[0], owner=owner)
    return Found("RELATION", found[0], name, 0.7, subject=None, kind="relation")


def _role_named(text: str) -> tuple[str, int] | None:
    """A role anyone may have to someone, followed by their name (teacher Mrs Patel, boss, Linda):
    the role and where it ends; None without a name after it (my son's teacher says whom, not who)."""
    for m in (re.match(r"^[a-z]+ [a-z]+\b", text), re.match(r"^[a-z]+\b", text)):
        found = role_of(m.group(0)) if m else None
        named = re.match(rf",? ?(?P<name>{_NAME})\b", text[m.end() :]) if m and found else None
        if m and found and named and _a_name(named.group("name")):
            return found[0], m.end()
    return None


def _relative_at(text: str) -> tuple[str, int] | None:
    """The relative a text opens with (husband, best friend, grandson) and where it ends, or a
    thing of theirs said before its verb (her shop is …, his knee hurts)."""
    for m in (re.match(r"^[a-z]+ [a-z]+\b", text), re.match(r"^[a-z]+\b", text)):
        found = role_of(m.group(0)) if m else None
        if m and found and found[0] in EN_RELATIVES:
            return found[0], m.end()
    m = re.match(r"^(?P<noun>[a-z]+) (?P<verb>[a-z']+)\b", text)
    if m and not m.group("noun").endswith(("ing", "ed", "ly")) and m.group("noun") not in _NOT_THEIR_THINGS:
        verb = m.group("verb")
        if verb in {"is", "are", "was", "were", "has", "had", "isn't", "wasn't"} or (
            verb.endswith(("es", "ed")) and len(verb) > 4
        ):
            return m.group("noun"), m.end("noun")
    return None


# Words after his / her / Ruth's that are no thing of theirs: an auxiliary, a quantifier, an adverb.
_NOT_THEIR_THINGS = frozenset("own way best first last only other been got gone just also really all".split())


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
        name = people.by_description(desc)
        if name is None and near:
            name = people.by_role("neighbor")
        if name is not None:
            people.mention(name)
            return Subject(name, _expand(rest))
    return None


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
    for pattern, full in _CONTRACTIONS:
        rest = pattern.sub(full, rest, count=1)
    return rest.strip()


def _relation(role: str, name: str) -> Found:
    return Found("RELATION", role, name, 0.7, kind="relation")


# My daughter's form teacher is Ms Harper / Ruth's husband is called Tom: someone in a role to a
# person the speaker knows.
_ROLE_OF_SOMEONE = re.compile(
    rf"^(?:{_MY} (?P<rel>{EN_ROLE})|(?P<whose>{_NAME}))'s (?P<role>{EN_ROLE}|[a-z]+(?: [a-z]+)?) "
    rf"(?:is called|is named|is) (?P<name>{_NAME})[.!]?$"
)


def role_of_someone(text: str, people: People, owner: str) -> Found | None:
    """My daughter's form teacher is Ms Harper → my daughter · form teacher · Ms Harper, Ms Harper
    learnt as that; None when the clause says no such thing."""
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
    people.learn_of(whose, m.group("name"), role[0], m.group("role"))
    return Found("RELATION", role[0], m.group("name"), 0.7, subject=whose, kind="relation")


# words before a role that only say which of them (a younger brother, an older sister, twin)
_KIN_WORDS = {"younger", "older", "elder", "little", "big", "baby", "twin", "kid", "step"}
# "Jess and I have been friends since college": someone the speaker is something to, together
_TOGETHER = re.compile(
    rf"^(?P<name>{_NAME}) and I (?:have been|'ve been|are|were|became|have become) (?:\w+ ){{0,2}}?"
    r"(?P<role>best friends|friends|classmates|colleagues|coworkers|co-workers|roommates|flatmates|neighbou?rs)\b"
)
_TOGETHER_ROLE = {
    "coworkers": "colleague",
    "co-workers": "colleague",
    "neighbours": "neighbor",
    "neighbors": "neighbor",
}


def said_together(text: str) -> bool:
    """The clause only says what the speaker and someone are to each other (``_TOGETHER``)."""
    return _TOGETHER.match(text) is not None


def stated_people(text: str, people: People, owner: str) -> list[Found]:
    """Relations said inside a clause (I had lunch with my cousin Ruth), and "Jess and I have been
    friends since college": each learnt."""
    out = []
    together = _TOGETHER.match(text)
    if together and together.group("name").split()[0] not in _NOT_NAMES and _a_name(together.group("name")):
        said = together.group("role").lower()
        role = role_of(_TOGETHER_ROLE.get(said, said[:-1]))
        if role:
            people.learn(together.group("name"), role[0], owner=owner)
            out.append(_relation(role[0], together.group("name")))
    for m in re.finditer(rf"(?<=\s)my (?P<role>{EN_ROLE}),? (?P<name>{_NAME})\b", text):
        role = role_of(m.group("role"))
        if role and m.group("name").split()[0] not in _NOT_NAMES:
            people.learn(m.group("name"), role[0], owner=owner)
            out.append(_relation(role[0], m.group("name")))
    return out


# --- predicates ----------------------------------------------------------------------------
_ADV = (
    r"(?:(?:just|recently|finally|actually|also|now|currently|still|really|already|officially|totally|even|all|so)\s+)*"
)
_X = r"(?P<obj>[^,;:.!?]+)"
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


def predicates(rest: str, third: bool, time_text: str | None) -> list[Found]:
    """What a clause says of its subject, read from the text after the subject: the first rule
    that reads it wins."""
    p = rest.strip(" ,.!?;:")
    if not p:
        return []
    first, *more = _AND_THEN.split(p, maxsplit=1)
    if more:  # "left the hospital and joined a care home": each part said of the same subject
        return predicates(first, third, time_text) + predicates(more[0], third, time_text)
    for pattern, make in _RULES:
        m = pattern.match(p)
        if m:
            found = make(m, third, time_text)
            if found is not None:
                return found
    return []


# A second predicate of the same subject: "… and joined Globex", "… and then moved to Leeds".
_AND_THEN = re.compile(
    r"\s+(?:and|but|and then|then)\s+(?=(?:have |has |had )?(?:just |now |also |finally |recently )?"
    r"(?:joined|started|moved|relocated|quit|left|resigned|retired|bought|adopted|got|became|switched|"
    r"enrolled|graduated|gave up|went|transferred|sold)\b)",
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
_AS_WELL_AS = re.compile(r",\s+as well as\b", re.IGNORECASE)


# the rest of a list after its first item: ", music and dance", " or tennis" (items of up to three
# words, none a word that opens a clause); it runs to the end of the clause
_LIST_ITEM = r"(?!(?:but|so|because|which|who|that|though|although|especially|except|when|if|while|then|since|as)\b)[\w'-]+(?:\s+[\w'-]+){0,2}"
_LIST_REST = re.compile(
    rf"(?:,\s*{_LIST_ITEM})*,?\s+(?:and|or)\s+{_LIST_ITEM}(?:\s+[\w'-]+){{0,3}}(?=\s*(?:[;:.!?]|$))", re.IGNORECASE
)


def _past_comma(m: re.Match, group: str, raw: str) -> str:
    """``raw`` (the object ``m`` matched up to a comma) with what follows a comma that does not end it:
    the rest of a list ("art, music and dance"), a second adjective, "as well as"."""
    after = m.string[m.end(group) :]
    if after.startswith(",") and (listed := _LIST_REST.match(after)):
        return raw + listed.group(0)
    coordinate = re.search(r"\b(?:a|an|the|my|our|his|her|their|this|that)\s+[a-z-]+$", raw) and _ADJECTIVE_COMMA.match(
        after
    )
    if not coordinate and not _AS_WELL_AS.match(after):
        return raw
    rest = re.match(r"[^;:.!?]*?(?=[,;:.!?]|$)", after[1:])
    return raw + "," + (rest.group(0) if rest else "")


def _obj(m: re.Match, group: str = "obj") -> str | None:
    raw = m.groupdict().get(group)
    if not raw:
        return None
    raw = _past_comma(m, group, raw)
    raw = re.sub(r"\s+(?:now|these days|anymore|any more|nowadays|again)\s*$", "", raw.strip(), flags=re.IGNORECASE)
    # how long is not where or what: "in Austin for three years" → Austin
    raw = re.sub(
        r"\s+for (?:the (?:last|past) )?(?:\w+ ){0,2}(?:years?|months?|weeks?|days?|ages|a while|decades?)$",
        "",
        raw,
        flags=re.IGNORECASE,
    )
    obj = clean(raw, False, 60)
    obj = " ".join(without_dangling((obj or "").split(), keep=1))  # "Acme on" once "Monday" is the time
    if not obj:
        return None
    if obj.lower().split()[0] in {"it", "that", "this", "there", "here", "them", "you", "your", "what", "how", "which"}:
        return None
    return obj


def _third(topic: str, third: bool) -> str:
    """A topic agreeing with its subject: live in / lives in."""
    if not third:
        return topic
    head, _, tail = topic.partition(" ")
    irregular = {"have": "has", "do": "does", "go": "goes", "am": "is", "study": "studies"}
    if head in irregular:
        head = irregular[head]
    elif head not in {"no", "moved", "joined", "quit", "graduated", "enrolled", "stopped", "bought", "adopted", "is"}:
        head = head + ("es" if head.endswith(("s", "sh", "ch", "x")) else "s")
    return f"{head} {tail}".strip()


def plural(topic: str) -> str:
    """A topic read as the speaker's, agreeing with people spoken of together: am into → are into."""
    head, _, tail = topic.partition(" ")
    return f"{ {'am': 'are', 'was': 'were'}.get(head, head) } {tail}".strip()


Make = Callable[[re.Match, bool, str | None], list[Found] | None]


def _slot(topic: str, kind: str, slot: str | None, ends: bool = False, needs_object: bool = True) -> Make:
    def make(m: re.Match, third: bool, time_text: str | None) -> list[Found] | None:
        obj = _obj(m)
        if obj is None and needs_object:
            return None
        timed = bool(time_text)
        mtype = "EVENT" if timed and (ends or topic in _CHANGES) else "FACT"
        return [Found(mtype, _third(topic, third), obj, 0.7, kind=kind, slot=slot, ends=ends)]

    return make


_CHANGES = frozenset(
    "moved to|joined|enrolled at|quit|graduated from|no longer live in|no longer work at|moved out of".split("|")
)


_FOR_A_TIME = re.compile(
    r"\s+for\s+((?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|"
    r"(?:twenty|thirty|forty|fifty)(?:-\w+)?|a few|a couple of|several|many|\d+)\s+"
    r"(?:\w+\s+)?(?:years?|months?|weeks?|summers?|winters?|decades?))$",
    re.IGNORECASE,
)


def _for_how_long(said: str) -> tuple[str, str | None]:
    """ "Acme for three years" → ("Acme", "three years"); the words alone when they say no span."""
    long = _FOR_A_TIME.search(said)
    return (said[: long.start()], long.group(1)) if long else (said, None)


def _work_at(m: re.Match, third: bool, time_text: str | None) -> list[Found] | None:
    """I work at / she works for X: the employer now. "worked at X" and "used to work at X" say
    where they worked, a fact of the past that sets no slot; "have worked" and "worked at X
    before" give none here."""
    said = m.group(0)
    if re.match(r"^(?:have|has) worked", said, _I):
        return _worked_since(m, third, time_text)
    if re.match(r"^(?:have|has) been working", said, _I):  # still there: since when, if said
        return _worked_since(m, third, time_text) or _slot("work at", "work", "employer")(m, third, None)
    if re.search(r"\b(?:before|previously|back then|in the past)$", said, _I):
        return None
    if re.search(r"\b(?:worked|interned) (?:at|for) |^used to ", said, _I):
        obj, duration = _for_how_long(_obj(m) or "")  # "worked at a bookshop for two summers"
        return (
            [Found("FACT", "worked at", obj, 0.6, {"duration": duration} if duration else None, kind="work")]
            if obj
            else None
        )
    found = _slot("work at", "work", "employer")(m, third, time_text)
    as_what = _AS_A_JOB.match(found[0].object or "") if found else None
    if found and as_what:  # "works at the hospital as a nurse": where, and the job
        found[0].object = as_what.group("org")
        found.append(Found("FACT", _third("work as", third), as_what.group("job"), 0.7, kind="work", slot="job"))
    return found


_AS_A_JOB = re.compile(r"^(?P<org>.+?) as (?:a |an )?(?P<job>[a-z][a-z -]{1,40})$")


def _lived_before(m: re.Match) -> list[Found] | None:
    obj, duration = _obj(m), _for_how_long((m.group("obj") or "").strip())[1]
    if not obj or (m.group("used").startswith("lived") and not duration):
        return None  # "lived in Oslo in 2015": an event of its time, read as said
    attributes = {"duration": duration} if duration else None
    return [Found("FACT", "lived in", obj, 0.6, attributes, kind="residence")]


def _held_since(topic: str, kind: str, slot: str) -> Make:
    """ "have worked at X since 2019" / "have lived in X for three years": still there, the slot's
    value now, since when or for how long; "have worked at X" alone may mean any time before: none."""

    def make(m: re.Match, third: bool, time_text: str | None) -> list[Found] | None:
        return _since_or_for(m, topic, kind, slot, third, time_text)

    return make


def _since_or_for(
    m: re.Match, topic: str, kind: str, slot: str, third: bool, time_text: str | None
) -> list[Found] | None:
    raw = m.group("obj") or ""
    since = time_text if time_text and time_text.lower().startswith("since ") else None
    if not since and " since " in raw:  # since I graduated: not a time the parser reads, said as it was
        raw, _, after = raw.partition(" since ")
        since = after.strip() or None
    raw, duration = _for_how_long(raw)
    obj = clean(raw, False, 60)
    if not obj or not (since or duration):
        return None
    attributes = {"since": since} if since else {"duration": duration or ""}
    return [Found("FACT", _third(topic, third), obj, 0.7, attributes, kind=kind, slot=slot)]


_worked_since = _held_since("work at", "work", "employer")


def _been_at(m: re.Match, third: bool, time_text: str | None) -> list[Found] | None:
    """ "have been at X since 2019 / for three years": X is where they work when the span is one a job
    has (a year, years, months) and X no school or someone's place (at Mom's since Friday)."""
    span = f"{time_text or ''} {m.group('obj')}"
    if not (
        re.search(r"\bsince (?:\w+ )?\d{4}\b|\bfor (?:\w+ )?(?:years?|months?|decades?)\b", span, _I)
        or re.search(rf"\bsince (?:last )?{_MONTH.pattern}", span)
    ):
        return None
    if _SCHOOLISH.search(m.group("obj")) or re.search(r"'s?\b", m.group("obj")):
        return None
    return _worked_since(m, third, time_text)


# what one plays or does for years: the verb's forms, base first ("have been playing", "played")
_PLAYED = {
    f: forms[0]
    for forms in (
        ("play", "playing", "played"),
        ("do", "doing", "done", "did"),
        ("practice", "practicing", "practiced", "practising", "practised"),
        ("dance", "dancing", "danced"),
        ("sing", "singing", "sung", "sang"),
        ("paint", "painting", "painted"),
        ("ski", "skiing", "skied"),
        ("surf", "surfing", "surfed"),
        ("climb", "climbing", "climbed"),
        ("swim", "swimming", "swum", "swam"),
        ("ride", "riding", "ridden", "rode"),
    )
    for f in forms
}


def _played(m: re.Match, third: bool, time_text: str | None) -> list[Found] | None:
    """ "have played piano for three years" / "have been doing yoga for two years": what they still do,
    and for how long; "played soccer for five years": a span that ended, said in the past."""
    raw, duration = _for_how_long(_past_comma(m, "obj", m.group("obj") or ""))
    obj = clean(raw, False, 60)
    if not obj or obj.split()[0].lower() in {"it", "this", "that", "there", "with", "around"}:
        return None
    verb = m.group("verb").lower()
    if not duration:  # "I play guitar": what someone plays; another verb needs how long
        return _plays(obj, third) if verb in ("play", "plays") and not m.group("have") else None
    if not m.group("have") and (verb == _PLAYED[verb] or verb.endswith("ing")):
        return None  # "I play piano for an hour": how long each time, no span
    topic = _third(_PLAYED[verb], third) if m.group("have") else verb
    return [Found("FACT", topic, obj, 0.6, {"duration": duration}, kind="fact")]


def _teaches(m: re.Match, third: bool) -> list[Found] | None:
    what = clean(m.group("what"), False, 40)
    if not what:
        return None
    found = [Found("FACT", _third("teach", third), what, 0.6, kind="fact")]
    if m.group("obj") and (place := _obj(m)):
        found.append(Found("FACT", _third("work at", third), place, 0.7, kind="work", slot="employer"))
    return found


def _plays(obj: str, third: bool) -> list[Found] | None:
    """ "I play guitar" / "she plays tennis": what someone plays, an instrument or a game (not "play
    with the kids", "play it safe", "play a role")."""
    words = obj.lower().split()
    if words[0] in {"a", "an", "with", "for", "to", "on", "in", "at", "by", "games", "along"} or words[-1] in {
        "role",
        "part",
        "safe",
        "dead",
        "fair",
    }:
        return None
    obj = re.sub(r"\s+for\s+.*$", "", obj)  # "piano for an hour": how long each time
    if words[0] == "the" and len(words) > 1:
        obj = obj.split(" ", 1)[1]
    return [Found("FACT", _third("play", third), obj, 0.6, kind="fact")]


def _learning(m: re.Match, third: bool, time_text: str | None) -> list[Found] | None:
    raw, duration = _for_how_long(m.group("obj") or "")
    obj = clean(raw, False, 60)
    if not obj or obj.split()[0].lower() in {"to", "how", "that", "it", "this"}:
        return None  # "learning to cope", "learning how it works": no subject to name
    verb = "practicing" if m.group("verb").lower() == "practising" else m.group("verb").lower()
    topic = ("is " if third else "am ") + verb
    return [Found("FACT", topic, obj, 0.6, {"duration": duration} if duration else None, kind="fact")]


def _joined(m: re.Match, third: bool, time_text: str | None) -> list[Found] | None:
    """joined / started at: a school when its name says so (started at Greenway Primary), else a
    place of work, with the job when said (joined a care home in Kent as a manager)."""
    obj = _obj(m)
    working = re.search(r"\bworking (?:at|for)\b", m.group(0), re.IGNORECASE)  # "started working at a bakery"
    if not obj:
        return None
    if not (working or re.search(r"\b[A-Z]", obj)):
        # "joined a book club", "joined the choir": a group joined, no employer
        if re.search(r"\bjoined$", m.group(0)[: m.start("obj")].strip(), re.IGNORECASE) and re.match(
            r"^(?:a|an|the|our|my|this|that|local)\b", obj, re.IGNORECASE
        ):
            return [
                Found("EVENT" if time_text else "FACT", "became a member of", obj, 0.5)
            ]  # "joined" names the employer slot
        return None
    if _SCHOOLISH.search(obj):
        return _slot("enrolled at", "school", "school")(m, third, time_text)
    org, _, job = obj.partition(" as ")
    job = re.sub(r"^(?:a|an|the|our|their|its) ", "", job.strip(), flags=re.IGNORECASE)
    found = _slot("joined", "work", "employer")(m, third, time_text) or []
    if job and found and len(job.split()) <= 4:
        found[0].object = org.strip()
        found.append(Found(found[0].memory_type, _third("work as", third), job, 0.6, kind="work", slot="job"))
    return found or None


def _left_for(m: re.Match, third: bool, time_text: str | None) -> list[Found] | None:
    """switched from Acme to Globex / left Acme for Globex: Globex, the employer now ("moved from
    Boston to Denver" is a move between homes, not read here)."""
    obj = clean(m.group("obj") or m.group("obj2"), False, 60)
    if not obj:
        return None
    mtype = "EVENT" if time_text else "FACT"
    return [Found(mtype, _third("joined", third), obj, 0.7, kind="work", slot="employer")]


def _named_org(make: Make) -> Make:
    """Only a name (a capitalised word) is a place of work or study here: "left Acme", not "left early"."""

    def check(m: re.Match, third: bool, time_text: str | None) -> list[Found] | None:
        obj = _obj(m)
        if not obj or not re.search(r"\b[A-Z]", obj):
            return None
        return make(m, third, time_text)

    return check


def _work_as(m: re.Match, third: bool, time_text: str | None) -> list[Found] | None:
    job, org = clean(m.group("job"), False, 40), _obj(m)
    if not job or not org:
        return None
    return [
        Found("FACT", _third("work at", third), org, 0.7, kind="work", slot="employer"),
        Found("FACT", _third("work as", third), job, 0.6, kind="work", slot="job"),
    ]


_PREF = {
    "enjoying": "enjoy",
    "loving": "love",
    "love": "love",
    "loves": "love",
    "like": "like",
    "likes": "like",
    "enjoy": "enjoy",
    "enjoys": "enjoy",
    "adore": "love",
    "adores": "love",
    "hate": "hate",
    "hates": "hate",
    "dislike": "dislike",
    "dislikes": "dislike",
    "despise": "hate",
    "can't stand": "hate",
    "cannot stand": "hate",
    "prefer": "prefer",
    "prefers": "prefer",
    "loved": "love",
    "enjoyed": "enjoy",
    "hated": "hate",
}


def _preference(m: re.Match, third: bool, time_text: str | None) -> list[Found] | None:
    obj = _obj(m)
    if not obj or obj.lower() in {"to", "too"}:
        return None
    if m.group(0).lower().startswith("would"):
        return None  # "I'd like to …" is a wish
    verb = _PREF[" ".join(m.group("verb").lower().split())]
    if obj.lower().startswith("to "):  # "I like to read before bed": reading before bed, a liking
        doing = re.match(r"^to (?:(?:just|really|always|usually|often|sometimes|also) )*(?P<verb>[a-z]+)\b", obj, _I)
        if (
            doing is None
            or verb not in ("like", "love", "enjoy", "hate", "prefer")
            or _NOT_A_LIKING.match(doing["verb"])
        ):
            return None
        obj = gerund(doing["verb"]) + obj[doing.end() :]
    topic = (
        verb
        if not third
        else {"love": "loves", "like": "likes", "enjoy": "enjoys", "hate": "hates"}.get(verb, verb + "s")
    )
    return [Found("OPINION", topic, obj, 0.6, kind="preference")]


# after "like to": verbs that say what is being asked or said, not a thing liked (I'd like to say, I love to hear that)
_NOT_A_LIKING = re.compile(r"^(?:say|think|know|hear|see|ask|thank|add|mention|point|tell|be|get|have)$", re.IGNORECASE)


def _negated_preference(m: re.Match, third: bool, time_text: str | None) -> list[Found] | None:
    obj = _obj(m)
    verb = m.group("verb").lower()
    if obj and obj.lower() in ("anymore", "any more") and _base(verb) in _HABITS_ALONE:
        obj = None  # "I don't smoke anymore": the habit itself ended
    if not obj:
        gerund = _HABITS_ALONE.get(_base(verb))
        ended = m.group("longer") or re.search(r"\b(?:anymore|any more)\s*$", m.group(0), re.I)
        return [Found("OPINION", "stopped", gerund, 0.6, kind="preference")] if gerund and ended else None
    no_longer = bool(m.group("longer")) or bool(re.search(r"\b(?:anymore|any more)\s*$", m.group(0), re.I))
    if no_longer:
        topic = f"no longer {_base(verb)}"
    elif _base(verb) == "like":
        topic = "dislikes" if third else "dislike"
    else:
        topic = f"doesn't {_base(verb)}" if third else f"don't {_base(verb)}"
    return [Found("OPINION", topic, obj, 0.6, kind="preference")]


# after "don't eat" / "don't drink", words that say how much or what now, not a food kept off
_NOT_A_FOOD = re.compile(
    r"^(?:much|a |an |any|anything|that|this|it|the |enough|too|out|alone|at|with|in|on|before|after|late|"
    r"breakfast|lunch|dinner|there|here|fast|properly|well|right|like|when|while|until|till)\b",
    re.IGNORECASE,
)


def _diet_kept(m: re.Match) -> bool:
    """ "I don't eat pork", "she doesn't drink alcohol": a food or drink kept off, said plainly
    (not "I don't eat much", "I don't drink that")."""
    if m.group("verb").lower() not in ("eat", "eats", "drink", "drinks"):
        return False
    obj = (m.group("obj") or "").strip()
    return bool(obj) and len(obj.split()) <= 3 and not _NOT_A_FOOD.match(obj)


# verbs that name a habit with no object ("I don't smoke anymore", "I no longer drink"): what stopped
_HABITS_ALONE = {"smoke": "smoking", "drink": "drinking", "gamble": "gambling", "vape": "vaping"}


def _stopped(m: re.Match, third: bool, time_text: str | None) -> list[Found] | None:
    what = clean(m.group("obj"), False, 40)
    if not what:
        return None
    return [Found("OPINION", f"stopped {m.group('verb').lower()}".strip(), what, 0.6, kind="preference")]


def _base(verb: str) -> str:
    verb = verb.lower()
    if verb in ("likes", "loves", "enjoys", "drinks", "eats", "plays", "watches", "smokes", "goes", "does", "has"):
        return {"goes": "go", "does": "do", "has": "have", "watches": "watch"}.get(verb, verb[:-1])
    return {"liked": "like", "loved": "love", "enjoyed": "enjoy"}.get(verb, verb)


def _fan(m: re.Match, third: bool, time_text: str | None) -> list[Found] | None:
    obj = _obj(m)
    if not obj:
        return None
    what = " ".join(m.group("what").lower().split())
    topic = "is a fan of" if "fan" in what else f"is {what}"
    longer = m.group("longer") or re.search(r"\b(?:anymore|any more)\b", m.group(0), re.IGNORECASE)
    if m.group("neg") or m.group("longer"):
        topic = "is no longer " + topic[3:] if longer else "is not " + topic[3:]
    return [Found("OPINION", topic, obj, 0.6, kind="preference")]


def _possession(m: re.Match, third: bool, time_text: str | None) -> list[Found] | None:
    verb = m.group("verb").lower()
    det, obj = (m.group("det") or "").lower().strip(), _obj(m)
    if not obj:
        return None
    if verb in {"have", "has", "got", "have got", "has got", "own", "owns"} and _NOT_THINGS.match(
        f"{det} {obj}".strip()
    ):
        return None
    if verb in {"got", "have", "has", "have got", "has got", "own", "owns"} and not det:
        return None
    obj = f"{m.group('det').strip()} {obj}" if det else obj  # as said: a puppy, two cats, my own boat
    topics = {
        "own": "have",
        "owns": "have",
        "got": "have",
        "have got": "have",
        "has got": "have",
        "purchased": "bought",
    }
    topic = topics.get(verb, verb)
    if topic in {"have", "has"}:
        topic = "has" if third else "have"
    mtype = "EVENT" if time_text and topic in {"bought", "adopted"} else "FACT"
    return [Found(mtype, topic, obj, 0.5, kind="possession")]


_NOT_PLANS = re.compile(r"^(?:tell|say|ask|let|think|see|check|try|be|get back|talk|call|text|keep)\b", re.IGNORECASE)
# Words a plan's verb phrase cannot start with: "I hope so", "I'm going for it", "want 'em to…".
_NOT_A_VERB = re.compile(
    r"^(?:a|an|the|my|our|your|his|her|their|its|this|that|these|those|some|so|it|you|me|him|them|us|em|'em|for|"
    r"with|at|in|on|by|from|of|about|into|out|up|down|not|never|too|well|there|here|what|how)\b",
    re.IGNORECASE,
)
# After "am going to", a place or an occasion, not a verb: "going to a conference".
_DESTINATION = re.compile(r"^(?:a|an|the|my|our|his|her|their|this|that|some)\b|^[A-Z0-9]")


def base_form(gerund: str) -> str | None:
    """The base form of an -ing word (taking → take, running → run, visiting → visit); None when
    the word is not one."""
    word = gerund.lower()
    if not word.endswith("ing") or len(word) < 5:
        return None
    stem = word[:-3]
    syllables = len(re.findall(r"[aeiouy]+", stem))
    if len(stem) > 2 and stem[-1] == stem[-2] and stem[-1] not in "aeiouylsz":
        return stem[:-1]  # running, getting, planning
    if stem.endswith("ll") and syllables > 1:
        return stem[:-1]  # travelling, cancelling
    if re.fullmatch(r"[^aeiou]*[aeiou][^aeiouwxy]", stem) or re.search(r"(?:[cv]|[^i]ng)$", stem):
        return stem + "e"  # taking, hiking, moving; dancing, serving; changing (not singing)
    return stem


def gerund(verb: str) -> str:
    """The -ing word of a base form (smoke → smoking, run → running, play → playing, lie → lying)."""
    word = verb.lower()
    if word.endswith("ie"):
        return word[:-2] + "ying"
    if word.endswith("e") and not word.endswith(("ee", "ye", "oe")) and len(word) > 2:
        return word[:-1] + "ing"
    if re.fullmatch(r"[^aeiou]*[aeiou][^aeiouwxy]", word) and len(word) <= 4:
        return word + word[-1] + "ing"  # run, swim, jog, shop
    return word + "ing"


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


def said_plainly(sentence: str) -> str:
    """The sentence said the way the clause rules read it: a habit that "used to" be and was then
    quit as one clause ("I used to smoke but I quit last year" → "I quit smoking last year"); "my
    plan is to …" as "I plan to …"."""
    sentence = _TELLING.sub("", sentence)
    sentence = _BEEN_DOING.sub(lambda b: f"{b.group('lead')}I have been {b.group('verb')}", sentence)
    sentence = _MY_PLAN.sub(lambda p: "I plan to" if p.group(0)[:2].lower() == "my" else "we plan to", sentence)
    m = _USED_TO_QUIT.search(sentence)
    if m is None or m.group("verb").lower() in ("be", "have", "work", "live", "go", "think", "feel"):
        return sentence
    said = f"{m.group('who')} quit {gerund(m.group('verb'))}{m.group('obj')}"
    return sentence[: m.start()] + said + sentence[m.end() :]


# what "off to" is followed by when it sets out to do something: "I'm off to go swimming"
_OFF_TO = frozenset("go get see meet visit pick catch play do run walk swim work watch join start buy shop".split())


def _plan(m: re.Match, third: bool, time_text: str | None) -> list[Found] | None:
    """A plan or an intention, its verb phrase as said: "plans to open a bakery". A hope or a
    wish must name what is to be done (to + a verb): "I hope so", "I want 'em to stay"
    are not plans."""
    what = _obj(m)
    if not what or _NOT_PLANS.match(what):
        return None
    how = " ".join(m.group("how").lower().split())
    if how == "will" and not (time_text and _FUTURE.search(time_text)):
        return None  # "I'll always remember that trip": not a plan
    plan = ("plans to" if third else "plan to"), what
    if how.endswith(("thinking about", "thinking of", "considering")) or (how.endswith("going") and not m.group("to")):
        first, _, rest = what.partition(" ")
        verb = base_form(first)
        if verb is None:
            return None  # "I'm going for it"
        plan = plan[0], f"{verb} {rest}".strip()  # thinking of opening a café → plans to open a café
    elif how.endswith("excited") and not m.group("to"):
        return None  # "excited about the trip": a feeling, no plan said
    elif how.endswith("off") and not _DESTINATION.match(what) and what.split()[0].lower() not in _OFF_TO:
        return None  # "off to bed", "off to sleep"
    elif how.endswith(("going", "off")) and _DESTINATION.match(what):
        plan = plan[0], f"go to {what}"  # going to a conference; off to the gym
    elif how.endswith("planning") and not m.group("to"):
        if _NOT_THINGS.match(what) or _NOT_A_VERB.match(what) is None:
            return None  # "planning a couple"; a gerund or a verb without "to" is not read
        plan = ("plans" if third else "plan"), what  # planning a trip to Lisbon
    elif how != "will" and (not m.group("to") or _NOT_A_VERB.match(what)):
        return None
    intent = how.startswith(("want", "wants", "hope", "hopes", "would like", "am hoping", "is hoping"))
    topic = ("wants to" if third else "want to") if intent and plan[0].endswith(" to") else plan[0]
    return [Found("EVENT" if time_text else "FACT", topic, plan[1], 0.6, kind="plan")]


def _going(m: re.Match, third: bool, time_text: str | None) -> list[Found] | None:
    """am visiting / am flying to … with a time to come: a plan."""
    if not time_text or not _FUTURE.search(time_text):
        return None
    what = _obj(m)
    base = base_form(m.group("verb"))
    if not what or base is None:
        return None
    return [Found("EVENT", "plans to" if third else "plan to", f"{base} {what}", 0.6, kind="plan")]


# What "have been …ing" says of how someone is or what they meant, not of what they have been doing
_NOT_ONGOING = frozenset(
    "feel think hope wonder try want wait mean need do have be get say tell ask talk chat keep hear go come "
    "struggle deal stay live work".split()
)


def _ongoing(m: re.Match, third: bool, time_text: str | None) -> list[Found] | None:
    """What someone is in the middle of, as said ("am reading …"); with a time to come it is a plan,
    which this does not read."""
    obj = _obj(m)
    if not obj or (time_text and _FUTURE.search(time_text)):
        return None
    topic = ("is " if third else "am ") + " ".join(m.group("verb").lower().split())
    return [Found("FACT", topic, obj, 0.5)]


def _been_doing(m: re.Match, third: bool, time_text: str | None) -> list[Found] | None:
    """ "I've been blogging about politics", "she's been learning the cello": what someone has been
    doing lately (not how they have been feeling, nor where they live or work: those have slots)."""
    base, obj = base_form(m.group("verb").lower()), _obj(m)
    verb = m.group("verb").lower()
    if base == "work" and obj and obj.lower().startswith("on "):  # working on a song: a project, not a job
        verb, obj, base = "working on", obj[3:], "work on"
    if base is None or base in _NOT_ONGOING or not obj:
        return None
    topic = f"{'has' if third else 'have'} been {verb}"
    return [Found("EVENT" if time_text else "FACT", topic, obj, 0.5)]


def _identity(m: re.Match, third: bool, time_text: str | None) -> list[Found] | None:
    obj = _obj(m)
    if not obj or re.match(r"^(?:bit|little|lot|big fan|fan|huge fan|part of|kind of|sort of)\b", obj, re.I):
        return None
    return [Found("FACT", "is a", obj, 0.5, kind="fact")]


def _origin(m: re.Match, third: bool, time_text: str | None) -> list[Found] | None:
    obj = _obj(m)
    return [Found("FACT", "is from", obj, 0.6, kind="fact")] if obj else None


_I = re.IGNORECASE
_RULES: list[tuple[re.Pattern, Make]] = [
    # where they live, and moves
    (
        re.compile(rf"^(?:have |has |had )?{_ADV}(?:moved|relocated)(?: back)? (?:to|into|in to) {_X}", _I),
        _slot("moved to", "residence", "residence"),
    ),
    (
        re.compile(rf"^(?:have |has )?{_ADV}moved out of {_X}", _I),
        _slot("moved out of", "residence", "residence", ends=True),
    ),
    (
        re.compile(rf"^(?:(?P<longer>no longer)|(?:don't|doesn't|do not|does not)) live (?:in|at) {_X}", _I),
        lambda m, t, tt: (
            _slot("no longer live in", "residence", "residence", ends=True)(m, t, tt)
            if m.group("longer") or re.search(r"\b(?:anymore|any more)\b", m.group(0), _I)
            else None
        ),
    ),
    (
        re.compile(
            rf"^(?:am |is |are |have been |has been )?{_ADV}(?:live|lives|living|reside|resides|residing|based) (?:in|at|on) {_X}",
            _I,
        ),
        _slot("live in", "residence", "residence"),
    ),
    (re.compile(rf"^(?:have|has) {_ADV}lived (?:in|at) {_X}", _I), _held_since("live in", "residence", "residence")),
    # "used to live in Leeds" / "lived in Leeds for ten years": a home before, which sets no slot
    (re.compile(rf"^(?P<used>used to live|lived) (?:in|at) {_X}", _I), lambda m, t, tt: _lived_before(m)),
    (
        re.compile(rf"^(?:am|is|are) {_ADV}(?:moving|relocating) (?:back )?to {_X}", _I),
        lambda m, t, tt: _moving(m, t, tt),
    ),
    # "we're moving in together (next month)", "I'm moving in with Sam": a plan to share a home
    (
        re.compile(
            r"^(?:am|is|are) (?:finally |officially )?moving in (?P<obj>together|with [A-Z][a-z]+|with (?:my|her|his) [a-z]+)",
            _I,
        ),
        lambda m, t, tt: [
            Found(
                "EVENT" if tt else "FACT", "plans to" if t else "plan to", f"move in {m.group('obj')}", 0.6, kind="plan"
            )
        ],
    ),
    # "I'm flying to Lisbon on Friday": going somewhere at a time to come, a plan
    (
        re.compile(rf"^(?:am|is|are) {_ADV}(?P<verb>flying|driving|heading|travelling|traveling|leaving for) {_X}", _I),
        lambda m, t, tt: _going_at(m, t, tt),
    ),
    # the field they work in ("I work in marketing"; "in Boston", a place, is not read here), and where
    (
        re.compile(
            rf"^(?:am |is )?{_ADV}(?:work|works|working) in (?P<field>(?!the |a |an |my )[a-z][a-z&-]*(?: [a-z&-]+){{0,2}}?)"
            rf"(?: at (?:a |an |the )?(?P<obj>[^,;:.!?]+))?$"
        ),
        lambda m, t, tt: (
            [Found("FACT", _third("work in", t), m.group("field"), 0.6, kind="work")]
            + (
                [Found("FACT", _third("work at", t), o, 0.7, kind="work", slot="employer")]
                if m.group("obj") and (o := _obj(m))
                else []
            )
        ),
    ),
    # a business they run: where they work ("I run a small bakery"; "run a marathon" is no business)
    (
        re.compile(
            rf"^{_ADV}(?:run|runs|own and run|started) (?P<obj>(?:a |an |my own |my |our own |our |his own |her own |their own )"
            rf"(?:[a-z-]+ ){{0,2}}(?:bakery|shop|store|cafe|café|coffee shop|restaurant|business|company|startup|"
            rf"salon|gym|studio|bar|bookshop|bookstore|farm|clinic|agency|firm|practice|food truck))"
            rf"(?: (?:on|in|at|near|downtown|off) [^,;:.!?]+)?$",
            _I,
        ),
        lambda m, t, tt: [
            Found("EVENT" if tt else "FACT", _third("run", t), obj, 0.7, kind="work", slot="employer")
            for obj in [_obj(m)]
            if obj
        ],
    ),
    # what they teach, and where: "I teach math at a high school" (the school is the employer)
    (
        re.compile(
            rf"^{_ADV}(?:teach|teaches) (?P<what>(?!at |in |for |with |to |them |him |her |it |people |kids |my )[a-z][\w -]*?)"
            rf"(?: at (?:a |an |the )?(?P<obj>(?!night|weekends|home|the moment|times)[^,;:.!?]+)| (?:in|on) [^,;:.!?]+)?$",
            _I,
        ),
        lambda m, t, tt: _teaches(m, t),
    ),
    (re.compile(rf"^{_ADV}(?:teach|teaches) at (?:a |an |the )?{_X}", _I), _slot("work at", "work", "employer")),
    # whom they are married to: "I'm married to Alex", "married Alex last June"
    (
        re.compile(rf"^(?:(?:am|is|are|got|was|were) {_ADV}(?:happily )?married to|married) (?P<name>{_NAME})$"),
        lambda m, t, tt: [_relation("spouse", m.group("name"))] if _a_name(m.group("name")) else None,
    ),
    # "I'm married", "got divorced last year": married, to someone not named
    (
        re.compile(
            rf"^(?P<be>am|is|are|was|were|got|have been|has been|'ve been|just got) {_ADV}(?:happily )?(?P<what>married|engaged|divorced)$",
            _I,
        ),
        lambda m, t, tt: [
            Found("EVENT", f"got {m.group('what').lower()}", None, 0.6)
            if tt and m.group("be").lower().endswith("got")
            else Found(
                "FACT",
                f"{'was' if m.group('be').lower() in ('was', 'were') else 'is'} {m.group('what').lower()}",
                None,
                0.6,
            )
        ],
    ),
    # "I was born in Ohio": where someone was born
    (
        re.compile(rf"^(?:was|were) born (?:and raised |and grew up )?(?:in|at) (?:the )?{_X}", _I),
        lambda m, t, tt: [Found("FACT", "was born in", o, 0.6, kind="fact")] if (o := _obj(m)) else None,
    ),
    # where they work, and changes of job
    (
        re.compile(
            rf"^(?:have |has )?{_ADV}(?:joined|started (?:working )?(?:at|for|with)|(?:am|is) (?:now )?(?:starting (?:at|with|for) |joining (?:at )?))(?:the )?{_X}",
            _I,
        ),
        _joined,
    ),
    (
        re.compile(
            rf"^(?:have |has )?{_ADV}(?:started a (?:new )?job (?:at|with)|"
            rf"got (?:a |an |the )?(?:new )?(?:job|position|offer|internship) (?:at|with|from)|got hired (?:at|by)|was hired (?:at|by)|"
            rf"took a (?:new )?job (?:at|with)|accepted (?:a |an )?(?:job|offer|position) (?:at|from|with)|"
            rf"(?:am|is) (?:now )?starting a new job at)(?: the)? {_X}",
            _I,
        ),
        _slot("joined", "work", "employer"),
    ),
    (
        re.compile(
            rf"^(?:have |has )?{_ADV}(?:quit|left|lost|resigned from|retired from) (?:my |his |her |the )?(?:job|position|work)(?: at (?:the )?{_X})?",
            _I,
        ),
        _slot("quit", "work", "employer", ends=True, needs_object=False),
    ),
    (
        re.compile(rf"^(?:have |has )?{_ADV}(?:resigned|retired) from (?:the )?{_X}", _I),
        _slot("quit", "work", "employer", ends=True),
    ),
    # "I no longer work at Google", "I don't work for Acme anymore", "I'm no longer at Acme": the job ended
    (
        re.compile(
            rf"^(?:(?:am |is |are )?no longer (?:work|works|working) (?:at|for)|(?:am|is|are) no longer at(?= (?-i:[A-Z]))|"
            rf"(?:don't|doesn't|do not|does not) work (?:at|for)(?=.*\b(?:anymore|any more)\b)) (?:the )?{_X}",
            _I,
        ),
        _slot("no longer work at", "work", "employer", ends=True),
    ),
    (
        re.compile(r"^(?:am |is |are )?no longer (?:work|works|working) (?:there|here)\b", _I),
        _slot("no longer work at", "work", "employer", ends=True, needs_object=False),
    ),
    # "switched from Acme to Globex", "left Acme for Globex": the employer now
    (
        re.compile(
            rf"^(?:have |has )?{_ADV}(?:switched|jumped) (?:jobs |companies )?from (?:the )?(?P<old>[A-Z][\w&.' -]*?) "
            rf"to (?:the )?(?P<obj>[A-Z][^,;:.!?]*)|^(?:have |has )?{_ADV}left (?P<old2>[A-Z][\w&.' -]*?) for (?:the )?(?P<obj2>[A-Z][^,;:.!?]*)",
        ),
        lambda m, t, tt: _left_for(m, t, tt),
    ),
    (
        re.compile(rf"^(?:have |has )?{_ADV}(?:changed|switched) (?:jobs|careers|employers)\b", _I),
        _slot("changed jobs", "work", "employer", ends=True, needs_object=False),
    ),
    (
        re.compile(rf"^(?:have |has )?{_ADV}(?:quit|left) {_X}", _I),
        _named_org(_slot("quit", "work", "employer", ends=True)),
    ),
    (
        re.compile(rf"^(?:have |has )?{_ADV}(?:quit|resigned|retired)\s*$", _I),
        _slot("quit", "work", "employer", ends=True, needs_object=False),
    ),
    (
        re.compile(
            r"^(?:have |has |was |got |just |am |is |are |now )*(?:been )?(?:laid off|fired|let go|retired)\b", _I
        ),
        _slot("quit", "work", "employer", ends=True, needs_object=False),
    ),
    (
        re.compile(
            rf"^(?:am |is |are |have |has |have been |has been |used to )?{_ADV}(?:work|works|working|worked|interning|interned|intern|interns) "
            rf"(?:(?:remotely|full[- ]time|part[- ]time|freelance|from home) )?(?:at|for) {_X}",
            _I,
        ),
        _work_at,
    ),
    # "I've been at Google since 2019" / "for three years": a named employer, still there
    (re.compile(r"^(?:have|has) been at (?:the )?(?P<obj>[A-Z][^,;:.!?]*)"), _been_at),
    (
        re.compile(
            rf"^(?:am |is )?{_ADV}(?:work|works|working) as (?:a |an )?(?P<job>[a-z][a-z -]{{1,30}}?) (?:at|for|in) (?:the )?(?P<obj>[A-Z][^,;:.!?]*)"
        ),
        _work_as,
    ),
    (re.compile(rf"^(?:am |is )?{_ADV}(?:work|works|working) as (?:a |an )?{_X}", _I), _slot("work as", "work", "job")),
    # "got promoted to senior engineer": the job now, which replaces the one before
    (
        re.compile(rf"^(?:have |has )?{_ADV}(?:got |been |was |were |just got )?promoted to (?:a |an |the )?{_X}", _I),
        _slot("work as", "work", "job"),
    ),
    # where they study, and changes of school
    (
        re.compile(
            rf"^(?:have |has )?{_ADV}(?:got into|got accepted (?:to|into|at)|was accepted (?:to|into|at)|transferred to) {_X}",
            _I,
        ),
        _named_org(_slot("enrolled at", "school", "school")),
    ),
    (
        re.compile(
            rf"^(?:have |has )?{_ADV}(?:enrolled (?:at|in)|started (?:college|university|school|grad school|my (?:master's|masters|phd|degree)) at)(?: the)? {_X}",
            _I,
        ),
        _slot("enrolled at", "school", "school"),
    ),
    (
        re.compile(rf"^(?:have |has )?{_ADV}graduated from {_X}", _I),
        _named_org(_slot("graduated from", "school", "school", ends=True)),
    ),
    (
        re.compile(rf"^(?:am |is )?{_ADV}(?:study|studies|studying) (?:[a-z]+ )?(?:at|in) {_X}", _I),
        _named_org(_slot("study at", "school", "school")),
    ),
    (
        re.compile(
            rf"^(?:am|is) (?:a |an )?(?:[a-z-]+ )?(?:student|freshman|sophomore|junior|senior|undergrad|postdoc)(?: [a-z]+)? (?:at|in) {_X}",
            _I,
        ),
        _named_org(_slot("study at", "school", "school")),
    ),
    (
        re.compile(
            rf"^{_ADV}(?:go|goes) to (?P<obj>[A-Z][^,;:.!?]*(?:University|College|School|Academy|Institute|Primary|"
            rf"[Nn]ursery|[Kk]indergarten|[Pp]reschool|[Ss]chool|High)\b[^,;:.!?]*)"
        ),
        _slot("study at", "school", "school"),
    ),
    (re.compile(r"^(?:am|is) (?:a|an) (?P<job>[a-z][a-z -]{1,30}?) (?:at|for) (?P<obj>[A-Z][^,;:.!?]*)"), _work_as),
    # what they eat
    (
        re.compile(
            r"^(?:am |is |are |have |has |'ve |'s )?(?:been |now |also |since |just |finally |recently )*"
            r"(?P<change>gone |went |turned |become |became |switched to (?:being )?|going |started being )?"
            r"(?:a |an )?(?:fully |strictly |completely |totally |big |huge |committed |proper |full-on )*"
            r"(?P<obj>vegetarian|vegan|pescatarian|pescetarian|plant-based|meat[- ]eater|carnivore)s?\b(?! food| restaurant| place| recipe| dish| option| cafe| café)",
            _I,
        ),
        lambda m, t, tt: _diet(m.group("obj"), bool(m.group("change")), t, tt),
    ),
    (
        re.compile(
            r"^(?:do |does )?(?:really |still |also )*(?:eat|eats) (?:a lot of |lots of |plenty of )?meat\b", _I
        ),
        lambda m, t, tt: _diet("meat eater", False, t, tt),
    ),
    # what they are allergic to: a fact about their health, kept whole; "not allergic" states nothing
    (
        re.compile(
            rf"^(?:am |is |are )?(?:very |really |severely |badly |mildly |a bit |slightly )?allergic to {_X}", _I
        ),
        lambda m, t, tt: (
            [Found("FACT", _third("am allergic to", t), obj, 0.8, kind="fact")] if (obj := _obj(m)) else None
        ),
    ),
    # likes, dislikes, and what is no longer done
    (
        re.compile(
            rf"^(?:(?P<neg>am not|is not|isn't|'m not) (?:really )?)?(?:(?P<longer>no longer) )?(?:am |is |are )?(?:really |so |totally |such )?(?P<what>into|a (?:big |huge )?fan of|obsessed with|passionate about|fond of) {_X}",
            _I,
        ),
        _fan,
    ),
    (
        re.compile(
            rf"^(?:(?P<longer>no longer)|(?:don't|doesn't|do not|does not|never|(?:have|has|'ve) never)) (?:really |much |particularly |even )?(?P<verb>like|likes|liked|love|loves|loved|enjoy|enjoys|enjoyed|drink|drinks|eat|eats|play|plays|smoke|smokes|watch|watches|go|goes|do|does|have|has)(?: {_X})?(?=$|[,;:.!?])",
            _I,
        ),
        lambda m, t, tt: (
            _negated_preference(m, t, tt)
            if m.group("longer")
            or m.group("verb").lower().startswith(("like", "love", "enjoy"))
            or re.search(r"\b(?:anymore|any more)\s*$", m.group(0), _I)
            or _diet_kept(m)
            else None
        ),
    ),
    (
        re.compile(rf"^(?:have |has )?{_ADV}(?:stopped|quit|gave up) (?P<verb>[a-z]+ing)(?: (?P<obj>[^,;:.!?]+))?", _I),
        lambda m, t, tt: _stopped_or_habit(m, t, tt),
    ),
    (
        re.compile(
            rf"^(?:do |does )?(?:really |absolutely |truly |totally |so |also |still |just |kinda |genuinely )*(?P<verb>love|loves|loved|like|likes|enjoy|enjoys|enjoyed|adore|adores|hate|hates|hated|dislike|dislikes|despise|can't stand|cannot stand|prefer|prefers) {_X}",
            _I,
        ),
        _preference,
    ),
    # "I'm pregnant", "my wife is pregnant": expecting a child, a fact until it is born
    (
        re.compile(
            r"^(?:am|is|are) (?:finally |now )?(?P<obj>pregnant)(?: (?:with (?:our|my|her|their) (?:first|second|third) (?:child|baby)|again))?(?=[\s,.!;]|$)",
            _I,
        ),
        lambda m, t, tt: [Found("FACT", _third("am", t) + " pregnant", None, 0.8, kind="fact")],
    ),
    # "I'm really enjoying my new job", "she's loving Berlin": a liking said as it is felt
    (
        re.compile(
            rf"^(?:am|is|are) (?:really |totally |so |just |absolutely |also |still )*(?P<verb>enjoying|loving) {_X}",
            _I,
        ),
        _preference,
    ),
    # what they have played or done for how long ("have played piano for three years")
    (
        re.compile(
            rf"^(?P<have>(?:have|has) (?:been )?)?(?P<verb>{'|'.join(sorted(_PLAYED, key=len, reverse=True))}) {_X}", _I
        ),
        _played,
    ),
    # what they are learning or training for now, and for how long ("have been learning Spanish for a year")
    (
        re.compile(
            rf"^(?:am |is |are |have been |has been )(?:currently |still |now |really )?(?P<verb>learning|studying|"
            rf"training for|practicing|practising) {_X}",
            _I,
        ),
        _learning,
    ),
    # plans and intentions
    (
        re.compile(
            rf"^(?P<how>(?:am|is|are) (?:going|planning|hoping|about|thinking about|thinking of|considering|off|(?:so |really |super |also )*excited)|plan|plans|intend|intends|want|wants|would like|hope|hopes|have decided|has decided|decided|will) (?P<to>to )?{_X}",
            _I,
        ),
        _plan,
    ),
    (
        re.compile(
            rf"^(?:am|is|are) (?P<verb>(?:visiting|flying|leaving|starting|taking|heading|going|coming|traveling|travelling|driving|getting|running|hosting|throwing|attending|seeing|meeting)) {_X}",
            _I,
        ),
        _going,
    ),
    # a licence, a degree, a passport earned or issued: theirs from now on
    (
        re.compile(
            r"^(?:have |has )?(?:just |finally |also |recently )*(?P<verb>got|received|earned|passed) (?:my |his |her |their |a |an )?"
            r"(?P<obj>(?:driver'?s|driving) (?:licen[cs]e|test)|(?:bachelor'?s|master'?s|law|medical) degree|degree|diploma|"
            r"PhD|doctorate|passport|green card|(?:work |student )?visa|black belt|pilot'?s licen[cs]e)\b",
            _I,
        ),
        lambda m, t, tt: [
            Found("EVENT" if tt else "FACT", m.group("verb").lower(), m.group("obj"), 0.6, kind="possession")
        ],
    ),
    # possessions
    (
        re.compile(
            rf"^(?:just |finally |also |now |recently )*(?P<verb>have got|has got|have|has|own|owns|got|bought|purchased|adopted)(?: myself| herself| himself)? (?:(?P<det>a new|an|a|two|three|four|five|\d+|my own|some|new)\s+)?{_X}",
            _I,
        ),
        _possession,
    ),
    # "I'm lucky to have my husband and kids": whom or what they have, said as thanks
    (
        re.compile(
            r"^(?:am|is|are|feel|feels) (?:so |really |very |super )?(?:lucky|blessed|grateful|thankful|fortunate) "
            r"to have (?P<obj>(?:my|our|a|an|such|two|three|four|great|amazing|wonderful) [^,;:.!?]+)",
            _I,
        ),
        lambda m, t, tt: (
            [Found("FACT", "has" if t else "have", obj, 0.5, kind="possession")] if (obj := _obj(m)) else None
        ),
    ),
    # the car someone drives: a make (a Tesla, an old Volvo) or a kind of vehicle (a pickup truck)
    (
        re.compile(
            r"^(?:still |now |also )?(?:drive|drives|ride|rides) (?:a|an) (?:(?:new|old|used|little|big|black|white|"
            r"red|blue|silver|grey|gray|green) )*(?P<obj>[A-Z][\w-]*(?: [A-Z0-9][\w-]*)*|(?:[a-z-]+ )?(?:car|truck|"
            r"van|SUV|minivan|hatchback|sedan|pickup|motorcycle|motorbike|scooter|convertible))\b"
        ),
        lambda m, t, tt: [Found("FACT", "drives" if t else "drive", m.group("obj"), 0.5, kind="possession")],
    ),
    # who they are
    (re.compile(rf"^(?:am|is) (?:originally )?from {_X}", _I), _origin),
    # what they are afraid of: "I'm terrified of heights", "she's always been scared of dogs"
    (
        re.compile(
            rf"^(?:am|is|are|have been|has been|was|were) (?:always |really |very |so |super |pretty |a bit |kind of |terribly )*"
            rf"(?:afraid|scared|terrified|frightened) of {_X}",
            _I,
        ),
        lambda m, t, tt: (
            [Found("OPINION", "is afraid of", o, 0.6, kind="preference")]
            if (o := _obj(m))
            and not re.match(r"^(?:it|that|this|them|him|her|you|what|how|losing|being|getting)\b", o, _I)
            else None
        ),
    ),
    # what they are in the middle of: "I'm currently reading The Lean Startup", "still volunteering at the shelter"
    (
        re.compile(
            rf"^(?:am|is|are) (?:currently |still |also |now |really )*(?P<verb>reading|writing|building|volunteering|"
            rf"teaching|organizing|organising|coaching|mentoring|renovating|knitting|working on|saving (?:up )?for|"
            rf"fostering|fundraising for|raising money for|blogging about|campaigning for|running for|"
            rf"painting|designing|recording|studying for|preparing for|looking for|applying for|"
            rf"caring for|looking after|taking care of) {_X}",
            _I,
        ),
        _ongoing,
    ),
    # what they have been doing lately: "I've been blogging about politics"
    (re.compile(r"^(?:have|has) been (?P<verb>[a-z]+ing) (?P<obj>[^,;:.!?]+)", _I), _been_doing),
    # what keeps them busy: "I've been busy painting", "she's been busy with the move"
    (
        re.compile(
            r"^(?:have|has|had) been (?:really |so |super )?busy (?P<obj>[a-z]+ing\b[^,;:.!?]*|with [^,;:.!?]+)", _I
        ),
        lambda m, t, tt: (
            [Found("EVENT" if tt else "FACT", "has been busy" if t else "have been busy", _obj(m), 0.5)]
            if _obj(m)
            else None
        ),
    ),
    # how old: "I'm 34", "she is 7 years old" (the consolidator's age slot takes a later one)
    (
        re.compile(r"^(?:am|is|are|just turned|turned) (?P<obj>\d{1,3})(?: years? old)?\s*$", _I),
        lambda m, t, tt: [Found("FACT", "age", m.group("obj"), 0.7, kind="fact")],
    ),
    (re.compile(rf"^(?:am|is) (?:a|an) {_X}", _I), _identity),
    # what they used to do: "I used to play tennis in college", a fact of the past that sets nothing
    # (not what they used to think, feel or say)
    (
        re.compile(
            r"^used to (?!think|believe|feel|wonder|imagine|say|tell|know|wish|dream|be\b|get\b|have to)"
            r"(?P<verb>[a-z]+) (?P<obj>[^,;:.!?]+)",
            _I,
        ),
        lambda m, t, tt: (
            [Found("FACT", f"used to {m.group('verb').lower()}", _obj(m), 0.5, kind="fact")] if _obj(m) else None
        ),
    ),
]


def _diet(what: str, changed: bool, third: bool, time_text: str | None) -> list[Found] | None:
    """vegan / vegetarian / a meat eater: what someone eats, a slot (a newer diet replaces the older)."""
    obj = re.sub(r"[- ]+", " ", what.lower()).replace("pescetarian", "pescatarian").replace("carnivore", "meat eater")
    mtype = "EVENT" if time_text and changed else "FACT"
    return [Found(mtype, _third("am", third), obj, 0.7, kind="fact", slot="diet")]


def _moving(m: re.Match, third: bool, time_text: str | None) -> list[Found] | None:
    """am moving to Denver (next month): a plan; a move is a change once it happened."""
    obj = _obj(m)
    if not obj:
        return None
    return [
        Found("EVENT" if time_text else "FACT", "plans to" if third else "plan to", f"move to {obj}", 0.6, kind="plan")
    ]


_GOING_BASE = {
    "flying": "fly",
    "driving": "drive",
    "heading": "head",
    "travelling": "travel",
    "traveling": "travel",
    "leaving for": "leave for",
}


def _going_at(m: re.Match, third: bool, time_text: str | None) -> list[Found] | None:
    """am flying to Lisbon on Friday: a plan when a time is said and it is not one gone ("last week")."""
    obj = _obj(m)
    if not obj or not time_text or re.search(r"\b(?:last|ago|yesterday)\b", time_text, re.IGNORECASE):
        return None
    verb = _GOING_BASE[m.group("verb").lower()]
    return [Found("EVENT", "plans to" if third else "plan to", f"{verb} {obj}", 0.6, kind="plan")]


def _stopped_or_habit(m: re.Match, third: bool, time_text: str | None) -> list[Found] | None:
    verb, obj = m.group("verb").lower(), m.group("obj")
    if verb in ("working",) and obj is None:
        return None
    if obj:
        return _stopped(m, third, time_text)
    return [Found("OPINION", "stopped", verb, 0.6, kind="preference")]


# A single-valued attribute of the speaker ("my new number is …"): its topic is the attribute,
# whose words are the consolidator's slot words (lexicon.topics.SLOTS), so a later value replaces
# it. Each attribute says what its value looks like.
_ATTRIBUTE_NAME = {"email": "email", "e-mail": "email", "email address": "email", "e-mail address": "email"}
_ATTRIBUTE_VALUE = {"phone number": r"\+?\(?\d[\d ()-]{4,}\d", "email": r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+"}
_ATTRIBUTE = re.compile(
    r"\b[Mm]y (?:new |current |mobile |cell |home |work )?(?P<attr>phone number|mobile number|cell number|"
    r"telephone number|number|e-?mail(?: address)?) (?:is now|is|'s|has changed to|changed to) "
    r"(?P<obj>\+?\(?\d[\d ()-]{4,}\d|[\w.+-]+@[\w-]+(?:\.[\w-]+)+)"
)


# "Hi, I'm Priya." / "I am Tom Baker, by the way": the speaker saying who they are, the name standing
# alone ("I'm Dana's sister", "I'm British" say something else).
_I_AM = re.compile(
    r"^\W*(?:(?i:hi|hello|hey)(?: there| all| everyone)?[,!.]?\s+)?(?:I'm|I’m|I am) "
    r"(?P<obj>[A-Z][a-z]+(?: [A-Z][a-z]+)?)(?=\s*(?:$|[,.!;])|\s+and\b)"
)
_MONTH = re.compile(r"\b(?:January|February|March|April|May|June|July|August|September|October|November|December)\b")


def sentence_facts(sentence: str, third: bool) -> list[Found]:
    """What a sentence says of the speaker through "my": my name is …, my favourite … is …."""
    out = []
    m = re.search(r"\b[Mm]y name is (?P<obj>[A-Z][a-zA-Z'-]+(?: [A-Z][a-zA-Z'-]+)?)", sentence) or _I_AM.match(sentence)
    if m and _a_name(m.group("obj")):
        out.append(Found("FACT", "name", m.group("obj"), 0.8, kind="fact"))
    m = re.search(
        r"\b[Mm]y (?:home country|hometown|home town|native country),? (?:of |is |was )?(?P<obj>[A-Z][\w'-]+(?: [A-Z][\w'-]+)*)",
        sentence,
    )
    if m:  # "a gift from my grandma in my home country, Sweden"
        out.append(Found("FACT", "is from", m.group("obj"), 0.6, kind="fact"))
    m = re.search(
        r"\b[Mm]y birthday(?: is|'s) (?:on |in )?(?P<obj>[A-Z][a-z]+(?: \d{1,2}(?:st|nd|rd|th)?)?|\d{1,2}(?:st|nd|rd|th)? (?:of )?[A-Z][a-z]+)\b",
        sentence,
    )
    if m and _MONTH.search(m.group("obj")):
        out.append(Found("FACT", "birthday", m.group("obj"), 0.8, kind="fact"))
    m = _ATTRIBUTE.search(sentence)
    if m and re.fullmatch(
        _ATTRIBUTE_VALUE[_ATTRIBUTE_NAME.get(m.group("attr").lower(), "phone number")], m.group("obj")
    ):
        out.append(Found("FACT", _ATTRIBUTE_NAME.get(m.group("attr").lower(), "phone number"), m.group("obj"), 0.7))
    m = re.search(
        r"\b[Mm]y (?:all[- ]time |absolute |very |new )?favou?rite (?P<what>[a-z][\w' -]{0,30}?) "
        r"(?:is|are|was|has to be) (?P<obj>[^,;:.!?]+)",
        sentence,
    )
    if m:
        what, obj = clean(m.group("what"), False, 40), clean(m.group("obj"), False)
        if what and obj and obj.lower().split()[0] not in {"it", "that", "this"}:
            out.append(Found("OPINION", f"favorite {what}", obj, 0.6, kind="preference"))
    return out


# "a nurse called Nina", "an old friend named Leo Park": someone introduced by what they are and
# their name. The phrase stands for the name in the clause ("I met a nurse called Nina" → I met Nina).
_INTRODUCED = re.compile(
    rf"\b(?:a|an|this|one) (?P<what>(?:[A-Za-z-]+ ){{0,2}}?[a-z-]+),? (?:called|named|by the name of) (?P<name>{_NAME})\b"
)
# "Mia, the new analyst, joined …": a name, then what they are between commas.
_APPOSITIVE = re.compile(rf"^(?P<name>{_NAME}), (?P<det>the|a|an|my|our) (?P<what>[A-Za-z' -]{{2,40}}?), (?=[a-z])")
# "…, his name is Felix" / "…, she's called Ada": the name of the person the clause before introduced
# (its comma may have gone with a time read out of the clause: "had a baby girl last week, her name is …").
_NAMED_AFTER = re.compile(
    rf"\b(?:a|an) (?P<what>(?:[a-z-]+ ){{0,2}}?[a-z-]+)\b[^.;!?]*?(?:,\s*|\s+)(?:and )?(?:his|her|their) name is (?P<name>{_NAME})\b"
)


# "…, her name is Lily": where a name said after the clause begins (its comma may be gone with a time)
_NAME_IS = re.compile(r"(?:,\s*|\s+)(?:and )?(?:his|her|their) name is\b")


def without_name_said_after(text: str) -> str:
    """The clause without the name said after it: "had a baby girl, her name is Lily" → "had a baby girl"."""
    return re.sub(_NAME_IS.pattern + r" [A-Z][\w'-]*(?: [A-Z][\w'-]*)?", "", text)


def introduced(text: str, people: People, owner: str) -> tuple[str, list[Found]]:
    """People a clause introduces by what they are and their name: each learnt as someone the
    speaker knows, what they are said (Nina is a nurse); the clause with the name in the phrase's place."""
    out: list[Found] = []
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
        said = _NAME_IS.search(m.group(0))
        whole = (
            m.group(0)[m.start("what") - m.start() : said.start()].split() if pattern is _NAMED_AFTER and said else []
        )
        if 1 < len(whole) <= 3 and all(w.isalpha() and w.islower() for w in whole):
            what = " ".join(whole)  # "a baby girl, her name is Lily": the whole phrase, not its first word
        owned = re.search(r"\b(?:have|has|had|got|own|owns|adopted|bought|keep|keeps)\s+$", text[: m.start()])
        found = role_of(what.split()[-1]) or role_of(" ".join(what.split()[-2:]))
        if owned and not (found and found[0] not in {"dog", "cat"}):
            continue  # she has a dog called Rex: a thing or a pet she has, not someone met
        if what.split()[-1] in frozenset(
            "place restaurant cafe bar shop book film movie song band show game app town village city street boat "
            "dog cat".split()
        ):
            continue  # a thing or a pet, not a person (a café called Lark)
        by_me = re.match(r"^(?:\S+\s+){0,3}?(?:I|we)(?:'ve)?\s", text[: m.start()], re.IGNORECASE)
        if owned and found and by_me:  # "I have a younger brother named Leo": Leo is the speaker's brother
            plain = all(w in _KIN_WORDS for w in what.lower().split()[:-1])  # a younger brother: the role says it
            out = introduce(people, name, found[0], None if role_of(what) or plain else what, owner, "is a")
        else:
            out = introduce(people, name, "acquaintance", what, owner, "is a")
        if pattern is _INTRODUCED:
            text = text[: m.start()] + name + text[m.end() :]
        else:
            text = text[: m.start() + (said.start() if said else len(m.group(0)))]  # the clause before the name
        break
    return text, out
