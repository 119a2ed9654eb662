# Two entry points for people: `make demo` and `make test`. Both create .venv when missing.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# Two stamps, one .venv: the demo's (the project and its runtime dependencies only) and the test
# tools' (the [dev] extras on top). `make demo` then `make test`, or the reverse, share the venv;
# each reinstalls only when the project's dependency list changes.
DEMO_STAMP := $(VENV)/.installed-demo
STAMP := $(VENV)/.installed
# No .pyc for every installed module up front: Python writes those it imports when it first
# does, and compiling the rest (phonenumbers alone ships thousands) costs about 40 MB and several
# seconds of a newcomer's first `make demo` (benchmarks/bench_demo_setup.py).
PIP_INSTALL := $(BIN)/python -m pip install --quiet --no-compile

.PHONY: demo test lint typecheck pytest bench clean postgres-server deploy-tools browser webapp-screenshot console-screenshots

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# A newer pip first: the one a fresh venv brings resolves and installs the same set about twice
# as slowly. With it a current setuptools, which builds the project in the venv itself instead
# of in a throwaway one pip would first fill (pyproject.toml's [build-system]).
$(DEMO_STAMP): pyproject.toml | $(BIN)/python
	$(PIP_INSTALL) --upgrade pip 'setuptools>=68'
	$(PIP_INSTALL) --no-build-isolation -e .
	touch $(DEMO_STAMP)

# The test tools include everything the demo needs, so this stamps the demo's install too.
$(STAMP): pyproject.toml | $(BIN)/python
	$(PIP_INSTALL) --upgrade pip 'setuptools>=68'
	$(PIP_INSTALL) --no-build-isolation -e '.[dev]'
	touch $(STAMP) $(DEMO_STAMP)

demo: $(DEMO_STAMP)
	$(BIN)/deliverybot demo

test: $(STAMP) lint typecheck pytest

lint: $(STAMP)
	$(BIN)/ruff check bot conversations tests benchmarks
	$(BIN)/ruff format --check bot conversations tests benchmarks

typecheck: $(STAMP)
	$(BIN)/mypy --strict bot conversations

# Four workers on two cores: much of the suite's time is waited, not computed (real processes
# starting, leases and rate windows running out in real time, the end-to-end tests' instances),
# so more workers than cores overlap the waits (each worker starts its own PostgreSQL server;
# `.venv/bin/pytest` alone still runs everything in one process). Work is handed out a file at
# a time, in file order, as workers free up (a file's module fixtures, such as the wheel
# tests/deploy builds, are made once): xdist's default sends each worker a quarter of its
# share of single tests at once, which gave one worker nearly all of tests/e2e.
# --durations=25: every run ends with its 25 slowest tests, so the suite's budget (10 minutes
# on 2 cores) is watched where it is spent.
# The run's own settings, whatever the environment says:
# - Python caches what it compiles (PYTHONDONTWRITEBYTECODE dropped): pip installed without .pyc
#   (--no-compile) and every worker and every `deliverybot run` a test starts imports the same
#   modules, each compiling them again without the cache (pytest's collection alone: about 18 s
#   of CPU per worker instead of 7).
# - Temporary files on a tmpfs when the machine has a roomy one (TEST_TMPDIR): the tests make
#   thousands of SQLite files and PostgreSQL tables they throw away, and on a disk their commits,
#   TRUNCATEs and deletions wait for it (tests/store takes half the time in memory).
TEST_TMPDIR := $(shell df -Pk /dev/shm 2>/dev/null | awk 'NR == 2 && $$4 >= 4194304 { print "/dev/shm" }')
pytest: $(STAMP) postgres-server deploy-tools browser
	env -u PYTHONDONTWRITEBYTECODE $(if $(TEST_TMPDIR),TMPDIR=$(TEST_TMPDIR)) \
		$(BIN)/pytest -n 4 --dist loadfile --no-loadscope-reorder --durations=25

# The PostgreSQL tests and benchmarks start a throwaway server from the system's binaries
# (initdb, pg_ctl); install them when missing (sudo only when not root). The tests fail, never
# skip, when no server can be started.
postgres-server:
	@if ! command -v initdb >/dev/null 2>&1 && ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then \
		sudo=$$( [ "$$(id -u)" -eq 0 ] || echo sudo ); \
		echo "installing the PostgreSQL server binaries for the tests"; \
		$$sudo apt-get update -q && \
		{ $$sudo apt-get install -y -q postgresql-15 || $$sudo apt-get install -y -q postgresql; }; \
	fi

# The deployment kit's tests (tests/deploy) run the tools that read deploy/: Caddy and nginx
# each in front of two instances (and nginx -t), systemd-analyze verify, openssl for nginx's
# test certificate, and promtool (Debian's prometheus package) for the alerting rules and the
# metrics exposition.
# Installed like the PostgreSQL server when one is missing; the tests fail, never skip, without.
DEPLOY_TOOLS := caddy:caddy nginx:nginx-light systemd-analyze:systemd openssl:openssl promtool:prometheus
deploy-tools:
	@missing=""; for pair in $(DEPLOY_TOOLS); do \
		tool=$${pair%%:*}; package=$${pair#*:}; \
		command -v $$tool >/dev/null 2>&1 || [ -x /usr/sbin/$$tool ] || missing="$$missing $$package"; \
	done; \
	if [ -n "$$missing" ]; then \
		sudo=$$( [ "$$(id -u)" -eq 0 ] || echo sudo ); \
		echo "installing the deployment kit's test tools:$$missing"; \
		$$sudo apt-get update -q && $$sudo apt-get install -y -q --no-install-recommends $$missing; \
	fi

# The Mini App's tests (tests/webapp) drive a headless Chromium through Playwright, pointed at
# the system's browser (Playwright's own download is not needed). Installed like the tools
# above when missing; the tests fail, never skip, without it.
browser:
	@if ! command -v chromium >/dev/null 2>&1; then \
		sudo=$$( [ "$$(id -u)" -eq 0 ] || echo sudo ); \
		echo "installing Chromium for the Mini App's browser tests"; \
		$$sudo apt-get update -q && $$sudo apt-get install -y -q --no-install-recommends chromium; \
	fi

# docs/webapp-place.png: the "Pick on the map" page, drawn by the browser tests' set-up.
webapp-screenshot: $(STAMP) browser
	$(BIN)/python -m tests.webapp.screenshot docs/webapp-place.png

# docs/console-*.png: each page of the staff's console (sign-in, the deliveries list, a
# delivery's page, every page of its navigation) over a small seeded store, in a fixed window.
console-screenshots: $(STAMP) browser
	$(BIN)/python -m tests.staff_console.screenshots docs

bench: $(STAMP) postgres-server
	@for script in benchmarks/bench_*.py; do echo "== $$script"; $(BIN)/python $$script || exit 1; done

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache
