"""No request body can make the result endpoints answer 500."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from matches.models import DealReport

pytestmark = pytest.mark.django_db

seats = st.integers(min_value=-1, max_value=8)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10, 10) | st.text(max_size=8) | seats,
    lambda inner: (
        st.lists(inner, max_size=7) | st.dictionaries(st.text(max_size=10), inner, max_size=5)
    ),
    max_leaves=20,
)
summaries = st.fixed_dictionaries(
    {"format": st.sampled_from(["gouji-outcome/1", "x"])},
    optional={
        "finish": st.lists(seats, max_size=7) | json_values,
        "points": st.lists(seats, max_size=4) | json_values,
        "declarations": st.dictionaries(
            st.sampled_from(["1", "2", "7", "x"]),
            st.sampled_from(["clear", "unclear", "special", "no"]),
        ),
        "burns": st.lists(
            st.fixed_dictionaries(
                {
                    "burner": seats,
                    "burned": seats,
                    "outcome": st.sampled_from(["success", "counter", "x"]),
                }
            ),
            max_size=3,
        )
        | json_values,
        "suffocated": st.lists(st.fixed_dictionaries({"seat": seats, "by": seats}), max_size=2),
        "revolution": st.lists(seats, max_size=2),
        "string_three_streak": json_values,
    },
)


def token(user) -> str:
    return Token.objects.get_or_create(user=user)[0].key


bodies = (
    st.fixed_dictionaries(
        {}, optional={"summary": summaries | json_values, "play_log": json_values}
    )
    | json_values
)


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(body=bodies)
def test_any_body_gets_a_json_answer_never_a_500(setup, body):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token " + token(setup.referee))
    response = client.post(
        f"/api/v1/tables/{setup.table.pk}/deals/1/reports",
        json.dumps(body),
        content_type="application/json",
    )
    assert response.status_code in (200, 201, 400, 409, 422), response.content
    if response.status_code >= 400:
        assert set(response.json()["error"]) >= {"code", "message"}
    DealReport.objects.all().delete()  # a clean deal for the next example (no result written)


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(body=json_values)
def test_any_confirmation_body_gets_a_json_answer(setup, body):
    from matches.permissions import Actor
    from matches.results.deals import deal_for
    from matches.results.submit import submit_report

    from .conftest import SUMMARY

    report = (
        DealReport.objects.filter(state="pending").first()
        or submit_report(
            deal_for(setup.match, 1), SUMMARY, None, Actor(user=setup.referee), "fuzz"
        )[0]
    )
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token " + token(setup.captain_a))
    response = client.post(
        f"/api/v1/reports/{report.pk}/confirm", json.dumps(body), content_type="application/json"
    )
    assert response.status_code in (400, 403), response.content
