"""Chinese clauses: whom a clause is about, and what it says of them.

A clause opens with its subject — 我, a person by name (小雯), by role (我表妹, 我的钢琴老师), by
pronoun (她 / 他) — or with none, when it goes on about the subject of the clause before
(我辞职了，下个月入职字节跳动). ``subject_of`` reads that opening (``people.People`` says whom a
role or a pronoun means); ``predicates`` reads what follows: where they live or moved to, where
they work or study (and quitting, changing jobs, graduating), what they like or no longer do, what
they have or bought, what they plan, and their name or what they are.

Function words carry the reading: 住在 / 搬到 / 在…工作 / 不再 / 打算 are a closed set, and what
stands between them is the open part (a place, a company, a thing). Where that open part ends
before an open-class word (在星巴克|见了小雯, 一辆|新自行车) the segmenter decides: ``rjieba``
(jieba's dictionary inside the package, loaded the first time Chinese text is read, about 0.3 s).

Here: the patterns, in the order they are tried (``_RULES``), and the readings of whole sentences;
whom a clause is about is read in ``zh_subjects``, what each pattern builds in ``zh_builds``.
"""

from __future__ import annotations

import re

from ..lang import HAN_CHARS
from ..lexicon.roles import ZH_ROLE, ZH_ROLES, role_of
from .people import People, introduce
from .phrases import Found, clean, patterns, read_as, relation
from .zh_builds import (
    _HABIT,
    _NO_HOME,
    _P,
    _PAST_HOME,
    _PAST_WORK,
    _SINCE,
    _SPAN,
    _WORK_SPAN,
    _admitted,
    _allergic,
    _diet,
    _favourite,
    _identity,
    _learning,
    _lived_before,
    _lived_span,
    _named,
    _organisation,
    _origin,
    _plan,
    _plays,
    _possession,
    _practised,
    _preference,
    _quit_habit,
    _school,
    _slot,
    _stopped,
    _teaches,
    _work_place,
    _work_span,
    _worked_at,
)
from .zh_subjects import (
    _ADV,
    _JOB_END,
    _NAME,
    _NOT_FACT,
    _NOT_NAME,
    _NOT_THINKING,
    _ONE,
    _TITLES,
    _name_after,
    _object,
    _one_word,
    is_place,
    noun_head,
    tag,
)

