# The workbook's two everyday commands, `make lab` and `make test`, each create .venv when it is missing.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
# Two stamps: the learner's install (requirements.txt) and the test tools on top of it (requirements-test.txt,
# and the hub test's proxy from npm, NODE_STAMP).
LAB_STAMP  := $(VENV)/.lab-installed
TEST_STAMP := $(VENV)/.test-installed
# JupyterHub's proxy for the hub test, from npm: package.json pins it, package-lock.json pins what it needs.
# It is installed under .venv/node (git-ignored with .venv, removed by make clean), not into the checkout.
NODE_STAMP := $(VENV)/node/.installed

.PHONY: lab test test-quick notebooks bench clean help

help:
	@echo "make lab        set up .venv if needed and open the workbook in JupyterLab (chapter 00);"
	@echo "                make lab TRACK=es opens the Spanish track (notebooks/es/00_empieza_aqui.ipynb)"
	@echo "make test       set up .venv (and Debian's Chromium) if needed and run the whole test suite: unit, property,"
	@echo "                notebooks (nbval), every chapter in JupyterLab in headless Chromium, a Binder-like environment,"
	@echo "                twenty learners on a real JupyterHub with the nbgitpuller link (needs Node.js and npm)"
	@echo "make test-quick the same without the browser, Binder-like and hub tests (pytest reports them as deselected)"
	@echo "make notebooks  Restart & Run All: re-execute every chapter of both tracks in place, top to bottom"
	@echo "make bench      run the throughput benchmarks"

$(LAB_STAMP): requirements.txt binder/requirements.txt pyproject.toml binder/overrides.json
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null || \
	  { echo "The workbook needs Python 3.11 or newer as '$(PYTHON)'. Try: make PYTHON=python3.11 ..." >&2; exit 1; }
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements.txt
	$(BIN)/python binder/install_lab_settings.py
	@touch $(LAB_STAMP)

$(TEST_STAMP): $(LAB_STAMP) $(NODE_STAMP) requirements-test.txt
	$(BIN)/python -m pip install --quiet -r requirements-test.txt
	@touch $(TEST_STAMP)

# Without npm, nothing is installed here and the hub test fails saying what is missing; the rest still runs.
$(NODE_STAMP): package.json package-lock.json
	@if command -v npm >/dev/null; then \
	  mkdir -p $(VENV)/node && cp package.json package-lock.json $(VENV)/node/ && \
	  (cd $(VENV)/node && npm ci --no-audit --no-fund --loglevel=error) && touch $@; \
	else echo "npm not found: the hub test will fail (install Node.js and npm, e.g. apt-get install nodejs npm)" >&2; fi

# Jupyter refuses to run as root unless told; containers and CI machines often are root.
ROOT_FLAG := $(if $(filter 0,$(shell id -u)),--allow-root)

# The track JupyterLab opens at: `make lab` (English), `make lab TRACK=es` (Spanish, notebooks/es/).
TRACK ?= en
START_en := notebooks/00_start_here.ipynb
START_es := notebooks/es/00_empieza_aqui.ipynb

lab: $(LAB_STAMP)
	@test -n "$(START_$(TRACK))" || { echo "TRACK must be en or es, got '$(TRACK)'" >&2; exit 1; }
	$(BIN)/jupyter lab $(ROOT_FLAG) --ServerApp.root_dir="$(CURDIR)" --LabApp.default_url=/lab/tree/$(START_$(TRACK))

# Two pytest runs, one suite: the unit, property, docstring and notebook tests on two processes (pytest-xdist;
# --dist loadfile keeps each file, so each notebook's cells, in one process, in order), then the browser,
# Binder-like and hub tests one at a time, since each starts servers of its own.
test: $(TEST_STAMP)
	@tools/ensure_chromium.sh
	$(BIN)/python -m pytest -n 2 --dist loadfile -m "not browser and not binder and not hub"
	$(BIN)/python -m pytest -m "browser or binder or hub"

# For a machine without Chromium, Node or access to PyPI: the browser, Binder-like and hub tests are left out on
# purpose, and pytest's summary says how many ("N deselected").
test-quick: $(TEST_STAMP)
	$(BIN)/python -m pytest -m "not browser and not binder and not hub"

notebooks: $(TEST_STAMP)
	$(BIN)/python tools/run_notebooks.py notebooks/[0-9][0-9]_*.ipynb notebooks/es/[0-9][0-9]_*.ipynb

bench: $(LAB_STAMP)
	@for script in benchmarks/bench_*.py; do echo "== $$script"; $(BIN)/python $$script || exit 1; done

clean:
	rm -rf $(VENV) build .pytest_cache .hypothesis
