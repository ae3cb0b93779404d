import pytest


@pytest.fixture(autouse=True)
def media_in_tmp(settings, tmp_path):
    """The photos a test keeps go to its own folder, never var/media."""
    settings.MEDIA_ROOT = str(tmp_path / "media")
