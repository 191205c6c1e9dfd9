"""Everyday talk becomes the graph: what the offline extractor stores from conversation, read back from
a real Neo4j, in Chinese and English — each kind of fact, people meant by role or pronoun across
sessions, changes that consolidation turns into supersede chains, causes as CAUSALITY edges."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

TZ = timezone(timedelta(hours=8))
JUNE = datetime(2025, 6, 1, 9, 0, tzinfo=TZ)
NOVEMBER = datetime(2025, 11, 5, 9, 0, tzinfo=TZ)


def say(graph, group_id, lines, session="s1", when=JUNE):
    return graph.ingest(
        group_id, [{"role": "user", "content": line} for line in lines], session_id=session, reference_time=when
    )


def _then(graph, group_id, first: list[str], later: list[str]) -> None:
    """``first`` said in June, ``later`` in November, in a session of its own."""
    say(graph, group_id, first, session="s1", when=JUNE)
    say(graph, group_id, later, session="s2", when=NOVEMBER)


def facts(graph, group_id) -> set[tuple]:
    rows = graph.store.run_text(
        "MATCH (m:Memory {group_id: $g}) RETURN m.subject_name AS s, m.topic_name AS t, m.object_name AS o, "
        "m.slot AS slot",
        g=group_id,
    )
    return {(r["s"], r["t"], r["o"]) for r in rows}


def slots(graph, group_id) -> dict[tuple, tuple]:
    rows = graph.store.run_text(
        "MATCH (m:Memory {group_id: $g}) WHERE m.slot IS NOT NULL "
        "RETURN m.subject_name AS s, m.topic_name AS t, m.object_name AS o, m.slot AS slot, m.slot_ends AS ends",
        g=group_id,
    )
    return {(r["s"], r["t"], r["o"]): (r["slot"], bool(r["ends"])) for r in rows}


def current(graph, group_id) -> set[str]:
    rows = graph.store.run_text(
        "MATCH (m:Memory {group_id: $g}) WHERE m.superseded_by IS NULL AND m.status <> 'archived' "
        "RETURN m.text AS text",
        g=group_id,
    )
    return {r["text"] for r in rows}


def test_each_kind_of_everyday_fact_in_chinese(graph, group_id):
    say(
        graph,
        group_id,
        [
            "我住在成都，在腾讯工作。",
            "我在清华读研究生。",
            "我女朋友叫林静。",
            "我特别喜欢吃火锅，我受不了香菜。",
            "我买了一辆新自行车。",
            "我打算明年去日本旅游。",
            "我昨天在星巴克见了小雯。",
            "好的，谢谢！你吃饭了吗？",
        ],
    )
    found = facts(graph, group_id)
    for fact in [
        ("我", "住在", "成都"),
        ("我", "工作于", "腾讯"),
        ("我", "就读于", "清华"),
        ("我", "女朋友", "林静"),
        ("我", "喜欢吃", "火锅"),
        ("我", "讨厌", "香菜"),
        ("我", "买了", "新自行车"),
        ("我", "打算", "去日本旅游"),
        ("我", "见了小雯", None),
    ]:
        assert fact in found, fact
    assert len(found) == 9  # the thanks and the question give nothing
    assert slots(graph, group_id)[("我", "住在", "成都")] == ("residence", False)
    assert slots(graph, group_id)[("我", "工作于", "腾讯")] == ("employer", False)
    [event] = graph.store.run_text(
        "MATCH (m:Memory {group_id: $g, topic_name: '见了小雯'}) RETURN m.text AS text", g=group_id
    )
    assert event["text"] == "我 见了小雯 (地点: 星巴克; 时间: 2025-05-31)"


def test_each_kind_of_everyday_fact_in_english(graph, group_id):
    say(
        graph,
        group_id,
        [
            "I live in Boston and I work at Acme.",
            "I study chemistry at McGill.",
            "Tom is my brother.",
            "I really enjoy hiking, but I can't stand crowded beaches.",
            "I have two cats.",
            "I'm going to visit Kyoto next spring.",
            "I ran into an old friend at the airport last night.",
            "Thanks so much! What do you think?",
        ],
    )
    found = facts(graph, group_id)
    for fact in [
        ("I", "live in", "Boston"),
        ("I", "work at", "Acme"),
        ("I", "study at", "McGill"),
        ("I", "brother", "Tom"),
        ("I", "enjoy", "hiking"),
        ("I", "hate", "crowded beaches"),
        ("I", "have", "two cats"),
        ("I", "plan to", "visit Kyoto"),
        ("I", "ran", "into an old friend at the airport"),
    ]:
        assert fact in found, fact
    assert len(found) == 9
    assert slots(graph, group_id)[("I", "study at", "McGill")] == ("school", False)


def test_the_readme_example_works_from_conversation(graph, group_id):
    _then(graph, group_id, ["我住在北京。"], ["我上个月搬到上海了。"])
    report = graph.consolidate(group_id)
    assert [(c.older_text, c.newer_text) for c in report.conflicts] == [
        ("我 住在 北京", "我 搬到 上海 (时间: 2025-10)")
    ]
    results = graph.search_memories(group_id, "我现在住哪？", reference_time=NOVEMBER, max_results=3).results
    assert results[0].text.startswith("我 搬到 上海") and results[0].current
    assert [r.current for r in results if "北京" in r.text] == [False]


def test_changes_of_work_supersede_the_old_employer_and_quitting_ends_it(graph, group_id):
    en, zh = group_id, f"{group_id}-zh"  # two users: one user's 我 and I are one person, with one employer
    _then(graph, en, ["I work at Acme."], ["I joined Globex last week."])
    _then(graph, zh, ["我在腾讯工作。"], ["我辞职了。"])
    assert [(c.older_text, c.newer_text) for c in graph.consolidate(en).conflicts] == [
        ("I work at Acme", "I joined Globex (time: 2025-10-27/2025-11-02)")
    ]
    assert [(c.older_text, c.newer_text) for c in graph.consolidate(zh).conflicts] == [("我 工作于 腾讯", "我 辞职")]
    assert slots(graph, zh)[("我", "辞职", None)] == ("employer", True)
    assert current(graph, zh) == {"我 辞职"}  # no employer is current any more


def test_no_longer_working_somewhere_ends_the_job_said_before(graph, group_id):
    # "I no longer work at Google" gave nothing: the job said a week before stayed current
    _then(graph, group_id, ["I work at Google."], ["I no longer work at Google."])
    assert [(c.older_text, c.newer_text) for c in graph.consolidate(group_id).conflicts] == [
        ("I work at Google", "I no longer work at Google")
    ]
    assert current(graph, group_id) == {"I no longer work at Google"}


def test_how_long_someone_has_worked_somewhere_is_their_employer_now_and_a_span_that_ended_is_not(graph, group_id):
    """ "have worked at X since 2019" and 在X干了十年了 (了 at the end: up to now) say where someone works
    now, and supersede the employer said before; 在X干了十年 (a span that ended) is a past job: it
    supersedes nothing."""
    en, zh = group_id, f"{group_id}-zh"
    _then(graph, en, ["I work at Initech."], ["I've worked at Globex since September."])
    _then(graph, zh, ["我在腾讯上班。"], ["我在亚马逊干了十年。", "我在华为工作三年了。"])
    assert _conflicts(graph, en) == {("I work at Initech", "I work at Globex")}
    assert _conflicts(graph, zh) == {("我 工作于 腾讯", "我 工作于 华为")}
    assert {"我 曾工作于 亚马逊 (时长: 十年)", "我 工作于 华为 (时长: 三年)"} <= current(graph, zh)
    assert "I work at Globex (since: 2025-09)" in current(graph, en)


def test_no_longer_supersedes_the_liking_it_ends_in_both_languages(graph, group_id):
    _then(graph, group_id, ["我爱喝可乐。", "I love coffee."], ["我不再喝可乐了。", "I don't drink coffee anymore."])
    report = graph.consolidate(group_id)
    assert {(c.older_text, c.newer_text) for c in report.conflicts} == {
        ("我 爱喝 可乐", "我 不再喝 可乐"),
        ("I love coffee", "I no longer drink coffee"),
    }
    assert {"我 不再喝 可乐", "I no longer drink coffee"} <= current(graph, group_id)


def _conflicts(graph, group_id) -> set[tuple[str, str]]:
    return {(c.older_text.split(" (")[0], c.newer_text.split(" (")[0]) for c in graph.consolidate(group_id).conflicts}


def test_a_breakup_or_a_divorce_ends_the_partner_and_a_new_partner_replaces_the_old(graph, group_id):
    # "Sam and I broke up" was an event beside "I · boyfriend · Sam", which stayed current
    en, zh, again = group_id, f"{group_id}-zh", f"{group_id}-again"
    _then(graph, en, ["My boyfriend Sam is a chef."], ["Sam and I broke up last month."])
    _then(graph, zh, ["我男朋友叫小李。"], ["我和男朋友分手了。"])
    _then(graph, again, ["My girlfriend Mia is a nurse."], ["My girlfriend Zoe loves jazz."])
    found = _conflicts(graph, en), _conflicts(graph, zh), _conflicts(graph, again)
    assert found == (
        {("Sam is my boyfriend", "I broke up with Sam")},
        {("小李是我的男朋友", "我 分手 小李")},
        {("Mia is my girlfriend", "Zoe is my girlfriend")},
    )
    assert "Sam is my boyfriend" not in current(graph, en) and "小李是我的男朋友" not in current(graph, zh)
    # someone else's breakup, and a band's, end nothing of the speaker's
    say(graph, en, ["Tom and his girlfriend broke up.", "The band broke up."], session="s3", when=NOVEMBER)
    assert _conflicts(graph, en) == set()


def test_a_phone_call_is_no_name_and_a_later_call_replaces_nothing(graph, group_id):
    # "called" was read as the name slot: calling one's dad superseded having called one's mum,
    # as if the speaker's name had changed from "my mom" to "my dad"
    _then(graph, group_id, ["I called my mom yesterday."], ["I called my dad this morning."])
    assert _conflicts(graph, group_id) == set()
    assert {t.split(" (")[0] for t in current(graph, group_id)} == {"I called my mom", "I called my dad"}


def test_a_new_diet_replaces_the_old_one_in_both_languages(graph, group_id):
    zh, en = group_id, f"{group_id}-en"
    _then(graph, zh, ["我平时很爱吃肉。"], ["我从上个月开始吃素了。"])
    _then(graph, en, ["I'm a big meat eater."], ["I've gone vegan since September."])
    assert _conflicts(graph, zh) == {("我 爱吃 肉", "我 吃 素")}
    assert _conflicts(graph, en) == {("I am meat eater", "I am vegan")}
    # liking a dish is no diet: it stays beside the new one
    say(graph, en, ["I love vegan food."], session="s3", when=NOVEMBER)
    assert not graph.consolidate(en).conflicts


def test_a_new_phone_number_replaces_the_old_one_said_without_a_subject(graph, group_id):
    zh, en = group_id, f"{group_id}-en"
    _then(graph, zh, ["我的手机号是13800001111。"], ["我换号了，新号码是13912345678。"])
    _then(graph, en, ["My phone number is 07700 900123."], ["Quick update: my new number is 07700 900456."])
    assert _conflicts(graph, zh) == {("我 手机号 13800001111", "我 号码 13912345678")}
    assert _conflicts(graph, en) == {("I phone number 07700 900123", "I phone number 07700 900456")}
    results = graph.search_memories(zh, "我现在的手机号是多少？", reference_time=NOVEMBER, max_results=3).results
    assert "13912345678" in results[0].text


def test_a_new_job_said_with_its_employer_replaces_both(graph, group_id):
    say(graph, group_id, ["I work as a nurse at St Mary's."], session="s1", when=JUNE)
    say(
        graph,
        group_id,
        ["I left the hospital and joined a care home in Kent as a manager."],
        session="s2",
        when=NOVEMBER,
    )
    assert _conflicts(graph, group_id) == {
        ("I work at St Mary's", "I joined a care home in Kent"),
        ("I work as nurse", "I work as manager"),
    }


def test_a_promotion_replaces_the_job_before_in_both_languages(graph, group_id):
    zh, en = group_id, f"{group_id}-en"
    _then(graph, en, ["I work as a nurse at St Mary's."], ["Good news: I got promoted to head nurse!"])
    _then(graph, zh, ["我的工作是程序员。"], ["我上个月被提拔为部门经理。"])
    assert ("I work as nurse", "I work as head nurse") in _conflicts(graph, en)
    assert _conflicts(graph, zh) == {("我 职业是 程序员", "我 职业是 部门经理")}


def test_a_child_spoken_of_by_role_alone_is_whom_a_later_sessions_pronoun_means(graph, group_id):
    zh, en = group_id, f"{group_id}-en"
    _then(graph, en, ["My daughter goes to Oakfield nursery."], ["She's started at Greenway Primary now."])
    _then(graph, zh, ["我儿子在阳光幼儿园上学。"], ["儿子转学了，现在在实验小学读书。"])
    assert _conflicts(graph, en) == {
        ("my daughter studies at Oakfield nursery", "my daughter enrolled at Greenway Primary")
    }
    assert any(older == "我儿子 就读于 阳光幼儿园" for older, _ in _conflicts(graph, zh))  # by 转学 or the new school
    now = current(graph, zh)
    assert "我儿子 就读于 实验小学" in now and "我儿子 就读于 阳光幼儿园" not in now


def test_a_role_means_the_person_named_in_it_in_an_earlier_session(graph, group_id):
    say(graph, group_id, ["我表妹小雯是木匠。", "My piano teacher, Mrs. Lee, is very strict."], session="s1")
    say(graph, group_id, ["我表妹下个月结婚。", "My piano teacher moved to Seattle."], session="s2", when=NOVEMBER)
    found = facts(graph, group_id)
    assert ("我", "表妹", "小雯") in found and ("小雯", "是", "木匠") in found
    assert ("小雯", "将", "结婚") in found  # 我表妹 → 小雯, a session later
    assert ("Mrs. Lee", "moved to", "Seattle") in found
    assert not any(s in ("我表妹", "my piano teacher") for s, _, _ in found)


def test_a_pronoun_means_the_last_person_named_whom_it_fits(graph, group_id):
    zh, en = group_id, f"{group_id}-en"
    say(graph, zh, ["我表哥大伟和我表姐小芳上周都来看我了。", "她在杭州工作。", "他在上海读博士。"])
    say(
        graph,
        en,
        [
            "My sister Emma and my uncle Bob came over for dinner.",
            "She works at a hospital nearby.",
            "He just retired from the post office.",
        ],
    )
    assert {("小芳", "工作于", "杭州"), ("大伟", "就读于", "上海")} <= facts(
        graph, zh
    )  # 她: 小芳, though 大伟 came last
    assert {("Emma", "works at", "a hospital nearby"), ("Bob", "quit", "post office")} <= facts(graph, en)
    # a later session: 她 is still the last woman named
    say(graph, zh, ["她下个月回国。"], session="s2", when=NOVEMBER)
    assert ("小芳", "将", "回国") in facts(graph, zh)


def test_a_pronoun_that_fits_nobody_gives_no_memory(graph, group_id):
    say(graph, group_id, ["她在杭州工作。", "He lives in Oslo."])
    assert facts(graph, group_id) == set()


def test_a_cause_becomes_a_causality_edge_from_cause_to_effect(graph, group_id):
    say(
        graph,
        group_id,
        ["由于堵车，我开会迟到了。", "I forgot my umbrella, so I got soaked."],
    )
    edges = graph.store.run_text(
        "MATCH (a:Memory {group_id: $g})-[:CAUSALITY]->(b:Memory) RETURN a.text AS cause, b.text AS effect",
        g=group_id,
    )
    pairs = {(e["cause"], e["effect"]) for e in edges}
    assert ("我 堵车", "我 开会迟到") in pairs
    assert ("I forgot my umbrella", "I got soaked") in pairs


def test_a_pronoun_means_the_person_spoken_of_not_one_known_only_from_a_tool_call(graph, group_id):
    zh, en = group_id, f"{group_id}-en"
    graph.create_memory(en, "I", "RELATION", "am neighbours with", "Mr Hill")  # an agent's note: a man
    _then(graph, en, ["Our landlord is Gary."], ["He lives downstairs."])
    graph.create_memory(zh, "我", "RELATION", "邻居", "王先生")
    _then(graph, zh, ["我们的房东叫老郑。"], ["他住在楼下。"])
    assert any(s == "Gary" for s, _, _ in facts(graph, en) - {("I", "am neighbours with", "Mr Hill")})
    assert not any(s == "Mr Hill" for s, _, _ in facts(graph, en))
    assert any(s == "老郑" for s, _, _ in facts(graph, zh)) and not any(s == "王先生" for s, _, _ in facts(graph, zh))


def test_someone_in_a_role_to_a_relative_or_a_friend_is_theirs(graph, group_id):
    zh, en = group_id, f"{group_id}-en"
    _then(graph, en, ["My daughter's form teacher is Ms Harper."], ["She teaches English."])
    say(graph, zh, ["我表妹小雯在杭州工作。", "小雯的男朋友叫阿杰。", "女儿的班主任是刘老师。"])
    assert {("my daughter", "form teacher", "Ms Harper"), ("Ms Harper", "teaches", "English")} <= facts(graph, en)
    found = facts(graph, zh)
    assert {("小雯", "男朋友", "阿杰"), ("我女儿", "班主任", "刘老师")} <= found
    assert ("我", "男朋友", "阿杰") not in found and ("我", "班主任", "刘老师") not in found


def test_a_plain_name_doing_what_people_do_is_someone_in_later_sessions(graph, group_id):
    """ "Maria comes to clean our house" names a person though no role or title was said: a later
    session's "Maria …" and "She …" are about her, not the friend an agent once wrote down. A
    capitalised word doing what shops and cities do is not taken for someone."""
    graph.create_memory(group_id, "my friend Chloe", "FACT", "works at", "a bank")  # an agent's note
    say(graph, group_id, ["Maria comes to clean our house on Tuesdays.", "Tesco sells cheap bread."], "s1", JUNE)
    say(graph, group_id, ["She's originally from Valencia."], "s2", JUNE + timedelta(days=30))
    say(graph, group_id, ["Maria is going home in December.", "London was rainy."], "s3", NOVEMBER)
    found = facts(graph, group_id)
    assert ("Maria", "comes", "to clean our house") in found  # how often (on Tuesdays) beside it
    assert ("Maria", "is from", "Valencia") in found and not any(s == "Chloe" for s, _, _ in found)
    assert sum(s == "Maria" for s, _, _ in found) == 3
    assert not any(s in {"Tesco", "London"} for s, _, _ in found)


def test_what_someone_else_said_is_kept_and_the_speakers_own_saying_is_not(graph, group_id):
    say(graph, group_id, ["My daughter's form teacher is Ms Harper."], "s1", JUNE)
    say(graph, group_id, ["The form teacher said my daughter concentrates well.", "I said that was lovely."], "s2")
    found = facts(graph, group_id)
    assert ("Ms Harper", "said", "my daughter concentrates well") in found
    assert not any(t == "said" for s, t, _ in found if s in {"I", "我"})


def test_a_speaker_addressed_by_name_is_not_what_the_clause_is_about(graph, group_id):
    """Two friends talking: what Gina says of herself is hers, and "Gina, thanks for …" in Jon's
    reply speaks to her, in this session and the next, so no memory makes her its subject."""
    turns = [
        {"speaker": "Gina", "content": "I opened my own clothing store last month."},
        {"speaker": "Jon", "content": "Gina, congrats on the store! Maria comes to clean my studio now."},
    ]
    graph.ingest(group_id, turns, session_id="s1", reference_time=JUNE)
    graph.ingest(
        group_id,
        [{"speaker": "Jon", "content": "Gina, thanks for the advice."}],
        session_id="s2",
        reference_time=NOVEMBER,
    )
    found = facts(graph, group_id)
    assert any(s == "Maria" for s, _, _ in found)
    assert not any(s == "Gina" and ("congrat" in t or "thank" in t) for s, t, _ in found), found


def test_a_habit_is_a_fact_with_how_often_and_no_date_in_both_languages(graph, group_id):
    say(graph, group_id, ["I go swimming every Saturday.", "我每天早上跑步。"], when=NOVEMBER)
    rows = graph.store.run_text(
        "MATCH (m:Memory {group_id: $g}) RETURN m.text AS text, m.memory_type AS type, m.occurred_at AS at",
        g=group_id,
    )
    habits = {r["text"]: (r["type"], r["at"]) for r in rows}
    assert habits == {
        "I go swimming (how often: every Saturday)": ("FACT", None),
        "我 跑步 (频率: 每天早上)": ("FACT", None),
    }
    found = graph.search_memories(group_id, "How often do I go swimming?", reference_time=NOVEMBER).results
    assert found[0].text == "I go swimming (how often: every Saturday)"


def test_since_when_someone_has_been_at_a_new_employer_supersedes_the_old_one_in_both_languages(graph, group_id):
    """ "I've been at Globex since September" / 我从九月起在华为上班: where they work now, since then."""
    en, zh = group_id, f"{group_id}-zh"
    _then(graph, en, ["I work at Initech."], ["I've been at Globex since September."])
    _then(graph, zh, ["我在腾讯上班。"], ["我从九月起在华为上班。"])
    assert _conflicts(graph, en) == {("I work at Initech", "I work at Globex")}
    assert _conflicts(graph, zh) == {("我 工作于 腾讯", "我 工作于 华为")}
    assert "I work at Globex (since: 2025-09)" in current(graph, en)
    assert any(text.startswith("我 工作于 华为 (起始: ") for text in current(graph, zh))


def test_what_a_speaker_did_said_in_the_past_is_found_by_what_they_did(graph, group_id):
    """ "I took a poetry class to help me put my feelings into words" is an event of Maria's, and a
    question about the classes she took finds it (and through it her turn) first."""
    turns = [
        {"speaker": "Maria", "content": "Hey John! I took a poetry class to help me put my feelings into words."},
        {"speaker": "John", "content": "That sounds great, Maria! I went to a homeless shelter to give out food."},
        {"speaker": "Maria", "content": "You're so kind. The weather has been lovely this week."},
    ]
    report = graph.ingest(group_id, turns, session_id="s1", reference_time=JUNE)
    assert facts(graph, group_id) == {
        ("Maria", "took", "a poetry class to help Maria put Maria's feelings into words"),
        ("John", "went", "to a homeless shelter to give out food"),
    }
    top = graph.search_memories(group_id, "What class did Maria take?", reference_time=NOVEMBER).results[0]
    assert top.kind == "memory" and top.text.startswith("Maria took a poetry class")
    assert [e.id for e in top.evidence] == [report.episodes[0]]


def test_a_deed_done_to_someone_named_is_among_what_is_known_of_them(graph, group_id):
    """ "I sold my old fridge to a woman called Brenda": the deed's object is Brenda's node, so it is
    part of everything known about her, beside what a later session says she does."""
    say(graph, group_id, ["I sold my old fridge to a woman called Brenda on Facebook Marketplace."], when=JUNE)
    say(
        graph,
        group_id,
        ["Brenda runs a breakfast café.", "Keith runs a bike repair shop."],
        session="s2",
        when=NOVEMBER,
    )
    rows = graph.store.run_text(
        "MATCH (m:Memory {group_id: $g})-[:HAS_OBJECT]->(o:Object {group_id: $g, name: 'Brenda'}) RETURN m.text AS text",
        g=group_id,
    )
    assert "I sold my old fridge to Brenda (place: Facebook Marketplace)" in {r["text"] for r in rows}
    found = graph.search_memories(group_id, "What do you know about Brenda?", reference_time=NOVEMBER).results
    texts = [r.text for r in found[:5]]
    assert "I sold my old fridge to Brenda (place: Facebook Marketplace)" in texts
    assert "Brenda runs a breakfast café" in texts


def test_a_change_said_after_its_time_or_with_no_time_supersedes_the_old_fact(graph, group_id):
    """ "Last month, I moved to Seattle" (the time first, then a comma) and 我开始在字节跳动上班了 (no
    time at all) each gave nothing, so the old home and the old employer stayed current."""
    en, zh = group_id, f"{group_id}-zh"
    _then(graph, en, ["I live in Boston."], ["Last month, I moved to Seattle."])
    _then(graph, zh, ["我在阿里巴巴工作。"], ["我开始在字节跳动上班了。"])
    assert _conflicts(graph, en) == {("I live in Boston", "I moved to Seattle")}
    assert _conflicts(graph, zh) == {("我 工作于 阿里巴巴", "我 入职 字节跳动")}
    assert not any("Boston" in text for text in current(graph, en))


def test_a_move_said_without_wo_supersedes_the_old_home(graph, group_id):
    """上个月搬到上海了 leaves 我 unsaid, as Chinese chat does: the speaker's move all the same."""
    _then(graph, group_id, ["我住在北京。"], ["上个月搬到上海了。"])
    assert _conflicts(graph, group_id) == {("我 住在 北京", "我 搬到 上海")}


