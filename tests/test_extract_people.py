"""What everyday talk about other people becomes, read back from a real Neo4j: each session ingested
on its own, the later ones naming the person by pronoun, by a role with a modifier, by what they
were said to be, or through their relatives and things — the memories have that person as their
subject, so what is known of them gathers around one node. In Chinese and English."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

TZ = timezone(timedelta(hours=8))
FIRST = datetime(2025, 9, 1, 9, 0, tzinfo=TZ)


def sessions(graph, group_id, lines):
    """Each line a conversation of its own, a week after the one before."""
    for i, line in enumerate(lines):
        graph.ingest(
            group_id,
            [{"role": "user", "content": line}],
            session_id=f"s{i}",
            reference_time=FIRST + timedelta(days=7 * i),
        )


def memories(graph, group_id) -> list[tuple]:
    rows = graph.store.run_text(
        "MATCH (m:Memory {group_id: $g}) RETURN m.subject_name AS s, m.topic_name AS t, m.object_name AS o, "
        "m.slot AS slot",
        g=group_id,
    )
    return [(r["s"], r["t"], r["o"], r["slot"]) for r in rows]


def about(graph, group_id, name) -> list[str]:
    """What the memories whose subject is ``name`` say (topic and object)."""
    return [" ".join(x for x in (t, o) if x) for s, t, o, _ in memories(graph, group_id) if s == name]


def test_english_facts_about_a_person_gather_on_them_across_sessions(graph, group_id):
    sessions(
        graph,
        group_id,
        [
            "Our neighbour Mr Alvarez is a retired bus driver.",
            "He grows chillies on his balcony.",
            "The retired driver upstairs slipped on the stairs last week.",
            "His granddaughter just started at Durham.",
            "Mr Alvarez's wife sings in a choir.",
            "She's taken up watercolours.",
        ],
    )
    said = about(graph, group_id, "Mr Alvarez")
    for words in ["is a retired bus driver", "grows chillies", "slipped", "granddaughter", "wife sings"]:
        assert any(words in x for x in said), (words, said)
    # "she" is nobody named here: Mr Alvarez is a man, and his wife has no name
    assert not any("watercolours" in x for x in said)
    # his granddaughter's school is not his: no slot of his is set by it
    assert all(slot is None for s, t, _, slot in memories(graph, group_id) if t.startswith("granddaughter"))


def test_chinese_facts_about_a_person_gather_on_them_across_sessions(graph, group_id):
    sessions(
        graph,
        group_id,
        [
            "我的房东老郑是退休的出租车司机。",
            "他每天下午在小区里下象棋。",
            "那位退休司机上个月做了膝盖手术。",
            "他外孙刚考上浙大。",
            "老郑的老伴喜欢种月季。",
        ],
    )
    said = about(graph, group_id, "老郑")
    for words in ["退休的出租车司机", "下象棋", "膝盖手术", "孙子考上 浙大", "老伴喜欢"]:
        assert any(words in x for x in said), (words, said)
    assert all(slot is None for s, t, _, slot in memories(graph, group_id) if t.startswith("孙子"))


def test_a_role_with_a_modifier_means_the_person_known_in_that_role(graph, group_id):
    sessions(
        graph,
        group_id,
        [
            "My coworker Femi is from Lagos.",
            "My Nigerian coworker got promoted on Monday.",
            "我的同事阿雅是东北人。",
            "那个东北同事上周去了青岛出差。",
        ],
    )
    assert any("promoted" in x for x in about(graph, group_id, "Femi"))
    assert any("青岛" in x for x in about(graph, group_id, "阿雅"))


def test_a_pronoun_means_the_last_person_it_fits(graph, group_id):
    sessions(
        graph,
        group_id,
        [
            "My uncle Bernard and my cousin Lottie came to stay.",
            "She is learning the harp.",
            "He does crosswords every morning.",
            "我表哥大海是厨师，我表妹小溪是护士。",
            "他每天早上去游泳。",
            "她最近迷上了攀岩。",
        ],
    )
    assert any("harp" in x for x in about(graph, group_id, "Lottie"))
    assert any("crosswords" in x for x in about(graph, group_id, "Bernard"))
    assert any("游泳" in x for x in about(graph, group_id, "大海"))
    assert any("攀岩" in x for x in about(graph, group_id, "小溪"))
    assert not any(
        "harp" in x or "攀岩" in x for x in about(graph, group_id, "Bernard") + about(graph, group_id, "大海")
    )


def test_a_pronoun_means_whom_the_conversation_spoke_of_not_a_tool_call(graph, group_id):
    """An agent's tool call about another person between two sessions does not take over the next
    session's 她 / "she": that means the person the conversation named last."""
    sessions(graph, group_id, ["我的同事Ruth是爱尔兰人。", "My colleague Mia is from Oslo."])
    between = (FIRST + timedelta(days=10)).isoformat()
    graph.create_memory(group_id, "我", "关系", "朋友", "小陈", reference_time=between)
    graph.create_memory(group_id, "I", "RELATION", "friend", "Priya", reference_time=between)
    graph.ingest(
        group_id,
        [{"role": "user", "content": "她最近在学陶艺。"}],
        session_id="s2",
        reference_time=FIRST + timedelta(days=14),
    )
    assert any("陶艺" in x for x in about(graph, group_id, "Ruth") + about(graph, group_id, "Mia"))
    assert not any("陶艺" in x for x in about(graph, group_id, "小陈") + about(graph, group_id, "Priya"))
    # the people an agent wrote about are still known by their role
    graph.ingest(
        group_id,
        [{"role": "user", "content": "我朋友下周要去爬山。"}],
        session_id="s3",
        reference_time=FIRST + timedelta(days=21),
    )
    assert any("爬山" in x for x in about(graph, group_id, "小陈"))


