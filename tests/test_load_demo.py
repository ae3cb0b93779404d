from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command


@pytest.mark.django_db
def test_load_demo_twice_creates_one_organiser_who_can_log_in(client):
    call_command("load_demo")
    call_command("load_demo")
    assert get_user_model().objects.filter(username="demo").count() == 1
    assert client.login(username="demo", password="demo")
