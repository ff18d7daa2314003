# Muster: `make run` serves the app, `make test` runs the whole suite. Both set up first.
# The first interpreter that really runs and is Python 3.12 or newer. A pyenv shim can exist
# for a version that is not selected and then answers "command not found", so each candidate
# is run, not looked up: python3.13, python3.12, pyenv's own 3.13/3.12 builds, python3.
PY_CANDIDATES := python3.13 python3.12 \
  $(wildcard $(HOME)/.pyenv/versions/3.13*/bin/python3 $(HOME)/.pyenv/versions/3.12*/bin/python3) \
  $(wildcard $(shell pyenv root 2>/dev/null)/versions/3.13*/bin/python3) \
  $(wildcard $(shell pyenv root 2>/dev/null)/versions/3.12*/bin/python3) python3
PY_OK := import sys; sys.exit(sys.version_info < (3, 12))
PYTHON ?= $(firstword $(foreach p,$(PY_CANDIDATES),$(shell $(p) -c '$(PY_OK)' >/dev/null 2>&1 && echo $(p))))
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
MANAGE := $(BIN)/python manage.py

.PHONY: run test setup install system-deps lint format bench clean

run: setup
	$(MANAGE) runserver 127.0.0.1:8000

test: setup system-deps
	$(BIN)/pytest

setup: install
	$(MANAGE) migrate --noinput
	$(MANAGE) muster load-lists

install: $(STAMP)

$(BIN)/python:
	@test -n "$(PYTHON)" || { echo "Muster needs Python 3.12 or newer (python3.13 or python3.12)"; exit 1; }
	$(PYTHON) -m venv $(VENV)

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

# Chromium for the browser tests, poppler-utils for PDF pages as PNG: Debian packages,
# installed when missing and running as root (never `playwright install`).
system-deps:
	@missing=""; \
	command -v chromium >/dev/null 2>&1 || missing="$$missing chromium"; \
	command -v pdftoppm >/dev/null 2>&1 || missing="$$missing poppler-utils"; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "installing$$missing"; \
	    for try in 1 2; do \
	      apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null && break; \
	      [ $$try = 2 ] && exit 1; echo "apt-get failed; trying once more"; sleep 5; \
	    done; \
	  else \
	    echo "note: missing$$missing (not root): the tests that need them are skipped"; \
	  fi; \
	fi

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: install
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

bench: setup
	$(BIN)/python -m bench

clean:
	rm -rf $(VENV) db.sqlite3 staticfiles test-artifacts