def test_a_home_before_is_a_fact_of_the_past_and_the_home_now_stays_current(graph, group_id):
    """ "I used to live in Glasgow" / 以前住在西安 / 在厦门住过三年 (a span that ended) say where someone
    lived: a fact of the past that supersedes nothing, said after the home now; 住苏州 (住 with no 在)
    is the home now."""
    en, zh = group_id, f"{group_id}-zh"
    _then(graph, en, ["I live in Leeds."], ["I used to live in Glasgow.", "I lived in Dublin for six years."])
    _then(graph, zh, ["我住苏州。"], ["我以前住在西安。", "我在厦门住过三年。", "我在酒店住了两天。"])
    assert _conflicts(graph, en) == set() and _conflicts(graph, zh) == set()
    assert {"I live in Leeds", "I lived in Glasgow", "I lived in Dublin (duration: six years)"} <= current(graph, en)
    assert {"我 住在 苏州", "我 曾住在 西安", "我 曾住在 厦门 (时长: 三年)"} <= current(graph, zh)
    assert not any("酒店" in t for t in current(graph, zh))  # a stay is no home
    assert graph.search_memories(zh, "我现在住哪？", reference_time=NOVEMBER, max_results=1).results[0].text == (
        "我 住在 苏州"
    )


def test_whom_someone_married_is_their_spouse_and_a_later_pronoun_means_them(graph, group_id):
    zh, en = group_id, f"{group_id}-en"
    say(graph, en, ["I'm married to Devon.", "He teaches history at a middle school.", "I play the cello."])
    say(graph, zh, ["我跟陈涛结婚了。", "他在一所中学教物理。", "我会拉小提琴。"])
    assert {
        ("I", "spouse", "Devon"),
        ("Devon", "teaches", "history"),
        ("Devon", "works at", "middle school"),
        ("I", "play", "cello"),
    } <= facts(graph, en)
    assert {
        ("我", "配偶", "陈涛"),
        ("陈涛", "教", "物理"),
        ("陈涛", "工作于", "中学"),
        ("我", "会拉", "小提琴"),
    } <= facts(graph, zh)
    # a later session: "my spouse" / 我配偶 is the person named
    say(graph, en, ["My spouse just started at Globex."], session="s2", when=NOVEMBER)
    assert ("Devon", "joined", "Globex") in facts(graph, en)


