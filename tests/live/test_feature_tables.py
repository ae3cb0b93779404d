"""Issue 50, step 1: the organiser marks tables of a round as feature tables, with a delay of
0–60 minutes (10 by default) and what spectators see after it."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from matches.models import FeatureTable, LiveDeal

pytestmark = pytest.mark.django_db


@pytest.fixture
def final(build):
    b = build(unions=4, deals=1)
    round_ = b.round([(0, 1), (2, 3)])
    return b, round_


def page(b, round_):
    return reverse("manage:features", args=[b.event.pk, round_.number])


def test_the_organiser_marks_a_table_and_changes_its_delay(client, final):
    b, round_ = final
    client.force_login(b.organiser)
    listing = client.get(page(b, round_))
    assert listing.status_code == 200
    text = listing.content.decode()
    assert 'data-feature-table="2"' in text and 'value="10"' in text  # the default delay
    table = b.match(round_, 2).table
    done = client.post(page(b, round_), {"table": table.pk, "delay": "15", "shows": "plays"})
    assert done.status_code == 302
    feature = FeatureTable.objects.get(table=table)
    assert (feature.delay_minutes, feature.shows) == (15, "plays")
    assert feature.operator_link is not None and feature.operator_link.table == table
    client.post(page(b, round_), {"table": table.pk, "delay": "0", "shows": "hands"})
    feature.refresh_from_db()
    assert (feature.delay_minutes, feature.shows) == (0, "hands")
    assert FeatureTable.objects.count() == 1
    # The round's page links to it.
    round_page = client.get(reverse("manage:round", args=[b.event.pk, round_.number]))
    assert page(b, round_) in round_page.content.decode()


@pytest.mark.parametrize("delay", ["61", "-1", "ten", "", "1.5", "٣"])
def test_a_delay_outside_0_to_60_is_refused_with_a_message(client, final, delay):
    b, round_ = final
    client.force_login(b.organiser)
    table = b.match(round_, 1).table
    response = client.post(page(b, round_), {"table": table.pk, "delay": delay, "shows": "hands"})
    assert response.status_code == 400
    assert "0 到 60" in response.content.decode()
    assert not FeatureTable.objects.exists()


def test_bad_table_and_choice_are_refused_without_a_500(client, final):
    b, round_ = final
    client.force_login(b.organiser)
    assert client.post(page(b, round_), {"table": "x", "delay": "5"}).status_code == 404
    table = b.match(round_, 1).table
    bad = client.post(page(b, round_), {"table": table.pk, "delay": "5", "shows": "all"})
    assert bad.status_code == 400 and not FeatureTable.objects.exists()


def test_removing_keeps_a_recorded_deal(client, final):
    b, round_ = final
    client.force_login(b.organiser)
    table = b.match(round_, 1).table
    client.post(page(b, round_), {"table": table.pk, "delay": "5", "shows": "hands"})
    feature = FeatureTable.objects.get()
    remove = reverse("manage:feature-remove", args=[b.event.pk, round_.number, table.number])
    LiveDeal.objects.create(feature=feature, number=1, started_at=feature.created_at)
    client.post(remove)
    assert FeatureTable.objects.filter(pk=feature.pk).exists()
    LiveDeal.objects.all().delete()
    client.post(remove)
    assert not FeatureTable.objects.exists()
    feature.operator_link.refresh_from_db()
    assert not feature.operator_link.is_active


def test_only_the_events_staff(client, final):
    b, round_ = final
    other = get_user_model().objects.create_user("other-org", password="x")
    client.force_login(other)
    table = b.match(round_, 1).table
    assert client.get(page(b, round_)).status_code == 403
    assert client.post(page(b, round_), {"table": table.pk, "delay": "5"}).status_code == 403
    client.logout()
    assert client.get(page(b, round_)).status_code == 302  # to the sign-in page
    assert not FeatureTable.objects.exists()


def test_the_page_lists_a_feature_tables_deals(client, final):
    b, round_ = final
    client.force_login(b.organiser)
    table = b.match(round_, 1).table
    client.post(page(b, round_), {"table": table.pk, "delay": "5", "shows": "hands"})
    feature = FeatureTable.objects.get()
    LiveDeal.objects.create(feature=feature, number=1, started_at=feature.created_at)
    text = client.get(page(b, round_)).content.decode()
    assert 'data-live-deal="1"' in text and "第 1 局：已录入 0 步" in text
