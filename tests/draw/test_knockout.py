"""Issue 25, problem 4: the break into the wizard's knockout stage, the tie at the cut, clubmates
kept apart in the knockout's first round (and counted honestly), and the bracket (对阵图)."""

from __future__ import annotations

import itertools

import pytest
from django.urls import reverse
from django.utils import translation
from hypothesis import given, settings
from hypothesis import strategies as st

from matches.draw import bracket
from matches.draw import service as draw
from matches.kernel.pairing import knockout
from matches.kernel.pairing import types as flags
from matches.models import Event, Round, RoundLog, Stage, Union
from matches.standings import breaks

A_WINS = [1, 2, 3, 4, 5, 6]  # union A (seats 1-3-5) finishes 1st, 3rd, 5th
A_SWEEPS = [1, 3, 5, 2, 4, 6]  # union A takes the first three places: a bigger margin
B_WINS = [2, 1, 4, 3, 6, 5]


def with_knockout(build, unions=10, qualifiers=8, **kwargs):
    """A Swiss event with the wizard's second stage: a knockout of `qualifiers`."""
    b = build(unions=unions, **kwargs)
    stage = b.add_stage(
        format=Stage.Format.SINGLE_ELIMINATION, qualifiers=qualifiers, planned_rounds=3
    )
    return b, stage


def play(b, round_, finishes):
    """Each table's two deals with the given finishing order (by table number), then close."""
    for table, finish in finishes.items():
        match = b.match(round_, table)
        b.final(match, 1, finish)
        b.final(match, 2, finish)
    b.close(round_)


# --- the break ------------------------------------------------------------------------------------


def test_the_break_uses_the_wizards_stage_and_size_never_a_second_stage(build, client):
    b, wizard = with_knockout(build)
    b.play_rounds(1)
    proposal = breaks.propose_break(b.event)
    assert proposal["size"] == 8 and proposal["stage"] == wizard
    assert sum(r["in_break"] for r in proposal["rows"]) == 8
    client.force_login(b.organiser)
    page = client.get(reverse("manage:break", args=[b.event.pk]))
    assert page.status_code == 200
    assert 'name="size" min="2" value="8"' in page.content.decode()
    response = client.post(reverse("manage:break", args=[b.event.pk]), {"size": "8"})
    assert response.status_code == 302
    assert b.event.stages.count() == 2
    wizard.refresh_from_db()
    assert len(wizard.break_unions) == 8 and wizard.planned_rounds == 3
    # Confirming again (a smaller field) refills the same stage and logs what it replaced.
    first = list(wizard.break_unions)
    stage = breaks.confirm_break(b.event, 4)
    assert stage.pk == wizard.pk and b.event.stages.count() == 2
    assert stage.break_unions == first[:4] and stage.planned_rounds == 2
    log = RoundLog.objects.filter(action=RoundLog.Action.BREAK).order_by("-id").first()
    assert log.details["replaced"] == first
    # Once the knockout is drawn the field is fixed.
    draw.create_round(stage, seed=1)
    with pytest.raises(breaks.BreakRefused):
        breaks.confirm_break(b.event, 4)


def test_a_wizards_round_robin_stage_of_n_is_filled_by_the_break_too(build, client):
    b = build(unions=6)
    stage = b.add_stage(format=Stage.Format.ROUND_ROBIN, qualifiers=4, planned_rounds=3)
    b.play_rounds(1)
    filled = breaks.confirm_break(b.event)
    assert filled.pk == stage.pk and b.event.stages.count() == 2
    assert len(filled.break_unions) == 4 and filled.planned_rounds == 3
    client.force_login(b.organiser)
    refused = client.post(reverse("manage:break", args=[b.event.pk]), {"size": "多"})
    assert refused.status_code == 400 and "请填写晋级名额" in refused.content.decode()
    refused = client.post(reverse("manage:break", args=[b.event.pk]), {"size": "99"})
    assert refused.status_code == 400 and "晋级名额多于参赛联邦数" in refused.content.decode()
    assert b.event.stages.count() == 2