def test_a_role_said_bare_or_by_another_word_means_the_person_known_in_it(graph, group_id):
    """房东上周来修了热水器 after 我的房东是老马 is about 老马; 那个牙医 after 我的牙医是陈医生 about
    陈医生; 那个新同事 after 新来的同事Mia是做数据分析的 about Mia; "my boss" after "my new manager
    is called Linda" about Linda (boss, manager and supervisor are one role, as 老板, 上司 and 领导 are)."""
    sessions(
        graph,
        group_id,
        [
            "我的房东是老马。",
            "我的牙医是陈医生。",
            "My new manager is called Linda.",
            "新来的同事Mia是做数据分析的。",
            "房东上周来修了热水器。",
            "那个牙医周三不上班。",
            "那个新同事特别擅长做可视化。",
            "My boss holds a retro every Friday.",
        ],
    )
    assert any("热水器" in x for x in about(graph, group_id, "老马"))
    assert any("不上班" in x for x in about(graph, group_id, "陈医生"))
    assert any("retro" in x for x in about(graph, group_id, "Linda"))
    assert any("可视化" in x for x in about(graph, group_id, "Mia"))


def test_someone_introduced_by_role_and_name_is_known_later(graph, group_id):
    sessions(
        graph,
        group_id,
        [
            "At the pottery class I met a vet called Ingrid.",
            "Ingrid is moving to Bergen next month.",
            "我前天在咖啡馆认识了一个叫阿木的摄影师。",
            "阿木下个月要去新疆拍星空。",
        ],
    )
    found = memories(graph, group_id)
    assert ("Ingrid", "is a", "vet", None) in found
    assert ("阿木", "是", "摄影师", None) in found
    assert any("Bergen" in x for x in about(graph, group_id, "Ingrid"))
    assert any("新疆" in x for x in about(graph, group_id, "阿木"))
    # the place met at stays with the meeting, and the phrase "a vet called Ingrid" is no one's object
    assert not any(o and "called" in o for _, _, o, _ in found)


def test_a_pet_called_something_is_a_possession_not_a_person(graph, group_id):
    sessions(graph, group_id, ["My sister Mona is a chemist.", "She has a tortoise called Biscuit."])
    found = memories(graph, group_id)
    assert not any(s == "Biscuit" for s, *_ in found)
    assert any("tortoise" in x for x in about(graph, group_id, "Mona"))


def test_a_pet_breed_is_kept_whole_in_chinese(graph, group_id):
    sessions(graph, group_id, ["我舅舅大勇是兽医。", "他养了一条灵缇。"])
    assert ("大勇", "养了", "灵缇", None) in memories(graph, group_id)


def test_someone_described_and_named_or_called_by_title_is_a_subject(graph, group_id):
    sessions(
        graph,
        group_id,
        [
            "隔壁新开的理发店的老板叫阿辉。",
            "阿辉每天早上沿着江边跑步。",
            "我把旧沙发送给了刘阿姨。",
            "刘阿姨在社区医院上班。",
            "Dr Nakamura runs the clinic near the station.",
        ],
    )
    found = memories(graph, group_id)
    assert ("我", "熟人", "阿辉", None) in found
    assert any("理发店的老板" in x for x in about(graph, group_id, "阿辉"))
    assert any("跑步" in x for x in about(graph, group_id, "阿辉"))
    assert ("刘阿姨", "工作于", "社区医院", "employer") in found
    assert any("clinic" in x for x in about(graph, group_id, "Dr Nakamura"))