_RULES = patterns(
    # changes of residence and of work or school: the slot they set
    (rf"^(?:搬到|搬去|搬家到|搬回到|搬回|搬进了|搬进|搬来)了?(?P<obj>{_P}+)", _slot("搬到", "residence")),
    (rf"^(?:不再|不)住在(?P<obj>{_P}+?)(?:了)?$", _slot("不再住在", "residence", ends=True)),
    # 搬出了那套公寓 / 搬离北京: the home left (a "that one" is no name: the home ends all the same)
    (
        rf"^(?:搬出去了?|搬出了?|搬离了?)(?:(?:那|这)(?:套|个|间|栋)?)?"
        rf"(?:(?:公寓|房子|出租屋|宿舍|家)(?:了)?$|(?P<obj>{_P}*?)(?:了)?$)",
        _slot("不再住在", "residence", ends=True),
    ),
    (rf"^(?:住在|家在|居住在|生活在|定居在|定居于|定居)(?P<obj>{_P}+)", _slot("住在", "residence")),
    (
        rf"^在{_NOT_THINKING}(?P<obj>{_P}{{1,12}}?)(?:住|生活|定居|安家)(?:了|着|下来了?)?$",
        _slot("住在", "residence"),
    ),
    # 在北京住了五年了 (了 at the end: up to now): where someone lives, for that long
    (rf"^在{_NOT_THINKING}(?P<obj>{_P}{{1,12}}?)(?:住|生活)了?(?P<time>{_SPAN})了$", _lived_span),
    # 住上海 / 住上海五年了: 住 with no 在 (住院, 住校, 住酒店 are no home)
    (rf"^住(?!{_NO_HOME})(?P<obj>{_P}{{2,12}}?)(?P<time>{_SPAN})了$", _lived_span),
    (rf"^住(?!{_NO_HOME})(?P<obj>{_P}{{2,12}}?)$", _slot("住在", "residence")),
    # 在北京住了五年 / 在北京住过 / 以前住在北京: a home before (no 了 at the end: the span ended),
    # which sets no slot: where someone lives now is said otherwise
    (
        rf"^在{_NOT_THINKING}(?P<obj>{_P}{{1,12}}?)(?:住|生活|待)(?:过|了)(?P<time>{_SPAN})?$",
        _lived_before,
    ),
    (
        rf"^(?:入职了?|加入了?|跳槽到了?|跳槽去了?|进了|去了?)(?P<obj>{_P}+?)(?:上班|工作)?(?:了)?$",
        lambda m, t: (
            _slot("入职", "employer")(m, t)
            if m.group(0).startswith(("入职", "加入", "跳槽", "进了"))
            or m.group(0).endswith(("上班", "上班了", "工作了"))
            else []
        ),
    ),
    (r"^(?:换了?(?:一份|个|份)?(?:新)?工作|跳槽了)", _slot("换工作", "employer", ends=True)),
    # 开始在谷歌工作了: a new employer (with a time, 去年开始在…, since then: see _SINCE)
    (rf"^开始在(?P<obj>{_P}{{1,20}}?)(?:工作|上班|任职)了?$", _slot("入职", "employer")),
    (rf"^从(?P<obj>{_P}+?)(?:辞职|离职)了?", _slot("辞职", "employer", ends=True)),
    (
        r"^(?:辞职|离职|辞了职|辞掉了?工作|被裁员|被裁|被解雇|被开除|退休)了?",
        _slot("辞职", "employer", ends=True),
    ),
    (rf"^(?:考上了?|考进了?|被(?P<by>{_P}+?)录取)(?P<obj>{_P}*)", _admitted),
    (rf"^(?:从)?(?P<obj>{_P}+?)毕业了?", _slot("毕业于", "school", ends=True)),
    (rf"^毕业于(?P<obj>{_P}+?)(?:了)?$", _slot("毕业于", "school", ends=True)),
    (rf"^(?:转学|转校)(?:到|去)了?(?P<obj>{_P}+?)(?:了)?$", _slot("转学到", "school")),
    # what they eat
    (
        r"^(?P<change>(?:从)?(?:开始|改|改成|改为|转为|决定)?)(?:吃素|吃斋|吃全素|吃纯素|(?:是|成了|当了?)(?:一[个名位])?素食(?:者|主义者))"
        r"|^(?P<change2>(?:从)?(?:开始|又|重新)?)(?P<meat>吃肉|吃荤|是肉食(?:动物|主义者)|无肉不欢)",
        _diet,
    ),
    # 跟小李结婚了 / 和王芳结婚三年了 / 嫁给了小李: whom they are married to
    (
        rf"^(?:(?:跟|和|与)(?P<obj>{_NAME})(?:结婚|结了婚)|(?:嫁给了?|娶了)(?P<obj2>{_NAME}))(?:了|{_SPAN}了?)?$",
        lambda m, t: [relation("配偶", m.group("obj") or m.group("obj2"))],
    ),
    # 出生在山东 / 是在青岛出生的: where someone was born
    (
        rf"^(?:出生在|出生于|生在|出生在了)(?P<obj>{_P}{{1,12}}?)(?:的)?$|^(?:是)?在(?P<obj2>{_P}{{1,12}}?)出生的?$",
        lambda m, t: (
            [Found("FACT", "出生于", o, 0.6, kind="fact")]
            if (o := clean(m.group("obj") or m.group("obj2"), True, 20)) and o[0] not in _NOT_NAME
            else []
        ),
    ),
    # 结婚了 / 结婚三年了: married, to someone not named
    (rf"^(?:已经)?(?:结婚|结了婚)(?:了|{_SPAN}了)$", lambda m, t: [Found("EVENT" if t else "FACT", "结婚", None, 0.6)]),
    # 在医院找了份新工作 / 找到了工作: a new employer (where it is said), else a job changed
    (
        rf"^(?:在(?P<obj>{_P}{{1,20}}?))?(?:找到|找)了?(?:一)?(?:份)?(?:新)?(?:的)?工作(?:了)?$",
        lambda m, t: (
            _slot("入职", "employer")(m, t)
            if m.group("obj") and not is_place(m.group("obj"))
            else [
                Found(
                    "EVENT" if t else "FACT",
                    "换工作",
                    None,
                    0.7,
                    {"地点": m.group("obj")},
                    kind="work",
                    slot="employer",
                    ends=True,
                )
            ]
            if m.group("obj")  # 在上海找到了工作: a job found in a city, its employer not said
            else _slot("换工作", "employer", ends=True)(m, t)
        ),
    ),
    # where they work or study now
    (
        rf"^在{_NOT_THINKING}(?P<obj>{_P}{{1,20}}?)(?:读书|上学|念书|读大学|读研究生|读研|读博士|读博|读高中|读初中|读小学|留学|读)(?P<what>{_P}*)",
        _school,
    ),
    (rf"^是(?P<obj>{_P}{{1,20}}?)的学生", _school),
    (rf"^在{_NOT_THINKING}(?P<obj>{_P}{{1,20}}?)(?:工作|上班|任职|实习|打工)", _work_place),
    (rf"^在{_NOT_THINKING}(?P<obj>{_P}{{1,20}}?)当(?P<job>{_P}{{1,12}})$", _work_place),
    # 在银行做柜员 / 在公司干会计: 做 and 干 name a job only when what follows is one (员, 师, 会计 ...),
    # or when where it is done is a workplace by name (在一家游戏公司做策划)
    (rf"^在{_NOT_THINKING}(?P<obj>{_P}{{1,20}}?)(?:做|干)(?P<job>{_P}{{0,10}}(?:{_JOB_END}))$", _work_place),
    (
        rf"^在{_NOT_THINKING}(?P<obj>{_P}{{0,16}}?(?:公司|企业|银行|医院|工厂|厂|事务所|工作室|研究所|集团|机构|出版社|报社|杂志社))"
        rf"(?:做|干|当|负责)(?![了过完个])(?P<job>[^，,。！？；;!?\n了过]{{2,8}})$",
        _work_place,
    ),
    # 从腾讯跳槽到字节: the employer now (the one left is said with it)
    (
        rf"^从(?P<old>{_P}{{1,12}}?)(?:跳槽|换)(?:到|去)了?(?P<obj>{_P}{{1,16}}?)(?:上班|工作)?(?:了)?$",
        _slot("入职", "employer"),
    ),
    (rf"^(?:就职于|供职于|任职于|受雇于)(?P<obj>{_P}+)", _slot("工作于", "employer")),
    (rf"^(?:的)?(?:工作|职业)是(?P<obj>{_P}+)", _slot("职业是", "job")),
    # 升职为 / 被提拔为 X: the job now, which replaces the one before
    (rf"^(?:升职为|升职成了?|升为|升任|晋升为|被提拔为|提拔为)(?P<obj>{_P}+?)(?:了)?$", _slot("职业是", "job")),
    # 对花生过敏 / 花生过敏: what they are allergic to, a fact about their health; 不过敏 states nothing
    (
        rf"^(?:对)?(?P<obj>{_P}{{1,12}}?)(?P<neg>不|没有|并不)?(?:有点|有些|很|特别|严重)?过敏(?:了)?$",
        _allergic,
    ),
    # likes, dislikes and what is no longer done
    (rf"^最(?:喜欢|爱)的(?P<what>{_P}{{1,10}}?)(?:是|就是)(?P<obj>{_P}+)", _favourite),
    (
        rf"^(?P<neg>不再|再也不|一点也不|一点都不|并不|从来不|从不|不太|不怎么|不是很|不是特别)?"
        rf"(?:也|还是|还|真的|真|很|非常|特别|最|更|超|超级|挺|蛮|一直|比较|都|就|好)*"
        rf"(?P<verb>不喜欢|喜欢|喜爱|讨厌|热爱|不爱|迷上了|爱上了|爱|恨|受不了|害怕|怕)(?P<habit>{_HABIT})?(?P<obj>{_P}+)",
        _preference,
    ),
    (rf"^(?:不再|再也不|已经不|早就不)(?P<verb>{_HABIT}|去|用|开|住)(?P<obj>{_P}+?)(?:了)?$", _stopped),
    (rf"^(?:不再|再也不)(?P<verb>)(?P<obj>{_P}+?)(?:了)?$", _stopped),
    (rf"^不(?P<verb>{_HABIT})(?P<obj>{_P}+?)了$", _stopped),
    (rf"^戒了?(?P<obj>{_P}+?)(?:了)?$", _quit_habit),
    # 不吃猪肉 / 从来不喝酒: a food or drink kept off (不吃早饭, 不吃了 say how much or when, not what)
    (
        rf"^(?:从来|从|一直|平时|基本)?不(?P<verb>吃|喝)(?!早饭|午饭|晚饭|饭|东西|太多|多|了)(?P<obj>{_P}{{1,6}})$",
        lambda m, t: (
            [read_as("dislike", "OPINION", "不" + m.group("verb"), o)]
            if (o := clean(m.group("obj"), True, 12)) and o[0] not in _NOT_NAME
            else []
        ),
    ),
    # 在学吉他 / 学西班牙语半年了 / 在准备考研: what they are learning or preparing for now (在学校 is a place)
    (
        rf"^(?:正在|一直在|在|开始)?(?P<verb>学习|练习|学|练|准备)(?!校|院|生|堂|期|习惯)(?P<obj>{_P}{{1,12}}?)"
        rf"(?P<time>{_SPAN})?(?:了)?$",
        _learning,
    ),
    # 学了三年钢琴了 / 弹了十年吉他: how long someone has learnt or played something (了 at the end:
    # up to now)
    (
        rf"^(?:已经)?(?P<verb>学习|练习|学|练|弹|拉|吹|打|踢|跳|画|唱)了(?P<time>{_SPAN})(?:的)?"
        rf"(?P<obj>[\u4e00-\u9fffA-Za-z]{{2,8}}?)(?P<now>了)?$",
        _practised,
    ),
    # 做销售的 / 是做IT的: the line of work someone is in
    (rf"^(?:是)?(?:做|搞|干)(?!饭|菜|事|作业|家务|梦)(?P<obj>{_P}{{1,8}}?)的$", _slot("职业是", "job")),
    # 不在北京住了: no longer lives there
    (
        rf"^(?:已经|早就)?不在(?P<obj>{_P}{{1,12}}?)(?:住|生活|待)了$",
        _slot("不再住在", "residence", ends=True),
    ),
    # 不在腾讯了 / 不在华为上班了: no longer works there (a home, 家, is no employer)
    (
        rf"^不在(?P<obj>{_P}{{1,20}}?)(?:工作|上班|干)?了$",
        lambda m, t: _slot("辞职", "employer", ends=True)(m, t) if _organisation(m.group("obj")) else [],
    ),
    # 开了一家面包店 / 在深圳开了一家餐厅: a business someone runs, where they work
    (
        rf"^(?:在(?P<place>{_P}{{1,10}}?))?(?:自己)?开了(?:一家|家|一个|个|一间|间)(?P<obj>{_P}{{0,8}}?(?:店|公司|餐厅|饭店|馆|工作室|厂|诊所|超市|网店|民宿))$",
        lambda m, t: [
            Found(
                "EVENT" if t else "FACT",
                "开了",
                m.group("obj"),
                0.7,
                {"地点": m.group("place")} if m.group("place") else None,
                kind="work",
                slot="employer",
            )
        ],
    ),
    # 弹钢琴 / 会拉小提琴 / 打篮球: an instrument or a game someone plays (会: can)
    (
        r"^(?P<can>会)?(?:(?P<verb>弹|拉|吹)(?P<obj>[\u4e00-\u9fff]{1,5}?)|(?P<verb2>打|踢|下)(?P<obj2>篮球|足球|排球|网球|"
        r"羽毛球|乒乓球|棒球|高尔夫球?|冰球|太极拳?|架子鼓|鼓|围棋|象棋|国际象棋))$",
        _plays,
    ),
    # 教数学 / 在中学教物理: what someone teaches, and where (the employer)
    (rf"^在{_NOT_THINKING}(?P<obj>{_P}{{1,20}}?)教(?P<what>{_P}{{1,10}})$", _teaches),
    (r"^教(?P<what>[\u4e00-\u9fffA-Za-z]{1,10})$", _teaches),
    # plans and intentions
    (rf"^(?:在)?(?P<verb>打算|准备|计划|决定|考虑|想要|想|将要|要|会|将)(?P<obj>{_P}+)", _plan),
    # 希望今年能跑一次半马 / 的计划是六月前写完论文: what someone hopes or plans to do
    (rf"^(?:很|一直|真)?(?P<verb>希望|盼着)(?:能|可以|能够)(?P<obj>{_P}+)", _plan),
    (rf"^的(?P<verb>计划|打算)(?:是|就是)(?P<obj>{_P}+)", _plan),
    # 在找新工作 / 正在找房子: what they are looking for, not where they work
    (
        rf"^(?:现在)?(?:在|正在)(?:找|寻找|物色)(?P<obj>{_P}{{1,12}}?)(?:了|呢)?$",
        lambda m, t: [Found("FACT", "在找", m.group("obj"), 0.6, kind="fact")] if _object(m.group("obj")) else [],
    ),
    # a licence, a degree, a visa got: theirs from now on (拿到驾照了 / 考到了驾照)
    (
        r"^(?:终于|刚刚|刚|已经)*(?:拿到|考到|考下|考出|拿下|办下|取得)(?:了)?(?P<obj>驾照|驾驶证|学位|(?:学士|硕士|博士)学位|毕业证|护照|签证|绿卡|录取通知书|黑带)",
        lambda m, t: [Found("EVENT" if t else "FACT", "拿到", m.group("obj"), 0.6, kind="possession")],
    ),
    # 我怀孕了: expecting a child, a fact until it is born
    (r"^(?:已经|终于|又)?怀孕(?:了)?(?:[，,。！!]|$)", lambda m, t: [Found("FACT", "怀孕", None, 0.8, kind="fact")]),
    # possessions
    (rf"^(?P<verb>拥有|有|买了|领养了|养了)(?P<obj>{_P}+)", _possession),
    # 在成都买了房: a home bought, and where
    (
        rf"^在(?P<place>{_P}{{1,12}}?)买了(?:一套|套|一个|个|一栋|栋)?(?P<obj>房子|房|公寓|别墅|新房|二手房)$",
        lambda m, t: [
            Found("EVENT" if t else "FACT", "买了", m.group("obj"), 0.6, {"地点": m.group("place")}, kind="possession")
        ],
    ),
    # 开的是特斯拉 / 开一辆旧宝马: the car someone drives (开会, 开心, 开始 are no car)
    (
        rf"^(?:开的是|开着?(?:一辆|辆)|开了?一辆)(?:新|旧|二手)?(?:的)?(?P<obj>{_P}{{2,12}}?)(?:车)?$",
        lambda m, t: [read_as("possession", "FACT", "开", obj)] if (obj := _object(m.group("obj"))) else [],
    ),
    # 姓王: someone's surname, not a name of its own (我的牙科医生姓王)
    (
        r"^姓(?P<obj>[\u4e00-\u9fff]{1,2}?)(?:的)?[。！!]?$",
        lambda m, t: [Found("FACT", "姓", m.group("obj"), 0.6, kind="fact")],
    ),
    # who they are
    (r"^(?:的名字)?(?:叫|是叫|名叫)(?P<obj>[^，,。！？；;!?\s]{1,12})", _named),
    (r"^的名字是(?P<obj>[^，,。！？；;!?\s]{1,12})", _named),
    (rf"^(?:来自|是从)(?P<obj>{_P}{{1,20}}?)(?:来的|过来的|人)?$", _origin),
    (rf"^(?:的)?老家(?:是|在)(?P<obj>{_P}{{1,20}}?)(?:的|人)?$", _origin),
    # how old: 34岁 / 三岁了 (今年, a time, is read apart); the consolidator's age slot takes a later one
    (
        r"^(?:已经|才|都)?(?P<obj>[\d一二两三四五六七八九十百]{1,4})(?:周)?岁(?:了|啦)?$",
        lambda m, t: [Found("FACT", "年龄", m.group("obj") + "岁", 0.7, kind="fact")],
    ),
    (rf"^是(?:一名|一个|一位|个|名|位)?(?P<obj>{_P}{{1,30}})", _identity),
)


