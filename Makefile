# aloftnb set-up and tests. On a fresh machine these two do everything (see README):
#   make lab    create .venv, install aloftnb into it, open JupyterLab on the start-here notebook
#   make test   the same venv with the test extra, Debian's chromium if missing, the whole suite
# Useful knobs: make test PYTEST_FLAGS='-m "not browser" -x'   make lab LAB_FLAGS='--no-browser'
#               JUPYTER_PORT=9999 make lab   PYTHON=python3.12 make test   CHROMIUM=/path make test
#   make compiled  the rules engines compiled with mypyc beside their source (make test builds
#               them when a C compiler is found; edited sources fall back to pure Python)
#   make wheel  dist/: a pure-Python wheel, and one for this Python and platform with the
#               compiled build inside (as black and mypy ship)
#   make lite   the JupyterLite site (the boards in the browser, no server) in build/lite;
#   make lite-serve  serves it on http://127.0.0.1:8000 (LITE_PORT=...)

SHELL := /bin/bash
.SHELLFLAGS := -euo pipefail -c
.DEFAULT_GOAL := help

PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
PIP := $(BIN)/python -m pip
PIP_FLAGS := --disable-pip-version-check --no-input --progress-bar off
# The test venv and the site's build tools skip byte-compiling every installed module (about 10 s
# of make test's set-up); Python compiles what it imports. `make lab` installs as pip does.
NO_COMPILE := --no-compile
NOTEBOOK ?= notebooks/00-start-here.ipynb
# aloftnb's server extension: TCP_NODELAY on kernel websockets, so a click redraws in ~15 ms, not ~50.
LAB_EXTENSION := --ServerApp.jpserver_extensions="{'aloftnb.jupyter': True}"
CHROMIUM ?= /usr/bin/chromium
LAB_FLAGS ?=
PYTEST_FLAGS ?=
ALLOW_ROOT := $(if $(filter 0,$(shell id -u)),--allow-root,)

# The notebook checks (tests/test_newcomer_environments.py): every notebook in notebooks/ re-run
# under nbval in a kernel of the venv `make lab` makes, its outputs compared with the committed
# ones, and re-run in the environment Binder makes from binder/.
NEWCOMER_TESTS := tests/test_newcomer_environments.py
PYTEST := $(BIN)/python -m pytest --durations=30
# pytest on every core (pytest-xdist): the longest tests start first, one on each process
# (tests/conftest.py).
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
PARALLEL := -n $(JOBS) --dist load

.PHONY: help lab lab-venv test test-setup test-fast lint notebooks browser bench-clicks chromium venv clean \
        lite lite-serve lite-test npm compiled compiled-if-possible wheel

help:
	@echo "make lab        open JupyterLab on $(NOTEBOOK) (sets up .venv first)"
	@echo "make test       the whole suite on every core: unit, property, notebooks, browser (lite too)"
	@echo "make test-fast  unit and property tests only"
	@echo "make lint       ruff on the package, tests and lite/, mypy on the package (--strict on core, kit, playtest)"
	@echo "make notebooks  the notebooks only: nbval in make lab's venv, and a run in Binder's"
	@echo "make browser    the real-browser tests only"
	@echo "make bench-clicks  click-to-redraw on every board, stock vs tuned server"
	@echo "make compiled   compile the rules engines with mypyc (pure Python stays the fallback)"
	@echo "make wheel      dist/: a pure-Python wheel and one with the compiled build inside"
	@echo "make lite       build the JupyterLite site (no server, offline) into $(LITE_OUT)"
	@echo "make lite-serve serve it on http://127.0.0.1:$(LITE_PORT)"
	@echo "make lite-test  build it and run its real-browser test"
	@echo "make clean      remove .venv and the site's build folders"

# -- the virtual environment ---------------------------------------------------------------------
$(BIN)/python:
	@echo "==> creating $(VENV) with $(PYTHON) ($$($(PYTHON) --version 2>&1))"
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "aloftnb needs Python >= 3.11; set PYTHON=...")'
	$(PYTHON) -m venv --clear $(VENV)