def test_two_named_speakers_daughters_are_two_people(graph, group_id):
    """In a conversation between named speakers, each one's "my daughter" / 我女儿 is theirs: two
    subjects (Ivy's daughter, Tom's daughter), not one node both speakers' facts gather on; a later
    session's pronoun still finds the one spoken of last."""
    zh, en = group_id, f"{group_id}-en"
    for group, turns in (
        (en, [("Ivy", "My daughter plays the violin."), ("Tom", "My daughter started school last week!")]),
        (zh, [("小王", "我女儿在学小提琴。"), ("小李", "我女儿上周开始上学了。")]),
    ):
        graph.ingest(
            group,
            [{"role": "user", "speaker": who, "content": said} for who, said in turns],
            session_id="s1",
            reference_time=FIRST,
        )
    assert any("violin" in x for x in about(graph, en, "Ivy's daughter"))
    assert any("started" in x for x in about(graph, en, "Tom's daughter"))
    assert not any("violin" in x for x in about(graph, en, "Tom's daughter"))
    assert any("小提琴" in x for x in about(graph, zh, "小王的女儿"))
    assert any("上学" in x for x in about(graph, zh, "小李的女儿"))
    assert not [m for m in memories(graph, en) + memories(graph, zh) if m[0] in ("my daughter", "我女儿")]
    graph.ingest(
        en,
        [{"role": "user", "speaker": "Tom", "content": "She loves her new teacher."}],
        session_id="s2",
        reference_time=FIRST + timedelta(days=7),
    )
    graph.ingest(
        zh,
        [{"role": "user", "speaker": "小李", "content": "她很喜欢新老师。"}],
        session_id="s2",
        reference_time=FIRST + timedelta(days=7),
    )
    assert any("teacher" in x for x in about(graph, en, "Tom's daughter"))
    assert any("老师" in x for x in about(graph, zh, "小李的女儿"))


def test_a_relative_named_after_whose_they_are_is_theirs_and_gathers_what_is_said_of_them(graph, group_id):
    # "Her husband Mark is a pilot" gave "Ruth · husband marks · is a pilot"; 小琳的儿子乐乐 was read
    # as the speaker's own son
    sessions(
        graph,
        group_id,
        [
            "My cousin Ruth lives in Leeds.",
            "Her husband Mark is a pilot.",
            "Ruth's son Leo just started college.",
            "我表姐小琳住在杭州。",
            "她老公阿强是飞行员。",
            "小琳的儿子乐乐刚上大学。",
        ],
    )
    found = memories(graph, group_id)
    relations = {(s, t, o) for s, t, o, _ in found if o in ("Mark", "Leo", "阿强", "乐乐")}
    assert relations == {
        ("Ruth", "husband", "Mark"),
        ("Ruth", "son", "Leo"),
        ("小琳", "丈夫", "阿强"),
        ("小琳", "儿子", "乐乐"),
    }
    assert any("pilot" in x for x in about(graph, group_id, "Mark"))
    assert any("飞行员" in x for x in about(graph, group_id, "阿强"))
    assert any("college" in x for x in about(graph, group_id, "Leo"))
    assert any("大学" in x for x in about(graph, group_id, "乐乐"))


def test_a_relative_said_along_with_someone_is_theirs_and_a_later_he_means_him(graph, group_id):
    # "My cousin Ruth and her husband Mark came over" learnt Ruth only (Mark and "he" were lost);
    # 小雯和她老公阿强来我家吃饭了 gave 小雯 the topic "和她老公阿强来我家吃饭"
    sessions(
        graph,
        group_id,
        [
            "My cousin Ruth and her husband Mark came over for dinner.",
            "He is a pilot.",
            "我表姐小雯和她老公阿强来我家吃饭了。",
            "他是飞行员。",
            "Tom and his girlfriend broke up last week.",
        ],
    )
    found = memories(graph, group_id)
    relations = {(s, t, o) for s, t, o, _ in found if o in ("Ruth", "Mark", "小雯", "阿强")}
    assert relations == {
        ("I", "cousin", "Ruth"),
        ("Ruth", "husband", "Mark"),
        ("我", "表姐", "小雯"),
        ("小雯", "丈夫", "阿强"),
    }
    assert any("dinner" in x for x in about(graph, group_id, "Ruth"))
    assert any(x.startswith("来我家吃饭") for x in about(graph, group_id, "小雯"))
    assert any("pilot" in x for x in about(graph, group_id, "Mark"))
    assert any("飞行员" in x for x in about(graph, group_id, "阿强"))
    # whom a breakup was with is not someone who came along: no girlfriend learnt as Tom's
    assert not any(t == "girlfriend" for _, t, _, _ in found)