def predicates(rest: str, timed: bool, time_text: str | None = None) -> list[Found]:
    """What a clause says of its subject, read from the text after the subject (adverbs allowed):
    the first rule that reads it wins. ``time_text``: the time the clause said, if any."""
    p = re.sub(rf"^{_ADV}", "", rest.strip(" ，,")).strip()
    since = _SINCE.match(p)
    when = time_text or (since and (since.group("when") or ("小时候" if p.startswith("从小") else None)))
    if since and when and since.end() < len(p):  # 从2019年起在谷歌工作: where they work, since 2019
        found = predicates(p[since.end() :], False)
        if found and all(f.memory_type == "FACT" and f.kind in ("work", "school", "residence") for f in found):
            for f in found:
                f.attributes = {**(f.attributes or {}), "起始": when}
            return found
        if found and all(f.kind == "preference" for f in found):  # 从小就怕狗: a liking or a fear held since
            return found
    past = _PAST_WORK.match(p)
    if past:
        return _worked_at(past)
    if home := _PAST_HOME.match(p):
        return _lived_before(home)
    span = _WORK_SPAN.match(p)
    if span and (span.group("now") or span.group("done")):
        return _work_span(span)
    if not p or _NOT_FACT.match(p):
        return []
    for pattern, make in _RULES:
        m = pattern.match(p)
        if m:
            found = make(m, timed)
            if found:
                return found
    return []


