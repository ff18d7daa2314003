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


.PHONY: vendor run run-port-free two-nodes soak soak-ops soak-short soak-builder soak-engine dev test test-py312 setup setup-production install system-deps lint format bench clean mutation

# -- production: `make run` = the web server + the render worker, DEBUG off ---------
# One command starts both: supervisord (armybuilder/ops/supervisord.conf) runs granian
# (armybuilder/ops/serve.py) and WORKERS render workers, and starts again any that exits.
# DJANGO_HTTPS=0 because make run serves plain HTTP (behind a TLS proxy set DJANGO_HTTPS=1,
# see docs/deploying.md).
WORKERS ?= 1
PRODUCTION := DJANGO_SETTINGS_MODULE=armybuilder.settings_production DJANGO_HTTPS=$${DJANGO_HTTPS:-0}
RUN_DIR ?= $(CURDIR)/$(VENV)/run

# A port another server (another make run) already holds is refused before anything starts.
run: install run-port-free setup-production
	@mkdir -p $${MUSTER_RUN_DIR:-$(RUN_DIR)}
	$(PRODUCTION) MUSTER_RUN_DIR=$${MUSTER_RUN_DIR:-$(RUN_DIR)} MUSTER_RENDER_WORKERS=$(WORKERS) \
	  $(BIN)/supervisord -c armybuilder/ops/supervisord.conf

run-port-free: install
	@$(BIN)/python -m armybuilder.ops.serve --check

# migrate and load-lists under a PostgreSQL advisory lock: hosts sharing one database may
# all start at once, one migrates while the others wait (armybuilder/ops/.../muster_migrate.py)
setup-production: install staticfiles/.collected
	$(PRODUCTION) $(MANAGE) muster_migrate

# collectstatic hashes and compresses every file each time (half a minute on two cores):
# it runs again only when a static file or the installed packages changed.
staticfiles/.collected: $(shell find static rules -type f -not -path '*/__pycache__/*' 2>/dev/null) $(STAMP) $(wildcard $(PYODIDE_DIR)/.verified)
	$(PRODUCTION) $(MANAGE) collectstatic --noinput --verbosity 0
	touch $@

# Two nodes, one site (docs/deploying.md, "Deploying on two or more hosts"): two web servers and two
# workers on different ports share one PostgreSQL and one Redis (a redis-server of its own),
# and a player's edits, share pages, list changes, rate limits and renders go through both.
# The database is its own, on MUSTER_TEST_POSTGRES (default postgres://postgres@127.0.0.1:5432):
# a name no one else has (muster_two_nodes_<pid>_<random>), made and then dropped, and no
# other database of that server touched: safe to run where anything else lives.
two-nodes: install
	$(BIN)/pytest -v -p no:xdist -p no:cacheprovider tests/web/ops/test_serve_two_nodes.py

# make soak runs every soak: the builder's random journeys, the operations' faults, and the
# page engine against the server's.
soak: soak-builder soak-ops soak-engine

# The page's engine against the server's (tests/engine/): ARMIES random armies of every rule
# set checked by Pyodide under Node and by the JSON API, and GAMES random combats, removals,
# rallies and morale rolls, and LIST_EDITS runs of random edits of own lists tried by both;
# prints the counts and fails on any difference.
ARMIES ?= 2000
GAMES ?= 1000
LIST_EDITS ?= 300
soak-engine: setup
	MUSTER_PARITY_ARMIES=$(ARMIES) MUSTER_PARITY_GAMES=$(GAMES) MUSTER_PARITY_LIST_EDITS=$(LIST_EDITS) \
	  $(BIN)/pytest -p no:xdist -q -s tests/engine tests/web/catalog/test_list_trial_parity.py

# A soak (docs/deploying.md, "Soak"): two `make run` nodes on RQ for SOAK_SECONDS (180), or
# until every fault has run, while PostgreSQL stops (15 s, 60 s), Redis is killed and paused
# (30 s each), a render worker, a web process and granian's main process are SIGKILLed, and
# four signed-in players edit and print throughout; then every acknowledged edit is checked
# against its own revision, every asked render counted ready / failed / stuck, the health
# endpoints' recovery times printed, and one summary line of counts. SOAK_OUTAGE_SCALE
# shortens the outages. Loopback only, its own PostgreSQL and Redis (needs root); not part of
# make test. soak-short is the one CI runs.
soak-ops: install
	$(BIN)/python -m tests.web.ops.soak

soak-short: install
	SOAK_SECONDS=$${SOAK_SECONDS:-90} SOAK_OUTAGE_SCALE=$${SOAK_OUTAGE_SCALE:-0.2} \
	  $(BIN)/python -m tests.web.ops.soak

