"""English word lists and fixed patterns of the offline reader's clause reading (``reader_en``): the
closed sets of function words (pointers, auxiliaries, negations, adverbs, prepositions), the verbs
that say no deed of their own, the clause and sentence openings. What a lemmatiser knows is not here."""

from __future__ import annotations

import re

from ..lexicon import word_map

# Objects that only point elsewhere: what they mean is not in the clause.
_EN_POINTERS = frozenset(
    "it its it's that this them these those him her there here what how why whether if so something anything "
    "everything nothing one myself ourselves which who where when".split()
)

_EN_LISTENER = {"you", "your", "yours", "yourself", "yourselves", "ya", "u", "y'all"}

_EN_END_POINTERS = {"it", "them", "that", "this", "those", "these", "him", "her"}

# a pointer a verb's particle or "happen" follows, anywhere in the phrase: "pass it on to others",
# "keep it up", "help make that happen"
_EN_POINTER_PARTICLE = re.compile(
    r"\b(?:it|them) (?:on|up|off|out|down|back|over|away|happen|work)\b|\b(?:that|this) happen\b", re.IGNORECASE
)

# An object that says how, not what: "worked hard", "pulled together", "did well"; no memory.
_EN_EMPTY_OBJECTS = frozenset(
    "hard|together|well|a lot|lots|so much|too much|much|again|too|more|better|fine|ok|okay|out|around|"
    "a bit|a little|forever|anyway|alright|a great time|a good time|great|good".split("|")
)

# The head of a noun phrase a relative clause says when, why or how of: "the day I met him" is no deed
# done to a day.
_EN_NOT_DONE_TO = frozenset("day time moment year week month night morning evening weekend summer way reason".split())

_EN_NP_DETERMINERS = frozenset("this that the a an my our".split())

_EN_WHEN_AFTER = re.compile(
    r"(?:(?:a few|a couple of|a|one|two|three|several|\d+) (?:days?|weeks?|months?|years?) ago|last \w+|yesterday|"
    r"today|recently|earlier|this (?:week|month|year|morning))\b",
    re.IGNORECASE,
)

_EN_STRANDED = frozenset("to at in on for with about from into".split())

# --- English clauses: subject, predicate, object -------------------------------------------
# A clause ends at a dash, a semicolon or a colon, and at a comma or a conjunction before a new
# subject ("…, it was so powerful", "… and I").
_EN_CLAUSE_END = re.compile(
    r"\s+[-–—]+\s+|\s*[;:]\s+|"
    r",\s+(?=(?:(?:and|but|so|or|then|plus|because|cause|since|though|although|while|as|after|before|until|"
    r"when|once|if|unless)\s+)?(?:it|it's|he|she|they|you|this|that|there)\b)|"
    r",\s+(?=(?:[\w']+\s+){0,3}(?:I|we)(?:'\w+)?\b)|"
    r"\s+(?=(?:and|but|so|because|cause|since|though|although|while|after|before|until|when|once|if|unless)\s+"
    r"(?:[\w']+\s+){0,2}(?:I|we)(?:'\w+)?\b)|"
    # "… and my mom is a doctor": a new subject said by whose it is
    r"\s+(?=(?:and|but|while)\s+(?:my|our)\s+[\w']+(?:\s+[\w']+)?\s+(?:is|was|are|were|works|worked|lives|lived)\b)",
    re.IGNORECASE,
)