# --- events: what happened, where -----------------------------------------------------------
_FUTURE = re.compile(r"^(?:明天|后天|下周|下星期|下个月|下月|明年|下半年|今晚|待会|回头|将来|以后|这周末|周末)")


def is_future(time_text: str | None) -> bool:
    """Whether a time said in words is one to come (下个月, 明天, 明年)."""
    return bool(time_text and _FUTURE.match(time_text))


def event(rest: str, time_text: str | None = None) -> Found | None:
    """A timed clause about its subject kept as its predicate (去超市买了苹果 / 没睡好), with the
    place it happened at as 地点 (在星巴克见了小雯 → 见了小雯, 地点 星巴克)."""
    p = re.sub(rf"^{_ADV}", "", rest.strip(" ，,。！？!?")).strip()
    if not p or _NOT_FACT.match(p):
        return None
    future = is_future(time_text)
    attributes = None
    m = re.match(rf"^在(?P<place>{_P}+)", p)
    if m and tag(m.group("place"))[0][1].startswith("v"):
        m = None  # 在学做饭: 在 says it is going on, not where
    if m:
        said = _ONE.sub("", m.group("place"))  # 在一家游戏公司做美术: the place is 游戏公司
        place = noun_head(said)
        after = said[len(place) :] if place else ""
        if place and (len(place) > 1 or place == "家") and after and not after.startswith(("工作", "上班", "住")):
            attributes, p = {"地点": place}, after
    topic = clean(p, True, 30)
    if not topic:
        return None
    if future:  # 她下个月回国: what a time to come says someone does is a plan
        return Found("EVENT", "将", topic, 0.5, attributes, kind="plan")
    return Found("EVENT", topic, None, 0.5, attributes, kind="event")


