"""English patterns: what a clause says of its subject (``predicates``), tried in order, the first that
reads it wins (what each builds: ``en_builds``); and what a whole sentence says of the speaker
(``sentence_facts``: my name is …, my birthday is …).

The verbs are read in every person (live / lives / living). Only the present and what changed set a
slot ("I used to live in Oslo" sets none); a negated clause states nothing unless it is a stance or an
end ("I don't like jazz", "I don't live in Oslo anymore").
"""

from __future__ import annotations

import re

from ..lexicon.topics import WORKPLACES
from . import en_builds as build
from .en_builds import MONTH, agree, said_object
from .en_subjects import _NAME, ATTRIBUTE_NAME, _a_name
from .phrases import Found, clean, patterns, read_as, relation

_I = re.IGNORECASE

_ADV = (
    r"(?:(?:just|recently|finally|actually|also|now|currently|still|really|already|officially|totally|even|all|so)\s+)*"
)

_X = r"(?P<obj>[^,;:.!?]+)"

# a deed, said in the past or the perfect: "(have) (just) moved"
_DID = rf"^(?:have |has )?{_ADV}"

# A second predicate of the same subject: "… and joined Globex", "… and then moved to Leeds".
_AND_THEN = re.compile(
    r"\s+(?:and|but|and then|then)\s+(?=(?:have |has |had )?(?:just |now |also |finally |recently )?"
    r"(?:joined|started|moved|relocated|quit|left|resigned|retired|bought|adopted|got|became|switched|"
    r"enrolled|graduated|gave up|went|transferred|sold|now (?:work|works|working))\b)",
    re.IGNORECASE,
)