def test_a_tie_at_the_cut_is_shown_and_resolved_by_the_events_tie_breaks(build):
    b, _stage = with_knockout(build, unions=8, qualifiers=2, tie_breaks=["score_difference"])
    round_ = b.round([(0, 1), (2, 3), (4, 5), (6, 7)])
    # Four winners on equal match points; unions 1 and 3 (index 0, 2) win by more.
    play(b, round_, {1: A_SWEEPS, 2: A_SWEEPS, 3: A_WINS, 4: A_WINS})
    proposal = breaks.propose_break(b.event, 2)
    winners = {b.unions[k].pk for k in (0, 2, 4, 6)}
    assert set(proposal["tied_band"]) == winners
    assert proposal["decided_by"] == "净胜分"
    rows = {r["union"]: r for r in proposal["rows"]}
    assert {u for u in winners if rows[u]["in_break"]} == {b.unions[0].pk, b.unions[2].pk}
    in_row, out_row = rows[b.unions[0].pk], rows[b.unions[4].pk]
    assert in_row["score_difference"] > out_row["score_difference"]
    assert in_row["reason"].startswith("净胜分") and "高于" in in_row["reason"]
    assert out_row["reason"].startswith("净胜分") and "低于" in out_row["reason"]
    assert b.unions[0].name in out_row["reason"] or b.unions[2].name in out_row["reason"]
    # The losers are out on match points, and say so.
    assert rows[b.unions[1].pk]["reason"].startswith("场分")
    with translation.override("en"):
        english = breaks.propose_break(b.event, 2)
    assert english["decided_by"] == "Net score"
    assert "higher than" in [r for r in english["rows"] if r["in_break"]][0]["reason"]


def test_a_tie_on_every_tie_break_is_named_as_such(build):
    b, _stage = with_knockout(build, unions=4, qualifiers=2, tie_breaks=["score_difference"])
    round_ = b.round([(0, 1), (2, 3)])
    play(b, round_, {1: A_WINS, 2: A_WINS})
    proposal = breaks.propose_break(b.event, 1 + 1)
    assert proposal["decided_by"] == "" and proposal["tied_at_cut"] == []
    proposal = breaks.propose_break(b.event, 3)
    # Third place: the two losers are equal on everything; seed order decides, and it says so.
    assert len(proposal["tied_at_cut"]) == 1
    out = [r for r in proposal["rows"] if not r["in_break"]][0]
    assert "名次判定全部相同" in out["reason"]


# --- clubs in the knockout -------------------------------------------------------------------------


def test_first_round_keeps_clubmates_apart_by_exchanging_within_the_bottom_band():
    seeded = list("abcdefgh")
    clubs = {"a": 1, "h": 1}  # seeds 1 and 8 are clubmates: 1 v 8 would be a clash
    pairings = knockout.first_round(seeded, clubs)
    assert all(flags.CLUB_CLASH not in p.flags for p in pairings)
    assert all(p.details["seed_a"] <= 4 < p.details["seed_b"] for p in pairings)
    moved = [p for p in pairings if "moved_from" in p.details]
    assert len(moved) == 2  # one exchange, two pairings changed
    assert knockout.measure(pairings)["club_clashes"] == 0


def test_first_round_counts_clubmates_honestly_when_it_cannot_avoid_them():
    seeded = list("abcd")
    clubs = dict.fromkeys(seeded, "one club")
    pairings = knockout.first_round(seeded, clubs)
    assert [p.flags for p in pairings] == [[flags.CLUB_CLASH], [flags.CLUB_CLASH]]
    assert knockout.measure(pairings)["club_clashes"] == 2
    # The standard bracket is kept when nothing is gained by moving.
    assert [(p.details["seed_a"], p.details["seed_b"]) for p in pairings] == [(1, 4), (2, 3)]


def _clashes(pairings, clubs):
    return sum(1 for p in pairings if not p.is_bye and knockout.same_club(p.a, p.b, clubs))