# 女儿的班主任是刘老师 / 小雯的男朋友叫阿杰: someone in a role to a person the speaker knows.
_ROLE_OF_SOMEONE = re.compile(
    rf"^(?:我的|我)?(?P<whose>{ZH_ROLE}|{_NAME})的(?P<role>{ZH_ROLE})(?:是|叫|名叫)(?P<name>{_NAME})[。！!]?$"
)


def role_of_someone(text: str, people: People, owner: str) -> Found | None:
    """女儿的班主任是刘老师 → 我女儿 · 班主任 · 刘老师, 刘老师 learnt as that; None when the clause
    says no such thing."""
    m = _ROLE_OF_SOMEONE.match(text)
    role = role_of(m.group("role")) if m else None
    name = m.group("name") if m else ""
    if (
        m is None
        or role is None
        or name[0] in _NOT_NAME
        or name[0] in "个位名一"
        or name in ZH_ROLES
        or name[:2] in ZH_ROLES
    ):
        return None
    rel = role_of(m.group("whose"))
    if rel is not None:
        whose = people.by_role(rel[0], owner) or f"我{m.group('whose')}"
        if not people.knows(whose):
            people.learn(whose, gender=rel[1])
    elif people.knows(m.group("whose")):
        whose = m.group("whose")
    else:
        return None
    people.learn_of(whose, name, role[0], m.group("role"))
    return relation(role[0], name, whose)