def test_they_after_people_spoken_of_together_means_them_and_not_things_or_others(graph, group_id):
    # "They brought a huge cake" and 他们带了很多菜 gave nothing; "my kids" took "loves"
    sessions(
        graph,
        group_id,
        [
            "My parents came over last weekend. They brought a huge cake.",
            "我爸妈上周来了。他们带了很多菜。",
            "My kids love dinosaurs. They want to visit the museum.",
            "I bought new shoes. They are really comfy.",
        ],
    )
    assert any("cake" in x for x in about(graph, group_id, "my parents"))
    assert any("带了很多菜" in x for x in about(graph, group_id, "我爸妈"))
    assert set(about(graph, group_id, "my children")) == {"love dinosaurs", "want to visit the museum"}
    # the shoes are no one's "they": nothing is said of the speaker's parents or kids in that session
    assert not any("comfy" in " ".join(str(x) for x in m) for m in memories(graph, group_id))


def test_a_she_or_a_he_is_never_people_spoken_of_together(graph, group_id):
    # "She is really into fashion" after "my parents" made the parents into fashion (and 她 after 我爸妈, 我爸妈
    # into climbing): people spoken of together are a "they", never a she or a he
    sessions(
        graph,
        group_id,
        [
            "My parents came over for dinner last night. She is really into fashion.",
            "My sister came over. My parents came too. She is really into fashion.",
            "我爸妈昨天来了。她最近迷上了攀岩。",
        ],
    )
    assert not any("fashion" in x for x in about(graph, group_id, "my parents"))
    assert not any("攀岩" in x for x in about(graph, group_id, "我爸妈"))
    assert any("fashion" in x for x in about(graph, group_id, "my sister"))


def test_someone_named_before_said_to_be_the_speakers_is_theirs_in_that_role(graph, group_id):
    # "He is my college roommate" and 他是我大学室友 gave nothing
    sessions(graph, group_id, ["My best friend Tom is getting married next month. He is my college roommate."])
    sessions(graph, f"{group_id}-zh", ["我最好的朋友小李下个月结婚。他是我大学室友。"])
    assert ("I", "roommate", "Tom") in {(s, t, o) for s, t, o, _ in memories(graph, group_id)}
    assert ("我", "室友", "小李") in {(s, t, o) for s, t, o, _ in memories(graph, f"{group_id}-zh")}


def test_in_laws_and_a_child_with_a_doubled_name_are_people_a_later_pronoun_means(graph, group_id):
    # 我婆婆 was no role (the visit was the speaker's, "婆婆要来我们家住"), 我女儿叫朵朵 gave no name
    # (朵朵 is tagged a measure word), "my mother-in-law" was no one a "she" could mean
    sessions(
        graph,
        group_id,
        [
            "我婆婆下个月要来我们家住。她不太喜欢城市生活。",
            "我女儿叫朵朵。她特别喜欢画画。",
            "My mother-in-law is visiting. She hates the city.",
        ],
    )
    assert any("城市生活" in x for x in about(graph, group_id, "我婆婆"))
    assert ("我", "女儿", "朵朵") in {(s, t, o) for s, t, o, _ in memories(graph, group_id)}
    assert any("画画" in x for x in about(graph, group_id, "朵朵"))
    assert any("city" in x for x in about(graph, group_id, "my mother-in-law"))


def subject_nodes(graph, group_id) -> dict[str, str]:
    """Each memory's object (or topic) → the id of the node it is about (its :Subject)."""
    rows = graph.store.run_text(
        "MATCH (m:Memory {group_id: $g})-[:HAS_SUBJECT]->(s) RETURN coalesce(m.object_name, m.topic_name) AS what, "
        "s.id AS node",
        g=group_id,
    )
    return {r["what"]: r["node"] for r in rows}