# Stamps: reinstall only when pyproject.toml changes (the install is editable, so code changes
# need nothing). `make lab` installs the notebooks extra, as Binder does (binder/requirements.txt),
# so every notebook runs where a newcomer opens it (tests/test_newcomer_environments.py builds
# this venv with `make lab-venv VENV=...` and runs them all in it).
$(VENV)/.installed: pyproject.toml | $(BIN)/python
	@echo "==> installing aloftnb[notebooks] (editable) into $(VENV)"
	$(PIP) install $(PIP_FLAGS) -e '.[notebooks]'
	@touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	@echo "==> installing aloftnb[test] (editable) into $(VENV)"
	$(PIP) install $(PIP_FLAGS) $(NO_COMPILE) -e '.[test]'
	@touch $@ $(VENV)/.installed

venv: $(VENV)/.installed-test

lab-venv: $(VENV)/.installed

# -- JupyterLab ----------------------------------------------------------------------------------
lab: lab-venv
	@test -f "$(NOTEBOOK)" || { echo "make lab: $(NOTEBOOK) not found" >&2; exit 1; }
	@echo "==> JupyterLab on $(NOTEBOOK), port $${JUPYTER_PORT:-8888} (JUPYTER_PORT), Ctrl-C to stop"
	@# root_dir: the repository, so the docs and sources the notebooks link to are in the file
	@# browser (given only a file, jupyter_server would serve the file's own folder).
	$(BIN)/jupyter lab "$(NOTEBOOK)" --ServerApp.root_dir="$(CURDIR)" $(ALLOW_ROOT) $(LAB_EXTENSION) $(LAB_FLAGS)

# -- Debian's chromium for the browser tests (never a downloaded browser) ------------------------
# `make test` sets up chromium and the site's npm side by side: their apt-get runs take turns
# (two at once fight over dpkg's lock).
APT_ONE_AT_A_TIME := flock /tmp/aloftnb-apt-get.lock

chromium:
	@if [ -x "$(CHROMIUM)" ]; then \
	  echo "==> browser: $(CHROMIUM)"; \
	else \
	  echo "==> $(CHROMIUM) not found: installing Debian's chromium with apt-get"; \
	  if [ "$$(id -u)" -eq 0 ]; then sudo=""; \
	  elif command -v sudo >/dev/null; then sudo="sudo"; \
	  else echo "make: installing chromium needs root or sudo" >&2; exit 1; fi; \
	  $$sudo $(APT_ONE_AT_A_TIME) apt-get update -q; \
	  $$sudo $(APT_ONE_AT_A_TIME) env DEBIAN_FRONTEND=noninteractive apt-get install -y -q -o Dpkg::Use-Pty=0 \
	    chromium fonts-liberation; \
	  test -x /usr/bin/chromium || { echo "make: apt-get gave no /usr/bin/chromium" >&2; exit 1; }; \
	fi

# -- tests ---------------------------------------------------------------------------------------
# $(1): "notebooks" to also check that every notebook was committed run (nbval compares nothing in
# a cell saved without an execution count); $(2): what pytest runs; $(3): "lint" to run ruff and
# mypy first. pytest's exit code goes through unchanged (5, nothing collected, fails like any
# other); a notebook or lint problem fails the run too, after pytest has reported everything else.
NOTEBOOK_CHECK := $(BIN)/python tests/check_notebooks_committed.py
# mypy on the whole package, then --strict on the game-agnostic core, the kit and playtesting
# (what they import from elsewhere is analysed but reported by the first run only).
STRICT := aloftnb/core aloftnb/kit aloftnb/playtest
LINT := $(BIN)/ruff check aloftnb tests lite compiled && $(BIN)/mypy \
        && $(BIN)/mypy --strict --follow-imports=silent $(STRICT)

