"""`graphmem add / link / show` as a user runs them: in this process, as `main()`
runs them, against the real server."""

from __future__ import annotations

import json

import pytest

pytestmark = pytest.mark.real_models  # real models: `link` finds its two memories by their descriptions

REF = "2025-11-05T10:00:00+08:00"


def test_add_link_show(cli, group_id):
    added = cli(
        "add",
        "-g",
        group_id,
        "--subject",
        "我",
        "--type",
        "事件",
        "--topic",
        "失眠",
        "--attr",
        "时间=昨晚",
        "--attr",
        "地点=家里",
        "--importance",
        "0.6",
        "--time-ref",
        REF,
    )
    assert "saved memory" in added.stdout and "昨晚 → 2025-11-04, night" in added.stdout
    assert "the user (new node)" in added.stdout

    batch = json.dumps(
        [
            {
                "subject": "I",
                "memory_type": "fact",
                "topic": "physical state",
                "object": "very sleepy",
                "attributes": {"time": "today"},
            },
            {"subject": "我", "memory_type": "事实", "topic": "工作状态", "object": "没心情"},
        ],
        ensure_ascii=False,
    )
    listed = json.loads(
        cli("add", "-g", group_id, "--json", "-", "--json-output", "--time-ref", REF, stdin=batch).stdout
    )
    assert [r["text"] for r in listed] == ["I physical state very sleepy (time: 2025-11-05)", "我 工作状态 没心情"]
    assert all(r["concepts"][0]["reason"] == "user" for r in listed)  # the same user subject as 我 above
    sleepy_id = listed[0]["memory_id"]

    linked = cli("link", "-g", group_id, "我失眠", "very sleepy", "导致", "--importance", "0.8")
    assert "CAUSALITY 导致/causes" in linked.stdout and "cause → effect" in linked.stdout

    shown = cli("show", "-g", group_id, sleepy_id).stdout
    assert "I -[FACT]-> physical state -[CORE_RELATION]-> very sleepy" in shown.replace("\n", " ").replace(
        "  ", " "
    ) or ("-[FACT]->" in shown and "very sleepy" in shown)
    assert "time: today" in shown and "2025-11-05" in shown
    assert "links in" in shown and "我 失眠" in shown
    record = json.loads(cli("show", "-g", group_id, sleepy_id, "--json").stdout)
    assert record["id"] == sleepy_id and record["memory_type"] == "FACT"
    assert record["links"][0]["direction"] == "in" and record["links"][0]["relation"] == "causes"
    assert record["attribute_details"][0]["original"] == "today"


def test_errors_are_one_line(cli, group_id):
    cases = [
        ("add", "-g", group_id, "--subject", "我", "--type", "心情", "--topic", "x"),  # unknown type
        ("add", "-g", group_id, "--subject", "我", "--topic", "x"),  # missing --type
        ("add", "-g", group_id, "--subject", "我", "--type", "事件", "--topic", "x", "--attr", "no-equals"),
        ("add", "-g", group_id, "--json", "{not json"),
        ("link", "-g", group_id, "a", "b", "因此"),  # unknown relation
        ("show", "-g", group_id, "no-such-memory"),
    ]
    for args in cases:
        proc = cli(*args, ok=False)
        assert proc.returncode == 1, (args, proc.stdout, proc.stderr)
        lines = [line for line in proc.stderr.splitlines() if line.strip()]
        assert len(lines) == 1 and lines[0].startswith("error:"), (args, proc.stderr)
        assert "Traceback" not in proc.stderr
    proc = cli("show", "-g", group_id, "no-such-memory", ok=False)
    assert "no memory 'no-such-memory'" in proc.stderr