def test_a_role_said_bare_with_what_a_person_has_is_the_speakers_one_person(graph, group_id):
    # 下属的老家是成都 said no 我: it was a subject of its own (下属的老家 是 成都), not the subordinate
    # whose e-mail and education the other notes give, as 我下属 / 我的下属
    sessions(
        graph,
        group_id,
        ["下属的老家是成都。", "我下属的邮箱是liu@abc.com。", "我的下属的学历是硕士。"],
    )
    of = subject_nodes(graph, group_id)
    assert {"成都", "liu@abc.com", "硕士"} <= set(of), of
    assert len({of["成都"], of["liu@abc.com"], of["硕士"]}) == 1, of
    assert ("我下属", "老家是", "成都") in {(s, t, o) for s, t, o, _ in memories(graph, group_id)}


def test_someones_email_and_phone_number_are_read_as_the_speakers_own_are(graph, group_id):
    # 我表哥的邮箱地址是… was a clause kept whole (邮箱地址是 | li_ming1108@westlakesales.co, cut at 30
    # characters), 电话号码是13225162475 a topic with no value, and "my cousin's phone number is …"
    # nothing; and the cousin's birthday (read by its reading, 0.7) outweighed all else said of them.
    # Now someone's e-mail and number are read as the speaker's own are (the reading's word, the whole
    # value), and what they have weighs as any fact about them: the speaker's own keep their weight
    lines = {
        "zh": [
            "我表哥的生日是11月8号。",
            "我表哥的邮箱地址是li_ming1108@westlakesales.com。",
            "我表弟电话号码是13225162475。",
            "我叔叔的电话号是15398950313。",
            "李婷婷的邮箱地址是litingting0623@pdxzyz.com。",
        ],
        "en": [
            "My coworker's email is sam.long.name@arupgroupengineering.com.",
            "My cousin's phone number is 07700 900123.",
            "My email is me@example.com.",
        ],
    }
    for lang, said in lines.items():
        sessions(graph, f"{group_id}-{lang}", said)
    rows = graph.store.run_text(
        "MATCH (m:Memory) WHERE m.group_id STARTS WITH $g "
        "RETURN m.subject_name AS s, m.topic_name AS t, m.object_name AS o, m.importance AS i",
        g=group_id,
    )
    got = {(r["s"], r["t"], r["o"]): r["i"] for r in rows}
    assert got[("我表哥", "邮箱地址", "li_ming1108@westlakesales.com")] == got[("我表哥", "生日", "11月8号")], got
    assert (
        got[("I", "email", "me@example.com")] > got[("my colleague", "email", "sam.long.name@arupgroupengineering.com")]
    )
    assert ("我表弟", "电话号码", "13225162475") in got, got
    assert ("我叔叔", "电话号", "15398950313") in got, got
    # a person named the first time by what they have is a person (李婷婷, not 李婷婷的邮箱地址)
    assert ("李婷婷", "邮箱地址", "litingting0623@pdxzyz.com") in got, got
    assert ("my colleague", "email", "sam.long.name@arupgroupengineering.com") in got, got
    assert ("my cousin", "phone number", "07700 900123") in got, got


def test_someones_birthday_and_e_mail_address_said_by_role_are_theirs(graph, group_id):
    # "my cousin's birthday is May 3" gave nothing (the date was read as the clause's time, leaving "is"),
    # nor did "e-mail address" (not a word of the e-mail reading); each is now the role's person's, as their
    # e-mail and phone number were, what they do and who their husband is on the same people
    sessions(
        graph,
        group_id,
        [
            "My manager's email is ann.lee@acme.com",
            "my cousin's birthday is May 3",
            "My colleague's e-mail address is priya.n@arup.com.",
            "my manager's phone number is 07700 900123.",
            "my cousin works as a nurse",
            "My manager's birthday is on December 10.",
            # two of hers in one sentence: "email is | a@b.com and her phone number is …" was one memory
            "My sister's email is sis@b.com and her phone number is 07700 900456.",
        ],
    )
    rows = graph.store.run_text(
        "MATCH (m:Memory {group_id: $g})-[:HAS_SUBJECT]->(s) "
        "RETURN s.name AS s, m.topic_name AS t, m.object_name AS o, s.id AS node",
        g=group_id,
    )
    node = {(r["s"], r["t"], r["o"]): r["node"] for r in rows}
    assert ("my cousin", "birthday", "May 3") in node, node
    assert ("my boss", "birthday", "December 10") in node, node
    assert ("my colleague", "email", "priya.n@arup.com") in node, node
    assert {("my sister", "email", "sis@b.com"), ("my sister", "phone number", "07700 900456")} <= set(node), node
    cousin = {node[("my cousin", "birthday", "May 3")], node[("my cousin", "works as", "nurse")]}
    manager = {node[("my boss", t, o)] for t, o in [("email", "ann.lee@acme.com"), ("birthday", "December 10")]}
    assert len(cousin) == 1 and len(manager) == 1 and cousin != manager, node