# 我跟小静是大学同学 / 我和阿杰是好朋友: someone the speaker is something to, together
_TOGETHER = re.compile(
    rf"^我(?:跟|和|与)(?P<name>{_NAME})(?:以前|曾经|原来|从小)?(?:是|成了|一直是|就是)(?:[\u4e00-\u9fff]{{0,4}}?)(?P<role>同学|同事|朋友|好朋友|室友|邻居|闺蜜|发小)(?:了)?$"
)


def _kin_word(what: str) -> str | None:
    """The role word a description ends with (德国笔友 → 笔友)."""
    return next((what[-n:] for n in (3, 2, 1) if len(what) >= n and role_of(what[-n:])), None)


def said_together(text: str) -> bool:
    """The clause only says what the speaker and someone are to each other (``_TOGETHER``)."""
    return _TOGETHER.match(text.strip()) is not None


def stated_people(text: str, people: People, owner: str) -> list[Found]:
    """Relations said inside a clause, not at its start (我周末和我表妹小雯去了西湖), and 我跟小静是大学同学:
    each learnt."""
    out = []
    together = _TOGETHER.match(text.strip())
    if together and together.group("name")[0] not in _NOT_NAME and (found := role_of(together.group("role"))):
        people.learn(together.group("name"), found[0], owner=owner)
        out.append(relation(found[0], together.group("name")))
    for m in re.finditer(rf"我(?:的)?(?P<role>{ZH_ROLE})", text):
        found = role_of(m.group("role"))
        if m.start() == 0 or not found:
            continue
        role, gender = found
        name, _ = _name_after(text[m.end() :])
        if name:
            people.learn(name, role, owner=owner)
            out.append(relation(role, name))
        elif people.by_role(role, owner) is None:
            people.learn("我" + m.group("role"), gender=gender)  # 我和我老婆…，她…: a pronoun may mean her
    return out


