"""Shared fixtures. Browser fixtures live in tests/browser/conftest.py."""
