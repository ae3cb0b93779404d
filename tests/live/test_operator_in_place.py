"""The operator's taps answer in place: a post from htmx (HX-Request) gets the board alone, a
refusal included (its rule id in the board's error line, as 200: htmx swaps no 4xx), and the
deal's address to keep; the same post without JavaScript still redirects to the page (a refusal:
the page with its status). The stream's notice of a tap carries the version of the board that
tap's answer shows, so the page that posted it need not fetch the board again."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from matches import push
from matches.models import LiveAction, LiveDeal
from matches.permissions import Actor
from matches.results import live

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def started(featured, deal_record):
    b, feature = featured()
    actor = Actor.from_link(feature.operator_link)
    live.set_hands(
        feature, 1, {"hands": deal_record["hands"], "leader": deal_record["leader"]}, actor
    )
    token = feature.operator_link.token
    return feature, token, reverse("referee:link-live-action", args=[token, 1])


def _tap(action: dict, seq: int) -> dict:
    form = {"seq": str(seq), "seat": str(action["seat"])}
    if "cards" in action:
        form["cards"] = action["cards"]
    else:
        form["kind"] = "pass" if action.get("pass") else "yield"
    return form


def test_a_tap_from_htmx_answers_the_board_and_without_it_redirects(client, started, deal_record):
    feature, token, action_url = started
    page = reverse("referee:link-live", args=[token]) + "?deal=1"
    first, second = deal_record["actions"][:2]
    plain = client.post(action_url, _tap(first, 1))
    assert plain.status_code == 302 and plain["Location"] == page
    swapped = client.post(action_url, _tap(second, 2), **HTMX)
    text = swapped.content.decode()
    deal = LiveDeal.objects.get()
    assert swapped.status_code == 200 and swapped["HX-Replace-Url"] == page
    assert text.lstrip().startswith('<div id="live-board"') and "<html" not in text
    assert f'data-live-version="{live.board_version(deal)}"' in text
    assert text.count("<li value=") == 2 and LiveAction.objects.count() == 2
    # The board it answered is the board's version: the refetch the notice would cause is 204.
    board = reverse("referee:link-live-board", args=[token, 1])
    assert client.get(f"{board}?v={live.board_version(deal)}", **HTMX).status_code == 204
    # Undo, in place and without htmx.
    undo = reverse("referee:link-live-undo", args=[token, 1])
    taken = client.post(undo, **HTMX)
    assert taken.status_code == 200 and taken.content.decode().count("<li value=") == 1
    assert client.post(undo)["Location"] == page and not LiveAction.objects.exists()


def test_a_refused_play_shows_in_place_with_its_rule(client, started, deal_record):
    feature, token, action_url = started
    leader = deal_record["leader"]
    wrong = {"seq": "1", "seat": str(leader % 6 + 1), "cards": "3", "typed": "1"}
    refused = client.post(action_url, wrong, **HTMX)
    text = refused.content.decode()
    error = text.split('id="live-error">')[1].split("</p>")[0]
    assert refused.status_code == 200 and error.startswith("R15: ") and "<html" not in text
    # The typed play comes back to be corrected: its box open, the seat and cards kept.
    assert '<details class="live-typed" open>' in text and 'value="3"' in text
    assert f'<option value="{leader % 6 + 1}" selected>' in text
    assert not LiveAction.objects.exists()
    # Without htmx: the whole page, its status, the same rule.
    page = client.post(action_url, wrong)
    assert page.status_code == 422 and "<html" in page.content.decode()
    assert 'id="live-error">R15: ' in page.content.decode()
    # A tap on a board that is stale (another phone was first): refused in place too.
    client.post(action_url, _tap(deal_record["actions"][0], 1))
    stale = client.post(action_url, {"seq": "1", "seat": "2", "kind": "pass"}, **HTMX)
    assert stale.status_code == 200 and 'id="live-error"' in stale.content.decode()
    assert LiveAction.objects.count() == 1


def test_a_commentary_line_in_place(client, started):
    feature, token, _action_url = started
    url = reverse("referee:link-live-note", args=[token]) + "?deal=1"
    posted = client.post(url, {"text": "一手好牌"}, **HTMX)
    text = posted.content.decode()
    assert posted.status_code == 200 and text.startswith('<form method="post"')
    assert 'id="live-note-posted"' in text and 'value=""' in text
    empty = client.post(url, {"text": "   "}, **HTMX)
    assert empty.status_code == 200 and 'id="live-note-error"' in empty.content.decode()
    plain = client.post(url, {"text": "再来一行"})
    assert plain.status_code == 302 and feature.notes.count() == 2


def test_the_notice_of_a_tap_carries_the_board_it_answers(
    started, deal_record, monkeypatch, django_capture_on_commit_callbacks
):
    feature, token, _action_url = started
    sent = []
    monkeypatch.setattr(push.hub, "publish", lambda channel, message: sent.append(message))
    actor = Actor.from_link(feature.operator_link)
    versions = []
    with django_capture_on_commit_callbacks(execute=True):
        for seq, action in enumerate(deal_record["actions"][:2], start=1):
            live.add_action(feature, 1, {"seq": seq, **action}, actor)
            versions.append(live.board_version(LiveDeal.objects.get()))
        live.undo_last(feature, 1, actor)
        live.add_action(feature, 1, {"seq": 2, **deal_record["actions"][2 - 1]}, actor)
        versions.append(live.board_version(LiveDeal.objects.get()))
    staff = [json.loads(m) for m in sent if json.loads(m)["kind"] == "live"]
    assert [n["v"] for n in staff] == [versions[0], versions[1], versions[0], versions[2]]
    # An undo then another play is not the board before the undo, though as many plays.
    assert versions[2] != versions[1]


def test_an_action_recorded_while_the_board_renders_is_in_all_of_it_or_none(
    client, started, deal_record, monkeypatch
):
    """The API records an action while the board is being rendered (a real race on PostgreSQL:
    the phone's refetch and the digital table's post): the board's list, its form's `seq` and its
    version must agree, or the list shows the action while the form still offers its seq (the
    next tap refused as already recorded) and the version skips the notice that would mend it."""
    feature, token, action_url = started
    actor = Actor.from_link(feature.operator_link)
    first, second = deal_record["actions"][:2]
    live.add_action(feature, 1, {"seq": 1, **first}, actor)
    play_as_it_was = live._play
    raced = []

    def play_then_the_api_records(*args, **kwargs):
        result = play_as_it_was(*args, **kwargs)
        if not raced:  # once (add_action plays the deal through _play too)
            raced.append(second)
            live.add_action(feature, 1, {"seq": 2, **second}, actor)
        return result

    monkeypatch.setattr(live, "_play", play_then_the_api_records)
    board = reverse("referee:link-live-board", args=[token, 1])
    text = client.get(board, **HTMX).content.decode()
    assert raced and LiveAction.objects.count() == 2
    listed = text.count("<li value=")
    assert listed == 1 and 'name="seq" value="2"' in text
    version = text.split('data-live-version="')[1].split('"')[0]
    assert version != live.board_version(LiveDeal.objects.get())  # the notice will refetch it
    # The refetch the notice causes shows the action, and the next seq.
    again = client.get(f"{board}?v={version}", **HTMX).content.decode()
    assert again.count("<li value=") == 2 and 'name="seq" value="3"' in again