# 一个叫Nina的护士 / 叫小吴的家教: someone introduced by their name and what they are; the phrase
# stands for the name in the clause (我认识了一个叫Nina的护士 → 我认识了Nina).
_INTRODUCED = re.compile(
    rf"(?:一|这|那)?(?:个|位|名)?(?:名)?叫(?P<name>{_NAME})的(?P<what>[\u4e00-\u9fff]{{1,6}}?)(?=$|[，,。！？!?；;了])"
)

# 一个家教，叫小吴 / 请了个阿姨，她叫王姐: what they are, then their name.
_NAMED_AFTER = re.compile(
    rf"(?:一)?(?:个|位|名)(?P<what>[\u4e00-\u9fff]{{1,6}}?)[，,]?(?:他|她)?(?:叫|名叫)(?P<name>{_NAME})[。！!]?$"
)

_NOT_PEOPLE = re.compile(r"(?:店|馆|厅|楼|书|片|电影|歌|游戏|地方|城|村|街|路|狗|猫|鱼|鸟|车|船|公司|学校)$")

# 楼下新搬来的邻居叫Olga / 我们公司新来的CTO叫Harris: who someone described is, a sentence of its own.
_DESCRIBED_IS_CALLED = re.compile(
    rf"^(?P<desc>[^，,。！？!?]{{1,14}}?的)(?P<what>[{HAN_CHARS}A-Za-z]{{1,6}}?)(?:叫|名叫|叫做)(?P<name>{_NAME})[。！!]?$"
)