@settings(max_examples=150, deadline=None)
@given(
    size=st.integers(min_value=2, max_value=16),
    club_ids=st.lists(st.one_of(st.none(), st.integers(0, 3)), min_size=16, max_size=16),
)
def test_the_reported_clubmate_count_is_the_real_one_and_the_least_possible(size, club_ids):
    seeded = list(range(100, 100 + size))
    clubs = dict(zip(seeded, club_ids))
    pairings = knockout.first_round(seeded, clubs)
    placed = [u for p in pairings for u in (p.a, p.b) if u is not None]
    assert sorted(placed) == seeded  # everyone once
    real = _clashes(pairings, clubs)
    assert knockout.measure(pairings)["club_clashes"] == real
    assert sum(flags.CLUB_CLASH in p.flags for p in pairings) == real
    # Byes stay with the top seeds; every played pairing is top half v bottom half.
    places = knockout.bracket_places(size)
    assert sorted(p.details["seed_a"] for p in pairings if p.is_bye) == list(
        range(1, places - size + 1)
    )
    for p in pairings:
        if not p.is_bye:
            assert p.details["seed_a"] <= places // 2 < p.details["seed_b"]
    # No exchange inside the bottom band does better.
    tops = [p.details["seed_a"] for p in pairings if not p.is_bye]
    bottoms = [p.details["seed_b"] for p in pairings if not p.is_bye]
    if len(bottoms) <= 6:
        best = min(
            sum(
                knockout.same_club(seeded[t - 1], seeded[o - 1], clubs) for t, o in zip(tops, order)
            )
            for order in itertools.permutations(bottoms)
        )
        assert real == best


def _knockout_event(build, clubs_of=None):
    """Eight unions straight into a knockout whose break is confirmed (seed k = union k)."""
    b = build(unions=8, fmt=Stage.Format.SINGLE_ELIMINATION, clubs=8)
    b.stage.qualifiers, b.stage.planned_rounds = 8, 3
    b.stage.break_unions = [u.pk for u in b.unions]
    b.stage.save()
    if clubs_of is not None:
        for k, union in enumerate(b.unions):
            Union.objects.filter(pk=union.pk).update(club=b.unions[clubs_of(k)].club)
    return b


def test_the_knockout_draw_avoids_clubmates_and_shows_knockout_flags_only(build, client):
    # A club each, but seed 8 plays for seed 1's club: the standard 1 v 8 would be a clash.
    b = _knockout_event(build, clubs_of=lambda k: 0 if k == 7 else k)
    round_ = draw.create_round(b.stage, seed=1)
    assert round_.quality["club_clashes"] == 0
    for match in round_.matches.all():
        assert set(match.flags) <= {flags.BYE, flags.CLUB_CLASH, flags.HAND_SWAP}
    client.force_login(b.organiser)
    html = client.get(reverse("manage:round", args=[b.event.pk, round_.number])).content.decode()
    assert "同俱乐部相遇 0" in html and "为避开同俱乐部调整 2 桌" in html
    assert "重复交手" not in html and "跨分组" not in html  # Swiss words stay off knockout pages
    assert "1/4决赛" in html  # the round's name, computed
    assert "为避开同俱乐部：对手由 8 号种子换为" in html  # the moved table says why


def test_the_knockout_draw_counts_clubmate_meetings_when_it_must(build, client):
    b = _knockout_event(build, clubs_of=lambda k: 0)  # one club for all
    round_ = draw.create_round(b.stage, seed=1)
    assert round_.quality["club_clashes"] == 4
    assert all(flags.CLUB_CLASH in m.flags for m in round_.matches.all())
    client.force_login(b.organiser)
    html = client.get(reverse("manage:round", args=[b.event.pk, round_.number])).content.decode()
    assert "同俱乐部相遇 4" in html


# --- round names and the bracket -------------------------------------------------------------------


@pytest.mark.parametrize(
    "places, chinese, english",
    [
        (2, "决赛", "Final"),
        (4, "半决赛", "Semi-final"),
        (8, "1/4决赛", "Quarter-final"),
        (16, "1/8决赛", "Round of 16"),
    ],
)
def test_round_names_in_both_languages(places, chinese, english):
    with translation.override("zh-hans"):
        assert bracket.round_name(places) == chinese
    with translation.override("en"):
        assert bracket.round_name(places) == english