def test_a_list_after_a_liking_is_kept_whole(graph, group_id):
    say(graph, group_id, ["I'm really into climbing, kayaking and trail running.", "我喜欢爬山、游泳和跑步。"])
    found = facts(graph, group_id)
    assert ("I", "is into", "climbing, kayaking and trail running") in found or (
        "I",
        "am into",
        "climbing, kayaking and trail running",
    ) in found
    assert ("我", "喜欢", "爬山、游泳和跑步") in found


def test_chinese_things_had_in_a_list_are_kept_whole_as_english_ones_are(graph, group_id):
    # 我养了一只猫和一只狗 kept 猫 and lost the dog; the English line kept both
    say(graph, group_id, ["我养了一只猫和一只狗。", "我买了一台电脑、一个键盘和一个鼠标。", "I have a cat and a dog."])
    found = facts(graph, group_id)
    assert ("我", "养了", "猫和狗") in found
    assert ("我", "买了", "电脑、键盘和鼠标") in found
    assert ("I", "have", "a cat and a dog") in found


def test_a_sibling_had_by_name_and_a_friend_since_college_are_people_a_later_role_means(graph, group_id):
    zh, en = group_id, f"{group_id}-en"
    say(graph, en, ["I have a younger brother named Leo.", "Jess and I have been friends since college."])
    say(graph, zh, ["我有个弟弟叫小乐。", "我跟小静是大学同学。"])
    assert {("I", "brother", "Leo"), ("I", "friend", "Jess")} <= facts(graph, en)
    assert {("我", "弟弟", "小乐"), ("我", "同学", "小静")} <= facts(graph, zh)
    assert not any(t in ("acquaintance", "熟人") for _, t, _ in facts(graph, en) | facts(graph, zh))
    say(graph, en, ["My brother just moved to Denver."], session="s2", when=NOVEMBER)
    say(graph, zh, ["我弟弟上个月搬到成都了。"], session="s2", when=NOVEMBER)
    assert ("Leo", "moved to", "Denver") in facts(graph, en)
    assert ("小乐", "搬到", "成都") in facts(graph, zh)


def test_a_business_someone_runs_is_where_they_work_until_they_retire(graph, group_id):
    zh, en = group_id, f"{group_id}-en"
    _then(
        graph, en, ["I run a small bakery on Elm Street.", "I smoke a lot."], ["I'm retired.", "I don't smoke anymore."]
    )
    _then(graph, zh, ["我开了一家面包店。"], ["我退休了。"])
    assert ("I run a small bakery", "I quit") in _conflicts(graph, en)  # retiring ends the work there
    assert _conflicts(graph, zh) == {("我 开了 面包店", "我 辞职")}
    assert ("I", "stopped", "smoking") in facts(graph, en)


def test_started_working_somewhere_or_working_remotely_for_someone_is_the_employer_now(graph, group_id):
    en, other = group_id, f"{group_id}-b"
    _then(graph, en, ["I work at Acme."], ["I've started working at a bakery."])
    _then(graph, other, ["I work at Initech."], ["I'm now working remotely for Spotify."])
    assert _conflicts(graph, en) == {("I work at Acme", "I joined a bakery")}
    assert _conflicts(graph, other) == {("I work at Initech", "I work at Spotify")}