# Many seeded random builder journeys (tests/browser/test_builder_random_journeys.py):
# SEEDS=200 by default; prints how many passed.
SEEDS ?= 200
soak-builder: setup
	@mkdir -p test-artifacts
	-MUSTER_SOAK_SEEDS=$(SEEDS) $(BIN)/pytest -p no:xdist -q -rN -k test_soak_random_journeys \
	  tests/browser/test_builder_random_journeys.py | tee test-artifacts/soak-builder.log | tail -1
	@n=$$(grep -o "[0-9]* passed" test-artifacts/soak-builder.log | cut -d" " -f1); \
	  echo "builder journeys: $${n:-0} of $(SEEDS) seeds passed"

# The autoreloading development server, DEBUG on; PDFs render inside the request.
dev: setup
	MUSTER_TASK_BACKEND=immediate $(MANAGE) runserver 127.0.0.1:8000

# The suite runs on TEST_WORKERS processes (pytest-xdist; 0 runs it in this one), a test
# file to a process, so the files that share a Redis database never run side by side.
# PYTEST_ARGS are passed on (e.g. PYTEST_ARGS='-m "not own_databases"').
TEST_WORKERS ?= 2
test: setup system-deps
	$(BIN)/pytest $(if $(filter 0,$(TEST_WORKERS)),,-n $(TEST_WORKERS) --dist loadfile) $(PYTEST_ARGS)

# The rules engine and the API on the other supported Python (3.12), in its own venv.
# CI runs the whole suite on the first Python found (3.13) and this on 3.12 when present.
PY312 ?= $(firstword $(foreach p,python3.12 $(wildcard $(HOME)/.pyenv/versions/3.12*/bin/python3) $(wildcard $(shell pyenv root 2>/dev/null)/versions/3.12*/bin/python3),$(shell $(p) -c 'import sys; sys.exit(sys.version_info[:2] != (3, 12))' >/dev/null 2>&1 && echo $(p))))
VENV312 := .venv312
PY312_TESTS := tests/rules tests/web/api tests/test_architecture.py

test-py312:
	@test -n "$(PY312)" || { echo "no Python 3.12 here: the 3.12 run is skipped"; exit 0; }; \
	test -x $(VENV312)/bin/python || $(PY312) -m venv $(VENV312); \
	test -f $(VENV312)/.installed-stamp -a $(VENV312)/.installed-stamp -nt pyproject.toml || \
	  { $(VENV312)/bin/python -m pip install --quiet --upgrade pip && \
	    $(VENV312)/bin/python -m pip install --quiet -e '.[dev]' && touch $(VENV312)/.installed-stamp; }; \
	$(VENV312)/bin/python --version; \
	$(VENV312)/bin/pytest -q -n $(TEST_WORKERS) --dist loadfile $(PY312_TESTS)

setup: install
	$(MANAGE) migrate --noinput
	$(MANAGE) muster load-lists

install: $(STAMP) vendor

# The page engine's runtime (armybuilder/pageengine.py): Pyodide from the npm registry, at the
# version and sha256 pinned in armybuilder/runtime_pin.py, unpacked into vendor/ (git-ignored,
# 12 MB) and served as static files. Fetched once; a changed pin fetches the new one. Without
# npm (and not root to install it) the pages show the server's figures only.
PIN := armybuilder/runtime_pin.py
PYODIDE_VERSION := $(shell sed -n 's/^PYODIDE_VERSION = "\(.*\)"/\1/p' $(PIN))
PYODIDE_SHA256 := $(shell sed -n 's/^PYODIDE_SHA256 = "\(.*\)"/\1/p' $(PIN))
PYODIDE_DIR := vendor/pyodide-$(PYODIDE_VERSION)
PYODIDE_FILES := pyodide.mjs pyodide.mjs.map pyodide.asm.mjs pyodide.asm.wasm python_stdlib.zip \
  pyodide-lock.json package.json README.md
vendor: $(PYODIDE_DIR)/.verified $(PYODIDE_DIR)/.compressed

# The wasm compressed once here, not by every collectstatic (brotli takes a minute on it):
# WhiteNoise serves these beside it and skips compressing .wasm (settings_production.py).
$(PYODIDE_DIR)/.compressed: $(PYODIDE_DIR)/.verified | $(STAMP)
	@if [ -f $(PYODIDE_DIR)/pyodide.asm.wasm ]; then \
	  gzip -9 -k -f $(PYODIDE_DIR)/pyodide.asm.wasm && \
	  $(BIN)/python -c 'import brotli, sys; p = sys.argv[1]; open(p + ".br", "wb").write(brotli.compress(open(p, "rb").read()))' \
	    $(PYODIDE_DIR)/pyodide.asm.wasm && touch $@; fi