# A single-valued attribute of the speaker ("my new number is …", ``ATTRIBUTE_NAME``): its topic is
# the attribute, so a later value replaces it. Each attribute says what its value looks like.
_ATTRIBUTE_VALUE = {"phone number": r"\+?\(?\d[\d ()-]{4,}\d", "email": r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+"}

_IS_NOW = r"(?:is now|is|'s|has changed to|changed to)"

_ATTRIBUTE = re.compile(
    rf"\b[Mm]y (?:new |current |mobile |cell |home |work )?(?P<attr>{'|'.join(ATTRIBUTE_NAME)}) "
    rf"(?P<rest>{_IS_NOW} (?:{'|'.join(_ATTRIBUTE_VALUE.values())}))"
)


def attribute_of(what: str, rest: str, when: str | None = None) -> Found | None:
    """Someone's e-mail, phone number or birthday ("my cousin's email is …", what = email, rest = "is …";
    "my cousin's birthday is May 3", rest = "is", the date read as the clause's time ``when``): read as
    the speaker's own is; None when ``what`` is none of them or the value does not look like one."""
    if what.lower() == "birthday":  # a date: a month's name or a number (not "next week")
        dated = when and re.fullmatch(r"(?:is|was|'s)", rest.strip(" .!")) and re.search(rf"{MONTH.pattern}|\d", when)
        return Found("FACT", "birthday", re.sub(r"^(?:on|in) ", "", when.strip(" .!")), 0.7) if when and dated else None
    name = ATTRIBUTE_NAME.get(what.lower(), "")
    m = re.fullmatch(rf"{_IS_NOW} (?P<obj>{_ATTRIBUTE_VALUE[name]})[.!]?", rest) if name else None
    return Found("FACT", name, m.group("obj"), 0.7) if m else None


# "Hi, I'm Priya." / "I am Tom Baker, by the way": the speaker saying who they are, the name standing
# alone ("I'm Dana's sister", "I'm British" say something else).
_I_AM = re.compile(
    r"^\W*(?:(?i:hi|hello|hey)(?: there| all| everyone)?[,!.]?\s+)?(?:I'm|I’m|I am) "
    r"(?P<obj>[A-Z][a-z]+(?: [A-Z][a-z]+)?)(?=\s*(?:$|[,.!;])|\s+and\b)"
)


# an employer's head noun, when its name is not said (lexicon.topics.WORKPLACES)
_WORKPLACE = "|".join(w.replace("-", " ") for w in WORKPLACES)

# let go from a job: "got laid off", "have been fired"
_LET_GO = r"^(?:have |has |was |got |just |am |is |are |now )*(?:been )?(?:laid off|fired|let go|retired)"

_QUIT, _QUIT_ALONE = build.reading("quit", "employer", ends=True), build.reading("quit", "employer", True, False)

_RULES = patterns(
    # where they live, and moves
    (
        rf"^(?:have |has |had )?{_ADV}(?:moved|relocated)(?: back)? (?:to|into|in to) {_X}",
        build.reading("moved to", "residence"),
    ),
    (rf"{_DID}moved out of {_X}", build.reading("moved out of", "residence", ends=True)),
    (rf"^no longer live (?:in|at) {_X}", build.reading("no longer live in", "residence", ends=True)),
    (
        rf"^(?:am |is |are |have been |has been )?{_ADV}(?:live|lives|living|reside|resides|residing|based) (?:in|at|on) {_X}",
        build.reading("live in", "residence"),
    ),
    (rf"^(?:have|has) {_ADV}lived (?:in|at) {_X}", build.held_since("live in", "residence")),
    # "used to live in Leeds" / "lived in Leeds for ten years": a home before, which sets no slot
    (rf"^(?P<used>used to live|lived) (?:in|at) {_X}", lambda m, t, tt: build.before("lived in", "residence", m)),
    # "am moving to Denver (next month)": a plan; a move is a change once it happened
    (
        rf"^(?:am|is|are) {_ADV}(?:moving|relocating) (?:back )?to {_X}",
        lambda m, t, tt: build.plan(f"move to {o}", t, bool(tt)) if (o := said_object(m)) else None,
    ),
    # "we're moving in together (next month)", "I'm moving in with Sam": a plan to share a home
    (
        r"^(?:am|is|are) (?:finally |officially )?moving in (?P<obj>together|with [A-Z][a-z]+|with (?:my|her|his) [a-z]+)",
        lambda m, t, tt: build.plan(f"move in {m['obj']}", t, bool(tt)),
    ),
    # "I'm flying to Lisbon on Friday": going somewhere at a time to come, a plan
    (rf"^(?:am|is|are) {_ADV}(?P<verb>flying|driving|heading|travelling|traveling|leaving for) {_X}", build.going_at),
    # the field they work in ("I work in marketing"; "in Boston", a place, is not read here), and where
    (
        re.compile(
            rf"^(?:am |is )?{_ADV}(?:work|works|working) in (?P<field>(?!the |a |an |my )[a-z][a-z&-]*(?: [a-z&-]+){{0,2}}?)"
            rf"(?: at (?:a |an |the )?(?P<obj>[^,;:.!?]+))?$"
        ),
        lambda m, t, tt: build.at_work(Found("FACT", agree("work in", t), m["field"], 0.6, kind="work"), m, t),
    ),
    # a business they run: where they work ("I run a small bakery"; "run a marathon" is no business)
    (
        rf"^{_ADV}(?:run|runs|own and run|started) (?P<obj>(?:a |an |my own |my |our own |our |his own |her own |their own )"
        rf"(?:[a-z-]+ ){{0,2}}(?:{_WORKPLACE}|gym))"
        rf"(?: (?:on|in|at|near|downtown|off) [^,;:.!?]+)?$",
        lambda m, t, tt: [
            read_as("employer", "EVENT" if tt else "FACT", agree("run", t), o) for o in [said_object(m)] if o
        ],
    ),
    # what they teach, and where: "I teach math at a high school" (the school is the employer)
    (
        rf"^{_ADV}(?:teach|teaches) (?P<what>(?!at |in |for |with |to |them |him |her |it |people |kids |my )[a-z][\w -]*?)"
        rf"(?: at (?:a |an |the )?(?P<obj>(?!night|weekends|home|the moment|times)[^,;:.!?]+)| (?:in|on) [^,;:.!?]+)?$",
        build.teaches,
    ),
    (rf"^{_ADV}(?:teach|teaches) at (?:a |an |the )?{_X}", build.reading("work at", "employer")),
    # whom they are married to: "I'm married to Alex", "married Alex last June"
    (
        re.compile(rf"^(?:(?:am|is|are|got|was|were) {_ADV}(?:happily )?married to|married) (?P<name>{_NAME})$"),
        lambda m, t, tt: [relation("spouse", m.group("name"))] if _a_name(m.group("name")) else None,
    ),
    # "I'm married", "got divorced last year": married, to someone not named
    (
        rf"^(?P<be>am|is|are|was|were|got|have been|has been|'ve been|just got) {_ADV}(?:happily )?(?P<what>married|engaged|divorced)$",
        build.marital,
    ),
    # "I was born in Ohio": where someone was born
    (rf"^(?:was|were) born (?:and raised |and grew up )?(?:in|at) (?:the )?{_X}", build.fact("was born in")),
    # where they work, and changes of job
    (
        rf"{_DID}(?:joined|started (?:working )?(?:at|for|with)|(?:am|is) (?:now )?(?:starting (?:at|with|for) |joining (?:at )?))(?:the )?{_X}",
        build.joined,
    ),
    (
        rf"{_DID}(?:started a (?:new )?job (?:at|with)|"
        rf"got (?:a |an |the )?(?:new )?(?:job|position|offer|internship) (?:at|with|from)|got hired (?:at|by)|was hired (?:at|by)|"
        rf"took a (?:new )?job (?:at|with)|accepted (?:a |an )?(?:job|offer|position) (?:at|from|with)|"
        rf"(?:am|is) (?:now )?starting a new job at)(?: the)? {_X}",
        build.reading("joined", "employer"),
    ),
    (
        rf"{_DID}(?:quit|left|lost|resigned from|retired from) (?:my |his |her |the )?(?:job|position|work)(?: at (?:the )?{_X})?",
        _QUIT_ALONE,
    ),
    (rf"{_DID}(?:resigned|retired) from (?:the )?{_X}", _QUIT),
    # "I no longer work at Google", "I don't work for Acme anymore", "I'm no longer at Acme": the job ended
    (
        rf"^(?:(?:am |is |are )?no longer (?:work|works|working) (?:at|for)|(?:am|is|are) no longer at(?= (?-i:[A-Z])))"
        rf" (?:the )?{_X}",
        build.reading("no longer work at", "employer", ends=True),
    ),
    (
        r"^(?:am |is |are )?no longer (?:work|works|working) (?:there|here)\b",
        build.reading("no longer work at", "employer", ends=True, needs_object=False),
    ),
    # "switched from Acme to Globex", "left Acme for Globex": the employer now ("moved from Boston to Denver": no job)
    (
        re.compile(
            rf"{_DID}(?:(?:switched|jumped) (?:jobs |companies )?from (?:the )?[A-Z][\w&.' -]*? to|left [A-Z][\w&.' -]*? for) "
            rf"(?:the )?(?P<obj>[A-Z][^,;:.!?]*)"
        ),
        lambda m, t, tt: (
            [read_as("employer", "EVENT" if tt else "FACT", "joined", o)] if (o := clean(m["obj"], False, 60)) else None
        ),
    ),
    (
        rf"{_DID}(?:changed|switched) (?:jobs|careers|employers)\b",
        build.reading("changed jobs", "employer", ends=True, needs_object=False),
    ),
    # "quit the bank": a place of work not named ("left the bank" is as often the building)
    (rf"{_DID}quit (?:the |my |a |an )?(?P<obj>(?:[a-z-]+ ){{0,2}}?(?:{_WORKPLACE}))$", _QUIT),
    (rf"{_DID}(?:quit|left) {_X}", build.named_org(_QUIT)),
    (rf"{_DID}(?:quit|resigned|retired)\s*$", _QUIT_ALONE),
    # "got laid off from Amazon", "was fired from the bakery": the employer left (a name)
    (rf"{_LET_GO} from (?:the )?(?P<obj>[A-Z][^,;:.!?]*?)(?= and\b|$)", build.named_org(_QUIT)),
    (rf"{_LET_GO}\b", _QUIT_ALONE),
    (
        rf"^(?:am |is |are |have |has |have been |has been |used to )?{_ADV}(?:work|works|working|worked|interning|interned|intern|interns) "
        rf"(?:(?:remotely|full[- ]time|part[- ]time|freelance|from home) )?(?:at|for) {_X}",
        build.work_at,
    ),
    # "I've been at Google since 2019" / "for three years": a named employer, still there
    (re.compile(r"^(?:have|has) been at (?:the )?(?P<obj>[A-Z][^,;:.!?]*)"), build.been_at),
    (
        re.compile(
            rf"^(?:am |is )?{_ADV}(?:work|works|working) as (?:a |an )?(?P<job>[a-z][a-z -]{{1,30}}?) "
            rf"(?:(?:at|for|in) (?:the )?(?=[A-Z])|(?:at|for) (?=(?:a|an|the) [a-z]))(?P<obj>[^,;:.!?]*)"
        ),
        build.work_as,
    ),
    (rf"^(?:am |is )?{_ADV}(?:work|works|working) as (?:a |an )?{_X}", build.reading("work as", "job")),
    # "got promoted to senior engineer": the job now, which replaces the one before
    (rf"{_DID}(?:got |been |was |were |just got )?promoted to (?:a |an |the )?{_X}", build.reading("work as", "job")),
    # where they study, and changes of school
    (
        rf"{_DID}(?:got into|got accepted (?:to|into|at)|was accepted (?:to|into|at)|transferred to) {_X}",
        build.named_org(build.reading("enrolled at", "school")),
    ),
    (
        rf"{_DID}(?:enrolled (?:at|in)|started (?:college|university|school|grad school|my (?:master's|masters|phd|degree)) at)(?: the)? {_X}",
        build.reading("enrolled at", "school"),
    ),
    # "graduated from Stanford with a master's degree": the school, then the degree it gave
    (
        rf"{_DID}graduated from (?P<obj>[^,;:.!?]+?)(?: with (?:a |an |his |her |my |their )?(?P<degree>[^,;:.!?]+))?$",
        build.graduated,
    ),
    (
        rf"^(?:(?:am |is )?{_ADV}(?:study|studies|studying) (?:[a-z]+ )?|(?:am|is) (?:a |an )?(?:[a-z-]+ )?"
        rf"(?:student|freshman|sophomore|junior|senior|undergrad|postdoc)(?: [a-z]+)? )(?:at|in) {_X}",
        build.named_org(build.reading("study at", "school")),
    ),
    (  # "goes to Greenway Primary", "to a little nursery named Acorns": the school is its name (read_as)
        re.compile(
            rf"^{_ADV}(?:go|goes) to (?P<obj>[A-Z][^,;:.!?]*(?:University|College|School|Academy|Institute|Primary|"
            r"[Nn]ursery|[Kk]indergarten|[Pp]reschool|[Ss]chool|High)\b[^,;:.!?]*|(?:a|an|the) (?:[a-z-]+ )?"
            r"(?:school|nursery|kindergarten|preschool|academy|college|university) (?:called|named) [A-Z][^,;:.!?]*)"
        ),
        build.reading("study at", "school"),
    ),
    (
        re.compile(
            rf"^(?:am|is) (?:a|an) (?P<job>[a-z][a-z -]{{1,30}}?) (?:at|for) "
            rf"(?P<obj>[A-Z][^,;:.!?]*|(?:a|an|the) (?:[a-z-]+ ){{0,2}}?(?:{_WORKPLACE})\b[^,;:.!?]*)"
        ),
        build.work_as,
    ),
    # what they eat
    (
        r"^(?:am |is |are |have |has |'ve |'s )?(?:been |now |also |since |just |finally |recently )*"
        r"(?P<change>gone |went |turned |become |became |switched to (?:being )?|going |started being )?"
        r"(?:a |an )?(?:fully |strictly |completely |totally |big |huge |committed |proper |full-on )*"
        r"(?P<obj>vegetarian|vegan|pescatarian|pescetarian|plant-based|meat[- ]eater|carnivore)s?\b(?! food| restaurant| place| recipe| dish| option| cafe| café)",
        lambda m, t, tt: build.diet(m.group("obj"), bool(m.group("change")), t, tt),
    ),
    (
        r"^(?:do |does )?(?:really |still |also )*(?:eat|eats) (?:a lot of |lots of |plenty of )?meat\b",
        lambda m, t, tt: build.diet("meat eater", False, t, tt),
    ),
    # what they are allergic to: a fact about their health, kept whole; "not allergic" states nothing
    (
        rf"^(?:am |is |are )?(?:very |really |severely |badly |mildly |a bit |slightly )?allergic to {_X}",
        build.fact("am allergic to", 0.8),
    ),
    # likes, dislikes, and what is no longer done
    (
        rf"^(?:(?P<neg>am not|is not|isn't|'m not) (?:really )?)?(?:(?P<longer>no longer) )?(?:am |is |are )?(?:really |so |totally |such )?(?P<what>into|a (?:big |huge )?fan of|obsessed with|passionate about|fond of) {_X}",
        build.fan,
    ),
    (
        rf"^(?:(?P<longer>no longer)|(?:don't|doesn't|do not|does not|never|(?:have|has|'ve) never)) (?:really |much |particularly |even )?(?P<verb>like|likes|liked|love|loves|loved|enjoy|enjoys|enjoyed|drink|drinks|eat|eats|play|plays|smoke|smokes|watch|watches|go|goes|do|does|have|has)(?: {_X})?(?=$|[,;:.!?])",
        build.negated_preference,
    ),
    (rf"{_DID}(?:stopped|quit|gave up) (?P<verb>[a-z]+ing)(?: (?P<obj>[^,;:.!?]+))?", build.stopped_or_habit),
    (
        rf"^(?:do |does )?(?:really |absolutely |truly |totally |so |also |still |just |kinda |genuinely )*(?P<verb>love|loves|loved|like|likes|enjoy|enjoys|enjoyed|adore|adores|hate|hates|hated|dislike|dislikes|despise|can't stand|cannot stand|prefer|prefers) {_X}",
        build.preference,
    ),
    # "I'm pregnant", "my wife is pregnant": expecting a child, a fact until it is born
    (
        r"^(?:am|is|are) (?:finally |now )?(?P<obj>pregnant)(?: (?:with (?:our|my|her|their) (?:first|second|third) (?:child|baby)|again))?(?=[\s,.!;]|$)",
        lambda m, t, tt: [Found("FACT", agree("am pregnant", t), None, 0.8)],
    ),
    # "I'm really enjoying my new job", "she's loving Berlin": a liking said as it is felt
    (
        rf"^(?:am|is|are) (?:really |totally |so |just |absolutely |also |still )*(?P<verb>enjoying|loving) {_X}",
        build.preference,
    ),
    # what they have played or done for how long ("have played piano for three years")
    (
        rf"^(?P<have>(?:have|has) (?:been )?)?(?P<verb>[a-z]+) {_X}",
        build.played,
    ),
    # what they are learning or training for now, and for how long ("have been learning Spanish for a year")
    (
        rf"^(?:am |is |are |have been |has been )(?:currently |still |now |really )?(?P<verb>learning|studying|"
        rf"training for|practicing|practising) {_X}",
        build.learning,
    ),
    # plans and intentions
    (
        rf"^(?P<how>(?:am|is|are) (?:going|planning|hoping|about|thinking about|thinking of|considering|off|(?:so |really |super |also )*excited)|plan|plans|intend|intends|want|wants|would like|hope|hopes|have decided|has decided|decided|will) (?P<to>to )?{_X}",
        build.intention,
    ),
    (
        rf"^(?:am|is|are) (?P<verb>(?:visiting|flying|leaving|starting|taking|heading|going|coming|traveling|travelling|driving|getting|running|hosting|throwing|attending|seeing|meeting)) {_X}",
        build.going,
    ),
    # a licence, a degree, a passport earned or issued: theirs from now on
    (
        r"^(?:have |has )?(?:just |finally |also |recently )*(?P<verb>got|received|earned|passed) (?:my |his |her |their |a |an )?"
        r"(?P<obj>(?:driver'?s|driving) (?:licen[cs]e|test)|(?:bachelor'?s|master'?s|law|medical) degree|degree|diploma|"
        r"PhD|doctorate|passport|green card|(?:work |student )?visa|black belt|pilot'?s licen[cs]e)\b",
        lambda m, t, tt: [
            Found("EVENT" if tt else "FACT", m.group("verb").lower(), m.group("obj"), 0.6, kind="possession")
        ],
    ),
    # possessions
    (
        rf"^(?:just |finally |also |now |recently )*(?P<verb>have got|has got|have|has|own|owns|got|bought|purchased|adopted)(?: myself| herself| himself)? (?:(?P<det>a new|an|a|two|three|four|five|\d+|my own|some|new)\s+)?{_X}",
        build.possession,
    ),
    # "I'm lucky to have my husband and kids": whom or what they have, said as thanks
    (
        r"^(?:am|is|are|feel|feels) (?:so |really |very |super )?(?:lucky|blessed|grateful|thankful|fortunate) "
        r"to have (?P<obj>(?:my|our|a|an|such|two|three|four|great|amazing|wonderful) [^,;:.!?]+)",
        build.reading("have", "possession"),
    ),
    # the car someone drives: a make (a Tesla, an old Volvo) or a kind of vehicle (a pickup truck)
    (
        re.compile(
            r"^(?:still |now |also )?(?:drive|drives|ride|rides) (?:a|an) (?:(?:new|old|used|little|big|black|white|"
            r"red|blue|silver|grey|gray|green) )*(?P<obj>[A-Z][\w-]*(?: [A-Z0-9][\w-]*)*|(?:[a-z-]+ )?(?:car|truck|"
            r"van|SUV|minivan|hatchback|sedan|pickup|motorcycle|motorbike|scooter|convertible))\b"
        ),
        lambda m, t, tt: [read_as("possession", "FACT", agree("drive", t), m.group("obj"))],
    ),
    # who they are
    (rf"^(?:am|is|are) (?:originally )?from {_X}", build.fact("is from")),
    # what they are afraid of: "I'm terrified of heights", "she's always been scared of dogs"
    (
        rf"^(?:am|is|are|have been|has been|was|were) (?:always |really |very |so |super |pretty |a bit |kind of |terribly )*"
        rf"(?:afraid|scared|terrified|frightened) of {_X}",
        lambda m, t, tt: (
            [read_as("dislike", "OPINION", "is afraid of", o)]
            if (o := said_object(m))
            and not re.match(r"^(?:it|that|this|them|him|her|you|what|how|losing|being|getting)\b", o, _I)
            else None
        ),
    ),
    # what they are in the middle of: "I'm currently reading The Lean Startup", "still volunteering at the shelter"
    (
        rf"^(?:am|is|are) (?:currently |still |also |now |really )*(?P<verb>reading|writing|building|volunteering|"
        rf"teaching|organizing|organising|coaching|mentoring|renovating|knitting|working on|saving (?:up )?for|"
        rf"fostering|fundraising for|raising money for|blogging about|campaigning for|running for|"
        rf"painting|designing|recording|studying for|preparing for|looking for|applying for|"
        rf"caring for|looking after|taking care of) {_X}",
        build.ongoing,
    ),
    # what they have been doing lately: "I've been blogging about politics"
    (r"^(?:have|has) been (?P<verb>[a-z]+ing) (?P<obj>[^,;:.!?]+)", build.been_doing),
    # what keeps them busy: "I've been busy painting", "she's been busy with the move"
    (
        r"^(?:have|has|had) been (?:really |so |super )?busy (?P<obj>[a-z]+ing\b[^,;:.!?]*|with [^,;:.!?]+)",
        build.fact("have been busy", 0.5, timed=True),
    ),
    # how old: "I'm 34", "she is 7 years old" (the consolidator's age slot takes a later one)
    (
        r"^(?:am|is|are|just turned|turned) (?P<obj>\d{1,3})(?: years? old)?\s*$",
        lambda m, t, tt: [Found("FACT", "age", m.group("obj"), 0.7)],
    ),
    (rf"^(?:am|is) (?:a|an) {_X}", build.identity),
    # what they used to do: "I used to play tennis in college", a fact of the past that sets nothing
    # (not what they used to think, feel or say)
    (
        r"^used to (?!think|believe|feel|wonder|imagine|say|tell|know|wish|dream|be\b|get\b|have to)"
        r"(?P<verb>[a-z]+) (?P<obj>[^,;:.!?]+)",
        lambda m, t, tt: [Found("FACT", f"used to {m['verb'].lower()}", o, 0.5)] if (o := said_object(m)) else None,
    ),
    flags=_I,
)


def predicates(rest: str, third: bool, time_text: str | None) -> list[Found]:
    """What a clause says of its subject, read from the text after the subject: the first rule
    that reads it wins."""
    # "we both", "my parents all": said of people together, each of them does what follows
    p = re.sub(r"^(?:both|all|each)\s+", "", rest.strip(" ,.!?;:"))  # none of the rules reads an empty one
    first, *more = _AND_THEN.split(p, maxsplit=1)
    if more:  # "left the hospital and joined a care home": each part said of the same subject
        return predicates(first, third, time_text) + predicates(more[0], third, time_text)
    # "I don't live there anymore", "she never drinks any more": said to have ended, as "no longer"
    p = re.sub(r"^(?:don't|doesn't|do not|does not|never) (?=[^,;:.!?]*\bany ?more\b)", "no longer ", p, flags=_I)
    for pattern, make in _RULES:
        if (m := pattern.match(p)) and (found := make(m, third, time_text)) is not None:
            return found
    return []


def sentence_facts(sentence: str, third: bool) -> list[Found]:
    """What a sentence says of the speaker through "my": my name is …, my favourite … is …."""
    out = []
    m = re.search(r"\b[Mm]y name is (?P<obj>[A-Z][a-zA-Z'-]+(?: [A-Z][a-zA-Z'-]+)?)", sentence) or _I_AM.match(sentence)
    if m and _a_name(m.group("obj")):
        out.append(Found("FACT", "name", m.group("obj"), 0.8))
    m = re.search(
        r"\b[Mm]y (?:home country|hometown|home town|native country),? (?:of |is |was )?(?P<obj>[A-Z][\w'-]+(?: [A-Z][\w'-]+)*)",
        sentence,
    )
    if m:  # "a gift from my grandma in my home country, Sweden"
        out.append(Found("FACT", "is from", m.group("obj"), 0.6))
    m = re.search(
        r"\b[Mm]y birthday(?: is|'s) (?:on |in )?(?P<obj>[A-Z][a-z]+(?: \d{1,2}(?:st|nd|rd|th)?)?|\d{1,2}(?:st|nd|rd|th)? (?:of )?[A-Z][a-z]+)\b",
        sentence,
    )
    if m and MONTH.search(m.group("obj")):
        out.append(Found("FACT", "birthday", m.group("obj"), 0.8))
    m = _ATTRIBUTE.search(sentence)
    if m and (found := attribute_of(m.group("attr"), m.group("rest"))):
        out.append(found)
    m = re.search(
        r"\b[Mm]y (?:all[- ]time |absolute |very |new )?favou?rite (?P<what>[a-z][\w' -]{0,30}?) "
        r"(?:is|are|was|has to be) (?P<obj>[^,;:.!?]+)",
        sentence,
    )
    if m:
        what, obj = clean(m.group("what"), False, 40), clean(m.group("obj"), False)
        if what and obj and obj.lower().split()[0] not in {"it", "that", "this"}:
            out.append(read_as("like", "OPINION", f"favorite {what}", obj))
    return out
