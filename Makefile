# The workbook's two everyday commands, `make lab` and `make test`, each create .venv when it is missing.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
# Two stamps: the learner's install (requirements.txt) and the test tools on top of it (requirements-test.txt).
LAB_STAMP  := $(VENV)/.lab-installed
TEST_STAMP := $(VENV)/.test-installed

.PHONY: lab test test-quick notebooks bench clean help

help:
	@echo "make lab        set up .venv if needed and open the workbook in JupyterLab (chapter 00)"
	@echo "make test       set up .venv (and Debian's Chromium) if needed and run the whole test suite: unit, property,"
	@echo "                notebooks (nbval), every chapter in JupyterLab in headless Chromium, a Binder-like environment"
	@echo "make test-quick the same without the browser and Binder-like tests (pytest reports them as deselected)"
	@echo "make notebooks  Restart & Run All: re-execute every chapter in place, top to bottom"
	@echo "make bench      run the throughput benchmarks"

$(LAB_STAMP): requirements.txt binder/requirements.txt pyproject.toml binder/overrides.json
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null || \
	  { echo "The workbook needs Python 3.11 or newer as '$(PYTHON)'. Try: make PYTHON=python3.11 ..." >&2; exit 1; }
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements.txt
	$(BIN)/python binder/install_lab_settings.py
	@touch $(LAB_STAMP)

$(TEST_STAMP): $(LAB_STAMP) requirements-test.txt
	$(BIN)/python -m pip install --quiet -r requirements-test.txt
	@touch $(TEST_STAMP)

# Jupyter refuses to run as root unless told; containers and CI machines often are root.
ROOT_FLAG := $(if $(filter 0,$(shell id -u)),--allow-root)

lab: $(LAB_STAMP)
	$(BIN)/jupyter lab $(ROOT_FLAG) --ServerApp.root_dir="$(CURDIR)" --LabApp.default_url=/lab/tree/notebooks/00_start_here.ipynb

test: $(TEST_STAMP)
	@tools/ensure_chromium.sh
	$(BIN)/python -m pytest

# For a machine without Chromium or without access to PyPI: the browser and Binder-like tests are left out on
# purpose, and pytest's summary says how many ("N deselected").
test-quick: $(TEST_STAMP)
	$(BIN)/python -m pytest -m "not browser and not binder"

notebooks: $(TEST_STAMP)
	$(BIN)/python tools/run_notebooks.py notebooks/[0-9][0-9]_*.ipynb

bench: $(LAB_STAMP)
	@for script in benchmarks/bench_*.py; do echo "== $$script"; $(BIN)/python $$script || exit 1; done

clean:
	rm -rf $(VENV) build .pytest_cache .hypothesis