$(PYODIDE_DIR)/.verified: $(PIN)
	@command -v npm >/dev/null 2>&1 || { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 && \
	  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm >/dev/null; }; } || true
	@if ! command -v npm >/dev/null 2>&1; then \
	  echo "note: npm missing: the page engine is off (pages show the server's figures)"; \
	else \
	  tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT && \
	  for try in 1 2 3; do (cd "$$tmp" && npm pack --silent pyodide@$(PYODIDE_VERSION) >/dev/null) && break; \
	    [ $$try = 3 ] && exit 1; echo "npm pack failed; trying again"; sleep 5; done && \
	  echo "$(PYODIDE_SHA256)  $$tmp/pyodide-$(PYODIDE_VERSION).tgz" | sha256sum -c --quiet - && \
	  rm -rf $(PYODIDE_DIR) && mkdir -p $(PYODIDE_DIR) && \
	  tar xzf "$$tmp/pyodide-$(PYODIDE_VERSION).tgz" -C $(PYODIDE_DIR) --strip-components=1 \
	    $(addprefix package/,$(PYODIDE_FILES)) && \
	  touch $@ && echo "vendored Pyodide $(PYODIDE_VERSION) (sha256 verified)"; \
	fi

$(BIN)/python:
	@test -n "$(PYTHON)" || { echo "Muster needs Python 3.12 or newer (python3.13 or python3.12)"; exit 1; }
	$(PYTHON) -m venv $(VENV)

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

# Chromium for the browser tests, poppler-utils for PDF pages as PNG, redis-server for the
# tests that start a Redis of their own, postgresql-client for `muster backup`/`restore` on
# PostgreSQL (pg_dump, pg_restore): Debian packages, installed when missing and running as
# root (never `playwright install`).
system-deps:
	@missing=""; \
	command -v chromium >/dev/null 2>&1 || missing="$$missing chromium"; \
	command -v pdftoppm >/dev/null 2>&1 || missing="$$missing poppler-utils"; \
	command -v redis-server >/dev/null 2>&1 || missing="$$missing redis-server"; \
	command -v pg_dump >/dev/null 2>&1 || missing="$$missing postgresql-client"; \
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

# The load section (bench/load.py) drives the web server (as make run starts it) with
# ApacheBench, then times the share page at rest and while three clients print. ab is
# Debian's apache2-utils, installed when missing and running as root (otherwise that
# section says so and is skipped).
bench: setup
	@command -v ab >/dev/null 2>&1 || { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 && \
	  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq apache2-utils >/dev/null; } || \
	  echo "note: ab (apache2-utils) missing: the load section is skipped"; }
	$(BIN)/python -m bench

# Mutation testing (mutmut; what it mutates and which fast tests run: pyproject [tool.mutmut]).
# One planted fault at a time; prints how many the tests caught. Measured, never asserted,
# not part of `make test`. MUTANTS picks the mutants that run (mutmut names, * allowed): the
# default is the path a document's values are checked by (the parser's parse_value and the
# text rule's one-line check, 268 mutants, 4.5 minutes on two quiet cores). Wider: MUTANTS='rules.text.* rules.fields.*', MUTANTS='rules.*'
# (the engine root), MUTANTS='armybuilder.*' (the armies services), MUTANTS= (everything).
MUTANTS ?= rules.fields.x_parse_value* rules.text.x_check_text* rules.text.x_text_problem* \
  rules.text.x__bad_char* rules.text.x_repair_text*
MUTATION_WORKERS ?= 2
MUTATION_SCORE := import collections, json, pathlib; \
  from mutmut.stats import status_by_exit_code as status; \
  codes = [c for meta in pathlib.Path("mutants").rglob("*.meta") \
    for c in json.loads(meta.read_text())["exit_code_by_key"].values() if c is not None]; \
  count = collections.Counter(status[c] for c in codes); killed = count["killed"]; \
  print(f"mutation score: {killed}/{len(codes)} mutants killed"); \
  print("  " + ", ".join(f"{n} {name}" for name, n in count.most_common()))

mutation: install
	rm -rf mutants
	$(BIN)/mutmut run --max-children $(MUTATION_WORKERS) $(foreach m,$(MUTANTS),'$(m)')
	@$(BIN)/python -c '$(MUTATION_SCORE)'
	@echo "  survivors: $(BIN)/mutmut results, then $(BIN)/mutmut show NAME"
	@echo "  wider: make mutation MUTANTS='rules.*' (or MUTANTS= for every configured mutant)"

clean:
	rm -rf $(VENV) $(VENV312) db.sqlite3 staticfiles test-artifacts mutants vendor