def introduced(text: str, people: People, owner: str) -> tuple[str, list[Found]]:
    """People a clause introduces by name and what they are: each learnt as someone the speaker
    knows, what they are said (Nina 是 护士); the clause with the name in the phrase's place."""
    named = role_of_someone(text.strip(), people, owner)
    if named is not None:
        return "", [named]
    m = _DESCRIBED_IS_CALLED.match(text.strip())
    if m and m.group("desc") not in ("我的", "我们的", "的") and not _NOT_PEOPLE.search(m.group("what")):
        name, what = m.group("name"), m.group("what")
        known_role = role_of(what)
        role = known_role[0] if known_role else "熟人"
        return "", introduce(people, name, role, m.group("desc") + what, owner, "是")
    for pattern in (_INTRODUCED, _NAMED_AFTER):
        m = pattern.search(text)
        if m is None:
            continue
        what, name = m.group("what"), m.group("name")
        if _NOT_PEOPLE.search(what) or name[0] in _NOT_NAME or not (name.isascii() or _one_word(name, name)):
            continue
        kin = role_of(what) or role_of(what[-2:]) or role_of(what[-1:])
        had = r"(?:^|[，,])(?:我|我们)(?:上周|上个月|去年|前天|昨天|今年|刚刚|刚|已经|终于)*(?:还|也)?(?:有|生了|添了)$"
        if kin and re.search(had, text[: m.start()]):  # 我有个弟弟叫小乐 / 我们上周生了个女儿，叫莉莉: my 弟弟, my 女儿
            kin_word = _kin_word(what) or what
            plain = re.fullmatch(r"(?:小|大|亲|双胞胎)?", what[: len(what) - len(kin_word)]) is not None
            found = introduce(people, name, kin[0], None if plain else what, owner, "是")
        else:
            found = introduce(people, name, "熟人", what, owner, "是")
        if pattern is _INTRODUCED:
            return text[: m.start()] + name + text[m.end() :], found
        before = text[: m.start()]
        if re.search(r"有$", before):  # 我有个笔友叫Jonas: someone known, not something had
            return "", found
        if re.search(r"(?:生了|添了)$", before):  # 我们上周生了个女儿，叫莉莉: the birth, and who
            return before + "个" + what, found
        return before + name, found
    return text, []


def person_in(text: str, people: People) -> str | None:
    """A person a clause names inside it (…卖给了陈阿姨, …和小雯吃饭): one known by name, or a surname
    with a title (陈阿姨, 李老师) the way one calls them."""
    for key in sorted(people.names, key=len, reverse=True):
        said = people.names[key]
        if len(said) >= 2 and not said.startswith("我") and said in text:
            return said
    m = re.search(
        rf"[{HAN_CHARS}](?:{'|'.join(sorted(_TITLES, key=len, reverse=True))})(?=$|[^{HAN_CHARS}]|[了的说和])", text
    )
    if m and m.group(0)[0] not in _NOT_NAME and not role_of(m.group(0)[:1]) and not role_of(m.group(0)):
        return m.group(0)
    return None
