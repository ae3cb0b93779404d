"""An organiser who makes mistakes on the series pages: a wrong points table edited, the
scoring switched, a wrong event added and removed, impossible best-N, a series deleted; each
change on the series' log with who and when."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from seasons import ratings, selectors
from seasons.models import Series, SeriesLog
from tests.seasons.helpers import pool, rated_event

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser_season(django_user_model):
    people = pool(18)
    events = [rated_event(people, 3 * k, unions=4, day=1 + 7 * k) for k in range(3)]
    for b in events:
        b.play_rounds(2)
        b.standings()
    ratings.recompute_all()
    organiser = events[0].organiser
    for b in events[1:]:
        b.event.organisers.add(organiser)
    client = Client()
    client.force_login(organiser)
    return client, organiser, events


def _post(client, series, **fields):
    data = {"name": series.name, "scoring": "placing", "place_points": "10 6 3 1"}
    data.update(fields)
    return client.post(reverse("seasons-manage:series", args=[series.pk]), data)


def _new_series(client) -> Series:
    answer = client.post(reverse("seasons-manage:series-list"), {"name": "岛城联赛"})
    assert answer.status_code == 302
    return Series.objects.get(name="岛城联赛")


def test_a_wrong_points_table_is_edited_and_the_table_follows(organiser_season):
    client, organiser, events = organiser_season
    series = _new_series(client)
    ids = [b.event.pk for b in events]
    assert (
        _post(client, series, place_points="1 2 3 4", events=ids, published="on").status_code == 302
    )
    series.refresh_from_db()
    _, wrong = selectors.series_table(series)
    assert {v for line in wrong for v in line.per_event.values()} == {1, 2, 3, 4}
    assert (
        _post(client, series, place_points="10 6 3 1", events=ids, published="on").status_code
        == 302
    )
    series.refresh_from_db()
    _, right = selectors.series_table(series)
    assert {v for line in right for v in line.per_event.values()} == {10, 6, 3, 1}
    assert right[0].total > wrong[0].total
    page = Client().get(reverse("seasons:series", args=[series.pk])).content.decode()
    assert "10 / 6 / 3 / 1" in page and f"<strong>{right[0].total}</strong>" in page
    # Summed match points instead, and back: the figures follow.
    assert (
        _post(client, series, scoring="match_points", events=ids, published="on").status_code == 302
    )
    series.refresh_from_db()
    assert selectors.series_table(series)[1][0].total != right[0].total
    log = list(SeriesLog.objects.filter(series=series).order_by("at", "id"))
    assert [row.action for row in log] == ["create", "edit", "edit", "edit"]
    assert all(row.by == organiser for row in log)
    assert "1 2 3 4 → 10 6 3 1" in log[2].detail
    assert all(b.event.name in log[1].detail for b in events)  # the events added


def test_a_wrong_event_is_added_then_removed(organiser_season):
    client, _organiser, events = organiser_season
    series = _new_series(client)
    ids = [b.event.pk for b in events]
    _post(client, series, events=ids)
    assert series.entries.count() == 3
    assert _post(client, series, events=ids[:2]).status_code == 302
    assert [e.pk for e in selectors.series_events(series)] == ids[:2]
    assert f"− {events[2].event.name}" in SeriesLog.objects.filter(series=series).first().detail


@pytest.mark.parametrize(
    ("best_of", "says"),
    [
        ("0", "至少为 1"),
        ("-2", "至少为 1"),
        ("4", "只有 3 站"),
        ("x", "须为整数"),
        ("100", "至多为 99"),
    ],
)
def test_an_impossible_best_n_is_a_clear_error(organiser_season, best_of, says):
    client, _organiser, events = organiser_season
    series = _new_series(client)
    answer = _post(client, series, best_of=best_of, events=[b.event.pk for b in events])
    assert answer.status_code == 400
    assert says in answer.content.decode()
    series.refresh_from_db()
    assert series.best_of is None and series.entries.count() == 0  # nothing saved
    assert (
        _post(client, series, best_of="3", events=[b.event.pk for b in events]).status_code == 302
    )


def test_placing_without_a_points_table_is_refused(organiser_season):
    client, _organiser, _events = organiser_season
    series = _new_series(client)
    answer = _post(client, series, place_points="  ")
    assert answer.status_code == 400 and "须填写名次积分表" in answer.content.decode()
    assert _post(client, series, scoring="match_points", place_points="").status_code == 302


def test_a_series_made_by_mistake_is_deleted_on_its_page_and_logged(
    organiser_season, django_user_model
):
    client, organiser, events = organiser_season
    series = _new_series(client)
    _post(client, series, events=[events[0].event.pk], published="on")
    url = reverse("seasons-manage:series-delete", args=[series.pk])
    other = Client()
    other.force_login(django_user_model.objects.create_user("other"))
    assert other.post(url, {"confirm": series.name}).status_code == 403
    assert client.get(url).status_code == 200
    refused = client.post(url, {"confirm": "别的"})
    assert refused.status_code == 400 and Series.objects.filter(pk=series.pk).exists()
    assert client.post(url, {"confirm": "岛城联赛"}).status_code == 302
    assert not Series.objects.filter(pk=series.pk).exists()
    assert Client().get(reverse("seasons:series", args=[series.pk])).status_code == 404
    events[0].event.refresh_from_db()  # the events stay
    gone = SeriesLog.objects.get(action="delete")
    assert gone.series is None and gone.series_name == "岛城联赛" and gone.by == organiser
    assert "10 6 3 1" in gone.detail and events[0].event.name in gone.detail
    listing = client.get(reverse("seasons-manage:series-list")).content.decode()
    assert "岛城联赛" in listing and 'id="deleted-series"' in listing


def test_a_series_deleted_by_mistake_is_restored_from_the_list_once(
    organiser_season, django_user_model
):
    client, organiser, events = organiser_season
    series = _new_series(client)
    co = django_user_model.objects.create_user("laowang")
    series.organisers.add(co)
    chosen = [events[0].event.pk, events[2].event.pk]
    _post(client, series, events=chosen, published="on", best_of="1", place_points="9 5 2")
    before = selectors.series_table(Series.objects.get(pk=series.pk))[1]
    delete = reverse("seasons-manage:series-delete", args=[series.pk])
    assert client.post(delete, {"confirm": "岛城联赛"}).status_code == 302
    gone = SeriesLog.objects.get(action="delete")
    listing = client.get(reverse("seasons-manage:series-list")).content.decode()
    restore = reverse("seasons-manage:series-restore", args=[gone.pk])
    assert f'action="{restore}"' in listing
    stranger = Client()
    stranger.force_login(django_user_model.objects.create_user("stranger"))
    assert stranger.post(restore).status_code == 403
    assert client.get(restore).status_code == 405
    answer = client.post(restore)
    again = Series.objects.get(name="岛城联赛")
    assert answer.status_code == 302 and answer["Location"] == reverse(
        "seasons-manage:series", args=[again.pk]
    )
    assert (again.place_points, again.best_of, again.published) == ([9, 5, 2], 1, True)
    assert sorted(again.entries.values_list("event_id", flat=True)) == sorted(chosen)
    assert set(again.organisers.all()) == {organiser, co}
    # The same table as before the deletion, and the public page answers again.
    assert selectors.series_table(again)[1] == before
    assert Client().get(reverse("seasons:series", args=[again.pk])).status_code == 200
    gone.refresh_from_db()
    assert gone.restored_as == again
    assert again.log.filter(action="create", by=organiser).exists()
    # Restored once: a second press leads to the restored series and makes no other.
    assert client.post(restore)["Location"] == reverse("seasons-manage:series", args=[again.pk])
    assert Series.objects.filter(name="岛城联赛").count() == 1
    listing = client.get(reverse("seasons-manage:series-list")).content.decode()
    assert f'action="{restore}"' not in listing


def test_the_organisers_events_page_leads_to_the_series_and_the_merge_pages(organiser_season):
    client, _organiser, _events = organiser_season
    page = client.get(reverse("manage:events")).content.decode()
    assert f'href="{reverse("seasons-manage:series-list")}"' in page
    assert f'href="{reverse("seasons-manage:players")}"' in page


def test_co_organisers_are_added_and_removed_on_the_series_page_and_logged(
    organiser_season, django_user_model
):
    client, organiser, events = organiser_season
    series = _new_series(client)
    add = reverse("seasons-manage:series-organisers", args=[series.pk])
    laowang = django_user_model.objects.create_user("laowang", password="pw")
    stranger = django_user_model.objects.create_user("stranger", password="pw")
    other, outsider = Client(), Client()
    other.force_login(laowang)
    outsider.force_login(stranger)
    # Not yet an organiser: laowang can neither see, edit, nor add himself.
    assert other.get(reverse("seasons-manage:series", args=[series.pk])).status_code == 403
    assert other.post(add, {"username": "laowang"}).status_code == 403
    assert not series.organisers.filter(pk=laowang.pk).exists()

    # Clear errors: nothing typed, an unknown username, one already added.
    for typed, says in (
        ("  ", "请填写要添加的账号的用户名"),
        ("nobody", "没有用户名为“nobody”的账号"),
        (organiser.username, f"“{organiser.username}”已是本系列赛的组织者"),
    ):
        answer = client.post(add, {"username": typed})
        assert answer.status_code == 400 and says in answer.content.decode()
    assert list(series.organisers.all()) == [organiser]

    assert client.post(add, {"username": " laowang "}).status_code == 302
    assert set(series.organisers.all()) == {organiser, laowang}
    page = client.get(reverse("seasons-manage:series", args=[series.pk])).content.decode()
    assert 'id="series-organisers"' in page and "laowang" in page
    # The co-organiser now edits the series as its maker does; a stranger still may not.
    assert _post(other, series, name="岛城联赛 2026", events=[]).status_code == 302
    series.refresh_from_db()
    assert series.name == "岛城联赛 2026"
    assert _post(outsider, series, name="别人的").status_code == 403
    remove_laowang = reverse("seasons-manage:series-organiser-remove", args=[series.pk, laowang.pk])
    assert outsider.post(remove_laowang).status_code == 403

    # The maker leaves; laowang, now the only organiser, cannot remove himself.
    remove_maker = reverse("seasons-manage:series-organiser-remove", args=[series.pk, organiser.pk])
    assert client.get(remove_maker).status_code == 405
    assert client.post(remove_maker).status_code == 302
    assert list(series.organisers.all()) == [laowang]
    assert client.get(reverse("seasons-manage:series", args=[series.pk])).status_code == 403
    last = other.post(remove_laowang)
    assert last.status_code == 400
    assert "不能移除“laowang”：系列赛至少要有一位组织者" in last.content.decode()
    assert list(series.organisers.all()) == [laowang]
    # Someone who is not an organiser of the series is not found among them.
    gone = reverse("seasons-manage:series-organiser-remove", args=[series.pk, stranger.pk])
    assert other.post(gone).status_code == 404

    log = list(SeriesLog.objects.filter(series=series).order_by("at", "id"))
    organisers = [(row.by, row.detail) for row in log if "组织者" in row.detail]
    assert organisers == [
        (organiser, "添加组织者：laowang"),
        (organiser, f"移除组织者：{organiser.username}"),
    ]
    assert all(row.at is not None for row in log)


def test_the_co_organiser_errors_are_english_on_the_english_page(
    organiser_season, django_user_model
):
    client, _organiser, _events = organiser_season
    series = _new_series(client)
    add = reverse("seasons-manage:series-organisers", args=[series.pk])
    answer = client.post(add, {"username": "nobody"}, HTTP_ACCEPT_LANGUAGE="en")
    assert answer.status_code == 400
    assert "There is no account with the username “nobody”" in answer.content.decode()