# Words that may stand before the subject of a clause that states a fact: interjections,
# conjunctions, discourse adverbs and time words. Not "if", "unless", "once" (a condition), nor
# anything else: "the city I live in" and "a bike ride we took" are not about the speaker.
_EN_LEAD = frozenset(
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

_EN_COMPANION = re.compile(_COMPANION)

_EN_SUBJECT = re.compile(
    rf"(?:(?P<with>{_COMPANION}) and )?"
    r"(?P<subj>\bI|\bi|\b[Ww]e)(?P<contr>'m|'ve|'d|'ll|'re)?(?![\w'])"
)

# Words that open a condition, a guess or a question: a capitalised one is no speaker's name.
_EN_NOT_LEAD = frozenset(
    "if unless once whether maybe perhaps hopefully wish suppose imagine what why how where who which that the a "
    "an even whenever someday probably".split()
)

_EN_CONTRACTIONS = {"'m": "am", "'ve": "have", "'ll": "will", "'re": "are", "'d": "'d"}

_EN_NEGATED_AUX = word_map(  # a negated auxiliary → the auxiliary
    "do: don't|dont, does: doesn't|doesnt, did: didn't|didnt, can: can't|cant|cannot, will: won't, have: haven't|havent, "
    "has: hasn't, had: hadn't, is: isn't, are: aren't, was: wasn't|wasnt, were: weren't, could: couldn't, "
    "would: wouldn't, should: shouldn't, must: mustn't, am: ain't"
)

_EN_BE = {"am", "are", "is", "was", "were", "be", "been", "being"}

_EN_HAVE = {"have", "has", "had"}

_EN_AUX = (
    _EN_BE
    | _EN_HAVE
    | {"do", "does", "did", "will", "would", "shall", "should", "can", "could", "may", "might", "must", "'d"}
)

_EN_MODAL = {"would", "should", "could", "might", "may", "must", "shall"}  # a wish or a possibility

_EN_DROPPED_ADVERBS = frozenset(
    "just really actually finally also recently totally truly definitely kinda so even already currently now all "
    "both literally basically honestly seriously officially super lately first only sort absolutely somehow "
    "luckily".split()
)

# Verbs an emphatic do stands before ("I do love it", "she did go"); before anything else do is the verb.
_EN_DO_EMPHASIS = frozenset(
    """
love like enjoy hope want miss need remember think believe know feel have care mean appreciate agree understand
wish get go see try make take come look seem want wonder get not never always still really also just
""".split()
)

_EN_KEPT_ADVERBS = {"always", "usually", "often", "sometimes", "rarely", "still"}

_EN_PARTICLES = {"up", "out", "off", "down", "back", "away", "over", "around", "along"}

_EN_PREPOSITIONS = {"about", "of", "for", "in", "into", "with", "to", "at", "by", "on", "from", "over", "as"}

# Verbs of saying, thinking and feeling: "I think …", "I told her …", "I wanted to tell you …"
# report or hedge; the fact, if any, is in what follows, which is not this clause's object.
_EN_NOT_FACT_VERBS = frozenset(
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
_EN_REPORTED = frozenset({"say", "says", "said", "tell", "tells", "told", "mention", "mentioned"})

_EN_NOT_VERB = frozenset(
    "a an the my our some these those this that it to so very really pretty quite not no yes yeah all just more "
    "too last much many also still ever never always even only both sure glad sorry here there gonna wanna gotta "
    "can could would should might must will shall may do did does and or but if like in at on of for with from by "
    "as about one ok okay totally definitely actually honestly already hope think".split()
)

# Participles that say something happened ("I got married last June"), not how one felt ("I was tired").
_EN_EVENT_PARTICIPLES = frozenset(
    "born married engaged divorced promoted hired fired elected injured hurt diagnosed baptized baptised accepted "
    "admitted adopted discharged released vaccinated robbed evicted laid graduated".split()
)

MAX_OBJECT_WORDS = 16  # a longer run-on object cannot be told where it ends: no memory

# Past verbs that say no deed of their own: a state, a stance, a try or a report
_EN_NOT_DONE = frozenset(
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

_EN_CAUSAL = [
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

_EN_OFTEN = re.compile(
    rf"\b(?:(?:every|each) (?:other |single )?(?:day|morning|afternoon|evening|night|week|weekend|month|year|"
    rf"summer|winter|{_DAY_NAMES})|on (?:the )?(?:weekends|weekdays|weeknights|(?:{_DAY_NAMES})s)|"
    r"(?:once|twice|three times|four times|a few times|\d+ times) (?:a|per) (?:day|week|month|year)|daily|weekly)\b",
    re.IGNORECASE,
)

# A cause or an effect kept whole is none when it only says what someone knows or thinks is so
# ("so I know I'll be ok", 所以我相信会好的): the clause after the verb is the point, and read
# whole with it, it makes a fact of the knowing (Ivy knows I'll be ok). Feelings stay (觉得很累).
_EN_THOUGHT = re.compile(
    r"^(?:(?:just|really|still|also|now|do|did|kind of|kinda)\s+)*"
    r"(?:know|knew|think|thought|guess|believe|suppose|bet|reckon|hope|doubt|imagine|realized?|realised?|"
    r"figured?|wonder|am sure|was sure|'m sure)\s+"
    r"(?:that|I|I'll|I'm|I'd|I've|you|you'll|you're|he|he'll|he's|she|she'll|she's|it|it'll|it's|we|we'll|"
    r"we're|they|they'll|they're|there|everything|things)\b",
    re.IGNORECASE,
)

_EN_VERBISH = frozenset(
    "is was are were has had have will would can could did does do got gets kept broke went came made said became "
    "felt looked seemed took gave ran fell left told won lost began started stopped makes keeps needs wants loves "
    "hates likes".split()
)

_EN_DETERMINERS = {"the", "a", "an", "this", "that", "these", "those"}

# A pronoun subject names nobody the clause says: "it really bugged me" is no fact about anything.
_EN_PRONOUN_SUBJECTS = frozenset(
    "i we you it he she they this that there these those which who what everyone someone something everything".split()
)

# a cause said of "it" doing something (it kept me up at night): "it" is what the effect is about
_IT_DID = re.compile(
    r"^\s*(?P<it>it|It) (?!(?:is|was|'s|will|would|can|could|may|might|must|should|does|did|has|had|isn't|wasn't|"
    r"doesn't|didn't|rained|snowed|poured|seems|seemed|looks|looked|feels|felt|sounds|sounded)\b)[a-z]+\b"
)

_EN_THEREFORE = re.compile(
    r"^(?:so|that's why|that is why|this is why|which is why|because of that|as a result)[,]?\s+", re.I
)

_EN_PLACE = re.compile(r"\b(?:at|in) (?:the |a |an )?(?P<place>[A-Z][\w'.-]*(?: [A-Z][\w'.-]*)*|[a-z]+)$")

# words after "in" / "at" that say how, not where ("moving in together", "in advance", "at all")
_NOT_PLACES = frozenset(
    "home all time bed person general fact together advance love trouble touch mind charge tears shock "
    "fact particular short turn total private public secret peace front return".split()
)
