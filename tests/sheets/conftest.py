import pytest


@pytest.fixture(autouse=True)
def media_in_tmp(settings, tmp_path):
    """The photos a test keeps go to its own folder, never var/media."""
    settings.MEDIA_ROOT = str(tmp_path / "media")


@pytest.fixture(autouse=True)
def photos_read_in_process(eager_tasks):
    """A photo is read by a task: in CI's pass with a real worker that worker would read it from
    its own connection, outside the test's transaction (it never sees the photo's row), and the
    test would look before it answered. These tests test the reading, not the worker."""