def test_round_pages_name_the_knockout_round_in_the_readers_language(build, client):
    b = _knockout_event(build)
    quarter = draw.create_round(b.stage, seed=1)
    draw.publish_round(quarter)
    url = reverse("public:round", args=[b.event.pk, quarter.number])
    assert "1/4决赛" in client.get(url).content.decode()
    assert "Quarter-final" in client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert Stage.objects.get(pk=b.stage.pk).name == ""  # nothing written as a label


def _winners(columns, stage_round):
    return [slot.winner for slot in columns[stage_round - 1].slots]


def test_the_bracket_advances_as_results_become_final(build):
    b = _knockout_event(build)
    stage = b.stage
    columns = bracket.build(stage, [], lambda r: True, project_first_round=True)
    assert [c.name for c in columns] == ["1/4决赛", "半决赛", "决赛"]
    assert columns[0].projected and len(columns[0].slots) == 4
    quarter = draw.create_round(stage, seed=1)
    draw.publish_round(quarter)
    columns = bracket.build(stage, list(stage.rounds.all()), lambda r: True)
    assert _winners(columns, 1) == [None] * 4
    assert [(s.a, s.b) for s in columns[1].slots] == [(None, None)] * 2
    # Table 1's result is final: its winner moves into the semi-final's first place.
    match = b.match(quarter, 1)
    b.final(match, 1, B_WINS)
    b.final(match, 2, B_WINS)
    b.settle(quarter)
    columns = bracket.build(stage, list(stage.rounds.all()), lambda r: True)
    slot = next(s for s in columns[0].slots if s.table == 1)
    assert slot.winner == match.union_b_id
    semi = columns[1].slots[slot and columns[0].slots.index(slot) // 2]
    assert match.union_b_id in (semi.a, semi.b)
    # The rest; the semi-finals are drawn from the winners, in bracket order.
    for table in (2, 3, 4):
        m = b.match(quarter, table)
        b.final(m, 1, A_WINS)
        b.final(m, 2, A_WINS)
    b.close(quarter)
    semis = draw.create_round(stage, seed=2)
    columns = bracket.build(stage, list(stage.rounds.all()), lambda r: True)
    assert [(s.a, s.b) for s in columns[1].slots] == [
        (m.union_a_id, m.union_b_id)
        for m in sorted(semis.matches.all(), key=lambda m: m.details["bracket"])
    ]
    assert columns[1].number == semis.number


def test_the_public_bracket_shows_only_what_is_published_and_released(build, client):
    b = _knockout_event(build)
    url = reverse("public:bracket", args=[b.event.pk])
    assert client.get(url).status_code == 404  # break confirmed, nothing drawn
    quarter = draw.create_round(b.stage, seed=1)
    assert client.get(url).status_code == 404  # a draft is held back
    draw.publish_round(quarter)
    page = client.get(url)
    assert page.status_code == 200 and b.unions[0].name in page.content.decode()
    assert "1/4决赛" in page.content.decode()
    # Results released after the round closes: a final result shows no winner until then.
    Event.objects.filter(pk=b.event.pk).update(release_results=Event.Release.AFTER_CLOSE)
    match = b.match(quarter, 1)
    b.final(match, 1, A_WINS)
    b.final(match, 2, A_WINS)
    b.settle(quarter)
    html = client.get(url).content.decode()
    assert "bracket-side winner" not in html
    # The draw held until the event ends: nothing at all.
    Event.objects.filter(pk=b.event.pk).update(release_draw=Event.Release.AT_END)
    assert client.get(url).status_code == 404
    # Unpublished event: nothing either.
    Event.objects.filter(pk=b.event.pk).update(release_draw=Event.Release.AT_ONCE, published=False)
    assert client.get(url).status_code == 404


def test_the_organisers_bracket_is_for_the_events_organisers_only(build, client):
    b = _knockout_event(build)
    url = reverse("manage:bracket", args=[b.event.pk])
    client.force_login(b.organiser)
    page = client.get(url)
    assert page.status_code == 200 and "1/4决赛" in page.content.decode()
    other = build(unions=2)
    client.force_login(other.organiser)
    assert client.get(url).status_code in (403, 404)
    assert Round.objects.filter(event=b.event).count() == 0