NAMED_LATER = {
    "zh": (
        [
            "我的上司只有高中学历。",
            "我的上司的邮箱地址是zhao@szfc.com。",
            "我的上司名叫赵雅琳。",
            "我的上司在深圳上班。",
        ],
        "赵雅琳",
        "我上司的学历是什么？",
    ),
    # 我表姐的名字叫张丽娟 was an acquaintance (我 | 熟人 | 张丽娟) described as "我表姐的名字"
    "zh-名字": (
        ["我表姐的邮箱是zhang@abc.com。", "我表姐的名字叫张丽娟。", "她在杭州工作。"],
        "张丽娟",
        "我表姐的邮箱是什么？",
    ),
    "en": (
        [
            "My coworker's email is sam@arup.com.",
            "My co-worker is from Leeds.",
            "My coworker's name is Sam.",
            "She works at Arup.",
        ],
        "Sam",
        "What is my colleague's email?",
    ),
    # "Her name is Priya" said of the colleague met by role alone was a fact of "my colleague" (name is |
    # Priya), and "Priya works as …" a second person
    "en-her-name": (
        ["My colleague lives in Leeds.", "Her name is Priya.", "Priya works as an architect.", "She is from York."],
        "Priya",
        "Where does my colleague live?",
    ),
}


@pytest.mark.parametrize("lang", list(NAMED_LATER))
def test_a_role_named_later_is_one_node_from_the_write_that_names_them(graph, group_id, lang):
    # the notes before the name were the role's node (我上司, my colleague), the ones after it the name's:
    # two nodes until a consolidation joined them
    lines, name, question = NAMED_LATER[lang]
    sessions(graph, group_id, lines)
    rows = graph.store.run_text(
        "MATCH (m:Memory {group_id: $g})-[:HAS_SUBJECT]->(s) WHERE s.kind IS NULL RETURN s.id AS node, s.name AS name "
        "UNION MATCH (m:Memory {group_id: $g, memory_type: 'RELATION'})-[:HAS_OBJECT]->(p) RETURN p.id AS node, "
        "p.name AS name",
        g=group_id,
    )
    assert {(r["node"], r["name"]) for r in rows} == {(rows[0]["node"], name)}, rows
    # a question that says the role finds the person's memories through them
    found = graph.search_memories(group_id, question, mode="deep")
    assert any(name in line for line in found.plan.why), found.plan.why


def test_a_role_written_unnamed_after_its_one_person_was_named_is_that_person(graph, group_id):
    # through the API, in either order: the relation first, then a fact of 我上司 (a new node until a
    # consolidation), or the fact first, then the relation
    graph.create_memory(group_id, "我", "关系", "上司", "赵雅琳")
    graph.create_memory(group_id, "我上司", "事实", "学历是", "高中")
    graph.create_memory(group_id, "my colleague", "FACT", "email is", "sam@arup.com")
    graph.create_memory(group_id, "I", "RELATION", "colleague", "Sam")
    rows = graph.store.run_text(
        "MATCH (m:Memory {group_id: $g}) OPTIONAL MATCH (m)-[:HAS_SUBJECT]->(s) WHERE s.kind IS NULL "
        "OPTIONAL MATCH (m)-[:HAS_OBJECT]->(o) WHERE m.memory_type = 'RELATION' "
        "RETURN coalesce(s.name, o.name) AS name, count(DISTINCT coalesce(s, o)) AS nodes",
        g=group_id,
    )
    assert {r["name"] for r in rows} == {"赵雅琳", "Sam"}, rows


def test_a_role_named_by_its_name_keeps_the_name_said_and_a_doubled_de_is_no_name(graph, group_id):
    # the naming is a relation (one node) and what it says (名字叫: a question asks for a name in those
    # words); 我妈妈的的名字… named the mother 的的, and every later fact of hers was 的的's (then refused)
    sessions(graph, group_id, ["我的同事名字叫张雅静。", "我妈妈的的名字叫李晓燕。", "我妈妈的单位叫上海育才中学。"])
    got = {(s, t, o) for s, t, o, _ in memories(graph, group_id)}
    assert {("我", "同事", "张雅静"), ("张雅静", "名字叫", "张雅静"), ("我", "妈妈", "李晓燕")} <= got, got
    assert ("李晓燕", "单位叫", "上海育才中学") in got, got