# The lint runs beside pytest (pytest keeps one core busy, mypy the other); its report is printed
# once pytest ends.
define run_pytest
	@status=0; checked=0; linted=0; notes=""; lint_pid=""; SECONDS=0; \
	lint_log=$$(mktemp); trap 'rm -f "$$lint_log"' EXIT; \
	if [ "$(3)" = lint ]; then echo '==> ruff check aloftnb tests lite compiled; mypy (aloftnb); mypy --strict ($(STRICT)), beside pytest'; \
	  ( $(LINT) ) > "$$lint_log" 2>&1 & lint_pid=$$!; fi; \
	if [ "$(1)" = notebooks ]; then notes=$$($(NOTEBOOK_CHECK) 2>&1) || checked=$$?; echo "$$notes"; fi; \
	echo '==> pytest $(2) $(PYTEST_FLAGS)'; \
	ALOFTNB_CHROMIUM="$$( [ -x "$(CHROMIUM)" ] && echo "$(CHROMIUM)" || echo /usr/bin/chromium )" \
	  $(PYTEST) $(2) $(PYTEST_FLAGS) || status=$$?; \
	if [ $$status -eq 5 ]; then echo "make: pytest collected no tests: failing" >&2; fi; \
	echo "==> pytest exit $$status after $$SECONDS s"; \
	if [ -n "$$lint_pid" ]; then wait $$lint_pid || linted=$$?; \
	  echo '==> ruff and mypy:'; cat "$$lint_log"; fi; \
	if [ $$checked -ne 0 ]; then echo "$$notes" >&2; echo "make: failing: notebooks not committed with outputs" >&2; fi; \
	if [ $$linted -ne 0 ]; then echo "make: failing: ruff or mypy found problems (above)" >&2; fi; \
	if [ $$status -ne 0 ]; then exit $$status; fi; if [ $$checked -ne 0 ]; then exit $$checked; fi; \
	exit $$linted
endef

# The browser tests include the JupyterLite site's (tests/browser/test_lite.py): `make lite`
# builds it first (about 40 s from nothing, 15-26 s once build/lite-venv exists).
test browser: export ALOFTNB_LITE_SITE = $(CURDIR)/$(LITE_OUT)

# The set-up's two branches run side by side: the venv and then the compiled build on one core,
# Debian's chromium and then the JupyterLite site (its own venv) on the other.
test-setup: $(VENV)/.installed-test chromium lite compiled-if-possible

