"""Issue 37, problem 7: after reopening a round the organiser lands on its tables, and each
table links its deals to their correction form."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

pytestmark = pytest.mark.django_db

A_WINS = [1, 2, 3, 4, 5, 6]


def test_reopening_lands_on_the_tables_with_each_deals_correction_link(
    client, build, django_capture_on_commit_callbacks
):
    b = build(unions=4, deals=2)
    round_ = b.round([(0, 1), (2, 3)])
    for table in (1, 2):
        for deal in (1, 2):
            b.final(b.match(round_, table), deal, A_WINS)
    b.close(round_)
    organiser = get_user_model().objects.create_user("org-37-a", password="x")
    b.event.organisers.add(organiser)
    client.force_login(organiser)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("manage:round-reopen", args=[b.event.pk, 1]), {"reason": "记分表抄错"}
        )
    assert response.status_code == 302
    assert response["Location"] == reverse("manage:round", args=[b.event.pk, 1]) + "#tables"
    page = client.get(response["Location"]).content.decode()
    assert "在下方各桌点局号更正成绩" in page
    for table in (1, 2):
        match = b.match(round_, table)
        for deal in (1, 2):
            url = reverse("manage:results-correct", args=[b.event.pk, match.table_id, deal])
            assert f'href="{url}"' in page
    # The link opens the form starting from the result in force.
    match = b.match(round_, 2)
    form = client.get(reverse("manage:results-correct", args=[b.event.pk, match.table_id, 2]))
    assert form.status_code == 200
    assert page.count("data-corrections") == 2  # one line per table
