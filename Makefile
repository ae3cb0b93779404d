# Two commands do all the set-up on a fresh machine:
#   make demo   installs, migrates, loads the demo event and serves http://127.0.0.1:8000
#   make test   installs everything (Chromium, nginx, the CJK font and poppler included) and runs the whole test suite
# The fast lane while working: make check (lint + every test but the browser tests, no apt installs).
# bench/festival.py also needs `wrk` (apt-get install wrk); `make test` does not install it.
PYTHON ?= python3.11
VENV := .venv
PY := $(VENV)/bin/python
PYTEST_ARGS ?=
# Test processes (pytest-xdist); a file's tests stay in one process (--dist loadfile).
TEST_WORKERS ?= 2
# `make test` lints first; `make test LINT=` runs the suite alone (.ci/run lints once for both passes).
LINT ?= lint

.PHONY: demo test check lint install chromium nginx fonts serve clean

$(VENV)/.installed: requirements.txt requirements-dev.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements-dev.txt
	touch $@

# Translations are compiled, not committed (gettext's msgfmt does it).
locale/en/LC_MESSAGES/django.mo: locale/en/LC_MESSAGES/django.po $(VENV)/.installed
	$(PY) manage.py compilemessages --ignore=.venv >/dev/null

install: $(VENV)/.installed locale/en/LC_MESSAGES/django.mo

# Browser tests drive Debian's Chromium; install it when it is missing (needs root or sudo).
chromium:
	@command -v chromium >/dev/null 2>&1 || { \
	  echo "Installing Debian's chromium for the browser tests"; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium >/dev/null; }

# tests/public/test_nginx.py runs deploy/nginx.conf in front of the app; same as above for nginx.
nginx:
	@command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || { \
	  echo "Installing Debian's nginx for the front-cache tests"; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq nginx >/dev/null; }

# Table cards embed WenQuanYi Micro Hei (matches/draw/printing.py: Apache 2.0, embedding allowed);
# the print tests read the PDFs with poppler's pdffonts and pdftotext. Same as above for both.
fonts:
	@{ [ -f /usr/share/fonts/truetype/wqy/wqy-microhei.ttc ] && command -v pdffonts >/dev/null 2>&1; } || { \
	  echo "Installing Debian's fonts-wqy-microhei and poppler-utils for the table cards"; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq fonts-wqy-microhei poppler-utils >/dev/null; }

# DEBUG=True: the demo's account is demo/demo, which load_demo refuses to create otherwise.
demo: install
	$(PY) manage.py migrate --noinput
	DEBUG=True $(PY) manage.py load_demo
	DEBUG=True $(PY) manage.py runserver 127.0.0.1:8000

# The architecture (import-linter contracts in pyproject.toml), the style (ruff), the types
# (mypy: strict on the engines, the pairing package and the adapters; [tool.mypy] in
# pyproject.toml), dead code (vulture; its whitelist is tools/vulture_whitelist.py) and the
# dependencies (deptry: every import listed, every listed package imported) are checked before
# the tests: docs/architecture.md says what the contracts hold.
# Issue numbers belong in commit messages, not in the app (CONTRIBUTING.md): tests and bench may
# name the issue a test holds, the app's code, templates and translations may not.
APP_DIRS := matches players seasons ladders hall gouji_tournament templates static locale tools deploy

lint: install
	@if git grep -nE '[Ii]ssues? ?#?[0-9]+' -- $(APP_DIRS); then \
	  echo "make lint: an issue number in the app (above); say why in words, the number in the commit"; exit 1; fi
	$(VENV)/bin/lint-imports
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/vulture
	$(VENV)/bin/deptry .
	$(VENV)/bin/mypy

test: install chromium nginx fonts $(LINT)
	$(PY) -m pytest -n $(TEST_WORKERS) --dist loadfile $(PYTEST_ARGS)

# The fast lane (CONTRIBUTING.md): lint, then every test but the browser tests; installs nothing
# through apt (the nginx test skips without nginx; the table cards' checks need `make fonts` once).
check: install lint
	$(PY) -m pytest -m "not browser" -n $(TEST_WORKERS) --dist loadfile $(PYTEST_ARGS)

clean:
	rm -rf $(VENV) var staticfiles .pytest_cache .hypothesis
