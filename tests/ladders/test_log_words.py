"""Every kind of ladder log line, worded from its stored values in both languages
(`ladders.views.log_text`): the same values give the same words whoever wrote them."""

from __future__ import annotations

import pytest
from django.utils import translation

from ladders.models import LadderLog
from ladders.views import LOG_ACTIONS, log_text

RESCHEDULE = {
    "challenge": 7,
    "old": "2027-02-20",
    "new": "2027-03-01",
    "challenger": "黄岛队",
    "challenger_agrees": "王队长",
    "defender": "张家队",
    "defender_agrees": "李队长",
}

# (action, stored values, zh-hans words, English words): each branch of the wording, and each
# branch's variants (a title or none, a change or none, an old day or none).
LINES = [
    ("created", {"name": "2027 擂台赛"}, "2027 擂台赛", "2027 擂台赛"),
    ("published", {"name": "2027 擂台赛"}, "2027 擂台赛", "2027 擂台赛"),
    ("unpublished", {"name": "2027 擂台赛"}, "2027 擂台赛", "2027 擂台赛"),
    ("renamed", {"old": "旧名", "new": "新名"}, "旧名 → 新名", "旧名 → 新名"),
    ("teams", {"teams": ["甲队", "乙队"]}, "甲队、乙队", "甲队, 乙队"),
    (
        "team",
        {"before": "攻1 / 市南", "after": "攻一 / 市南"},
        "攻1 / 市南 → 攻一 / 市南",
        "攻1 / 市南 → 攻一 / 市南",
    ),
    ("removed", {"team": "错队"}, "错队", "错队"),
    ("removed", {"team": "错队", "slot": ""}, "错队", "错队"),
    ("removed", {"team": "错队", "slot": "vanguard-2"}, "错队 (先锋 2)", "错队 (Vanguard 2)"),
    ("removed", {"team": "错队", "slot": "odd-1"}, "错队 (odd-1)", "错队 (odd-1)"),
    ("withdrawn", {"team": "白沙队"}, "白沙队", "白沙队"),
    ("reinstated", {"team": "白沙队"}, "白沙队", "白沙队"),
    ("title", {"slot": "chief-1", "team": "张家队"}, "主将：张家队", "Chief: 张家队"),
    (
        "seeded",
        {"titles": [["chief-1", "张家队"], ["vice-2", "阿里队"]]},
        "主将：张家队；副将 2：阿里队",
        "Chief: 张家队; Vice 2: 阿里队",
    ),
    ("session", {"n": 3}, "第 3 期开始", "Session 3 opened"),
    ("session-cancelled", {"n": 3}, "第 3 期的抽签已撤销", "The draw of session 3 was taken back"),
    (
        "result",
        {
            "challenge": 7,
            "challenger": "黄岛队",
            "defender": "张家队",
            "games": "10:0 10:0\n2:10 10:3",
        },
        "挑战 #7 黄岛队 – 张家队：10:0 10:0 / 2:10 10:3",
        "Challenge #7 黄岛队 – 张家队: 10:0 10:0 / 2:10 10:3",
    ),
    (
        "no-show",
        {"challenge": 7, "teams": ["黄岛队", "张家队"]},
        "挑战 #7 未到场：黄岛队、张家队",
        "Challenge #7, did not come: 黄岛队, 张家队",
    ),
    (
        "no-show-undone",
        {"challenge": 7, "team": "张家队"},
        "挑战 #7 撤销 张家队 的一次缺席",
        "Challenge #7: one no-show of 张家队 taken back",
    ),
    (
        "rescheduled",
        RESCHEDULE,
        "挑战 #7 改到 2027-03-01（原定 2027-02-20）；黄岛队 同意人：王队长；张家队 同意人：李队长",
        "Challenge #7 moved to 2027-03-01 (was 2027-02-20); agreed for 黄岛队: 王队长; "
        "for 张家队: 李队长",
    ),
    (
        "rescheduled",
        {**RESCHEDULE, "old": ""},
        "挑战 #7 改到 2027-03-01（原定 —）；黄岛队 同意人：王队长；张家队 同意人：李队长",
        "Challenge #7 moved to 2027-03-01 (was —); agreed for 黄岛队: 王队长; for 张家队: 李队长",
    ),
    ("closed", {"n": 2, "changes": []}, "第 2 期结束", "Session 2 closed"),
    (
        "closed",
        {"n": 2, "changes": [["chief-1", "张家队", "黄岛队"], ["vanguard-5", "李村队", "市南队"]]},
        "第 2 期结束；主将：张家队 → 黄岛队；先锋 5：李村队 → 市南队",
        "Session 2 closed; Chief: 张家队 → 黄岛队; Vanguard 5: 李村队 → 市南队",
    ),
    ("reopened", {"n": 2, "titles": []}, "第 2 期重新开放", "Session 2 reopened"),
    (
        "reopened",
        {"n": 2, "titles": [["chief-1", "张家队"]]},
        "第 2 期重新开放；主将：张家队",
        "Session 2 reopened; Chief: 张家队",
    ),
]


def words(action: str, data, language: str) -> str:
    with translation.override(language):
        return log_text(LadderLog(action=action, data=data, detail="as written"))


@pytest.mark.parametrize(("action", "data", "zh", "en"), LINES)
def test_each_kind_of_line_is_worded_in_the_readers_language(action, data, zh, en):
    assert words(action, data, "zh-hans") == zh
    assert words(action, data, "en") == en


def test_every_action_the_log_names_is_worded():
    assert {line[0] for line in LINES} == set(LOG_ACTIONS)


@pytest.mark.parametrize(
    ("action", "data"),
    [
        ("odd", {"n": 1}),  # an action nobody words
        ("session", {}),  # a value missing
        ("session", {"n": "3"}),  # a value of the wrong kind
        ("teams", None),  # no values kept
        ("closed", {"n": 2, "changes": [["chief-1", "张家队"]]}),  # a change cut short
    ],
)
def test_a_line_its_values_do_not_fit_shows_its_text(action, data):
    assert words(action, data, "en") == "as written"