# The two environments a newcomer opens the notebooks in (tests/newcomer_environments.py) are
# built in the background from the start, at low priority: the set-up leaves a core idle much of
# its time, and their installs take minutes of one. Their tests wait for them.
NEWCOMER_ENVS := $(CURDIR)/build/newcomer
define start_newcomer_envs
	@mkdir -p "$(NEWCOMER_ENVS)"; rm -f "$(NEWCOMER_ENVS)"/*/result.json
	@for name in lab binder; do \
	  nohup nice -n 15 $(PYTHON) tests/newcomer_environments.py $$name "$(NEWCOMER_ENVS)" \
	    > "$(NEWCOMER_ENVS)/$$name.log" 2>&1 < /dev/null & \
	done; echo "==> building the newcomer environments in the background ($(NEWCOMER_ENVS))"
endef

test: export ALOFTNB_NEWCOMER_ENVS = $(NEWCOMER_ENVS)
test:
	$(start_newcomer_envs)
	@$(MAKE) --no-print-directory -j2 --output-sync=target test-setup
	$(call run_pytest,notebooks,tests $(PARALLEL),lint)

lint: $(VENV)/.installed-test
	$(LINT)

test-fast: $(VENV)/.installed-test
	$(call run_pytest,,tests -m "not browser" --ignore=$(NEWCOMER_TESTS) $(PARALLEL))

notebooks: export ALOFTNB_NEWCOMER_ENVS = $(NEWCOMER_ENVS)
notebooks:
	$(start_newcomer_envs)
	@$(MAKE) --no-print-directory $(VENV)/.installed-test
	$(call run_pytest,notebooks,$(NEWCOMER_TESTS) $(PARALLEL))

browser: $(VENV)/.installed-test chromium lite
	$(call run_pytest,,tests/browser)

# Click to redraw, measured in the browser, on a stock server and one with aloftnb.jupyter.
bench-clicks: $(VENV)/.installed-test chromium
	ALOFTNB_CHROMIUM="$(CHROMIUM)" $(BIN)/python tests/browser/bench_clicks.py $(BENCH_FLAGS)

# -- the compiled build: the same source compiled with mypyc (see compiled/build.py) ------------
# Beside the sources, ignored by git and left out of the wheel; aloftnb runs it only while every
# source is as it was built (a rule edited since runs as pure Python, with a warning). Nothing is
# compiled when the sources are those of the last build.
define compile
	mkdir -p build; SECONDS=0; \
	$(BIN)/python compiled/build.py > build/compiled.log 2>&1 || { tail -30 build/compiled.log >&2; \
	  echo "make: the compiled build failed (log: build/compiled.log)" >&2; exit 1; }; \
	echo "==> $$(tail -1 build/compiled.log) ($$SECONDS s)"
endef

compiled: $(VENV)/.installed-test
	@echo "==> compiling the rules engines with mypyc (about 1.5 min of CPU)"
	@$(compile)

# The two wheels, as black and mypy ship: py3-none-any (runs everywhere, JupyterLite's) and one
# for this Python and platform with the compiled build inside (compiled/wheel.py).
wheel: compiled
	$(BIN)/python compiled/wheel.py --out dist

# `make test` checks the compiled build beside the pure one when a C compiler is there.
compiled-if-possible: $(VENV)/.installed-test
	@if why=$$($(BIN)/python compiled/build.py --check); then \
	  echo "==> compiling the rules engines with mypyc (about 1.5 min of CPU)"; $(compile); \
	else echo "==> $$why: testing the pure Python build only"; fi

# -- the JupyterLite site: the boards in the browser's own Python, no server --------------------
# Built in its own venv (never .venv) from the package registries only: see lite/build.py.
LITE_VENV := build/lite-venv
LITE_OUT ?= build/lite
LITE_PORT ?= 8000

$(LITE_VENV)/.installed: lite/requirements-build.txt
	@echo "==> creating $(LITE_VENV) (the site's build tools)"
	$(PYTHON) -m venv --clear $(LITE_VENV)
	$(LITE_VENV)/bin/python -m pip install $(PIP_FLAGS) $(NO_COMPILE) -r lite/requirements-build.txt
	@touch $@

# pyodide comes from the npm registry: Node.js's npm, from Debian's packages if missing.
npm:
	@if command -v npm >/dev/null; then echo "==> npm $$(npm --version)"; else \
	  echo "==> npm not found: installing Debian's npm with apt-get"; \
	  if [ "$$(id -u)" -eq 0 ]; then sudo=""; \
	  elif command -v sudo >/dev/null; then sudo="sudo"; \
	  else echo "make: installing npm needs root or sudo" >&2; exit 1; fi; \
	  $$sudo $(APT_ONE_AT_A_TIME) apt-get update -q; \
	  $$sudo $(APT_ONE_AT_A_TIME) env DEBIAN_FRONTEND=noninteractive apt-get install -y -q -o Dpkg::Use-Pty=0 npm; \
	fi

lite: $(LITE_VENV)/.installed npm
	$(LITE_VENV)/bin/python lite/build.py --out "$(LITE_OUT)"

lite-serve:
	@test -f "$(LITE_OUT)/index.html" || $(MAKE) lite
	@echo "==> serving $(LITE_OUT) on http://127.0.0.1:$(LITE_PORT)/ (Ctrl-C to stop)"
	$(PYTHON) -m http.server $(LITE_PORT) --bind 127.0.0.1 --directory "$(LITE_OUT)"

# The site's real-browser test alone (tests/browser/test_lite.py), on a site built here and now.
lite-test: export ALOFTNB_LITE_SITE = $(CURDIR)/$(LITE_OUT)
lite-test: $(VENV)/.installed-test chromium lite
	$(call run_pytest,,tests/browser/test_lite.py)

clean:
	rm -rf $(VENV) $(LITE_VENV) build/lite build/lite-work build/lite-cache build/compiled \
	  build/newcomer
	find aloftnb -name '*.so' -delete; rm -f aloftnb/_compiled.json aloftnb_compiled__mypyc.*

