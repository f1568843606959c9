# The edition's two entry points are `make serve` and `make test` (see README.md).
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PORT ?= 8000
SCANS_SOURCE ?= ../shared/scans
export NO_MKDOCS_2_WARNING := 1
# Reproducible builds: dates in the built site (the sitemap) are the last commit's.
export SOURCE_DATE_EPOCH ?= $(shell git log -1 --format=%ct 2>/dev/null || echo 0)

# make audit: Lighthouse scores of every chapter (not part of make test).
# make screenshots: every chapter's board mid-game at 1280 and 390 px (not a test).
# make odds: the odds of every reading into docs/data/odds/ (long; resumable; not a test).
#   make odds ODDS_ARGS="--games nestor --deals 100"; see build_scripts/odds.py.
.PHONY: odds screenshots audit serve build test test-engine test-pyodide test-browser test-scans test-site typecheck bench scans scans-report clean deps

deps: $(VENV)/.stamp node_modules/.stamp

$(VENV)/.stamp: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[site,test]'
	touch $@

node_modules/.stamp: package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $@

# Page scans: copied from SCANS_SOURCE (a folder) or fetched from their source URL, each
# checked against scans/manifest. Never fatal: the build draws diagrams when scans are absent.
scans: $(VENV)/.stamp
	-$(PY) -m build_scripts.scanlib.fetch --source "$(SCANS_SOURCE)"

build: deps scans
	$(PY) -m mkdocs build --strict

serve: build
	$(PY) -m build_scripts.serve --root site --host 127.0.0.1 --port $(PORT)

typecheck: $(VENV)/.stamp
	$(PY) -m mypy

test-engine: $(VENV)/.stamp
	$(PY) -m pytest tests/engine -q

# The tests on every core (pytest-xdist; tests/conftest.py orders them and hands them out).
test: build typecheck
	$(PY) -m pytest -q -n auto --durations=15

bench: build
	$(PY) bench/run.py

audit: build
	$(PY) bench/audit.py

odds: $(VENV)/.stamp
	$(PY) -m build_scripts.odds $(ODDS_ARGS)

screenshots: build
	$(PY) -m build_scripts.screenshots --site site --out .cache/screenshots

scans-report: $(VENV)/.stamp scans
	$(PY) -m build_scripts.scanlib.report

clean:
	rm -rf site .cache
