# The workbook's two everyday commands, `make lab` and `make test`, each create .venv when it is missing.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
# Two stamps: the learner's install (requirements.txt, the lock binder/requirements.txt) and the test tools on top
# of it (the lock requirements-test.txt, and from npm the hub test's proxy and the browser test's axe-core, NODE_STAMP).
LAB_STAMP  := $(VENV)/.lab-installed
TEST_STAMP := $(VENV)/.test-installed
# JupyterHub's proxy for the hub test and axe-core for the browser test's accessibility check, from npm: package.json
# pins them, package-lock.json pins what they need.
# It is installed under .venv/node (git-ignored with .venv, removed by make clean), not into the checkout.
NODE_STAMP := $(VENV)/node/.installed
# uv, pinned with its hashes in requirements-lock-tool.txt and installed in a small venv of its own under
# build/lock-tool (never into .venv, which holds exactly the locks), installs the locks into .venv and re-resolves them
# (`make lock`). It fetches and unpacks the wheels side by side where pip takes one after the other, the same files
# checked against the same hashes: `make lab` from a fresh clone answered at chapter 00 after 27 s, where it took
# 55 to 74 s with pip.
LOCK_TOOL := build/lock-tool
UV        := $(LOCK_TOOL)/bin/uv
# --no-config: no uv.toml or pyproject setting of the machine's changes what is installed. The two locks' installs
# add --compile-bytecode: the .pyc files are written then, as pip writes them, not by each module's first import.
UV_INSTALL = $(UV) pip install --no-config --quiet --python $(BIN)/python

.PHONY: lab test test-quick test-setup test-quick-setup lint notebooks site translations messages architecture bench lock clean help check-venv \
        chromium

help:
	@echo "make lab        set up .venv if needed and open the workbook in JupyterLab (chapter 00);"
	@echo "                make lab TRACK=es opens the Spanish track (notebooks/es/00_empieza_aqui.ipynb)"
	@echo "make test       set up .venv (and Debian's Chromium) if needed and run the whole test suite: unit, property,"
	@echo "                notebooks (nbval), every chapter in JupyterLab in headless Chromium, a Binder-like environment,"
	@echo "                twenty learners on a real JupyterHub with the nbgitpuller link (needs Node.js and npm)"
	@echo "                in lanes (setup, lint, unit, nbval, paths, then browser, binder, hub and site side by side), with"
	@echo "                one summary naming every lane; LANES=\"--only unit nbval\" runs some of them (tools/lanes.py)"
	@echo "make test-quick setup, lint, unit and nbval only: no browser, Binder-like, hub or paths lane"
	@echo "make lint       Ruff and mypy on loopkit/ (the lane after setup in make test and make test-quick)"
	@echo "make notebooks  Restart & Run All: re-execute every chapter of both tracks (and the instructor's notebooks) in place"
	@echo "make site       build the static site of both tracks into build/site/ (open build/site/index.html): the chapters"
	@echo "                with their stored outputs and views, answers, hints and solutions behind a click (needs npm)"
	@echo "make messages   extract loopkit's texts with Babel (babel.cfg) and add the new ones to each .po catalog"
	@echo "make translations  compile the .po catalogs into the .mo files loopkit reads (make lab and make test do it)"
	@echo "make architecture  redraw the diagram of loopkit's floors in docs/architecture.md from the code"
	@echo "make bench      run every benchmark and print one table of their results"
	@echo "make lock       re-resolve the locks (binder/requirements.txt, requirements-test.txt) from the *.in lists"
	@echo "make clean      remove .venv and build/ (start again after a setup that failed halfway)"

# A .venv that stopped halfway (on Debian and Ubuntu, `python3 -m venv` without the python3-venv package leaves
# one without pip) makes every later install fail with "No module named pip"; a .venv made by another Python than
# the PYTHON=... asked for would run the tests on the wrong one. Both are caught here, before anything runs in it.
check-venv:
	@if [ -e $(VENV) ] && ! $(BIN)/python -c 'import pip' >/dev/null 2>&1; then \
	  echo "$(VENV) is incomplete: it has no working Python with pip (its creation probably stopped halfway;" >&2; \
	  echo "on Debian or Ubuntu, 'python3 -m venv' needs the python3-venv package: sudo apt-get install python3-venv)." >&2; \
	  echo "Run 'make clean' to remove it, then run your make command again." >&2; exit 1; fi
	@if [ "$(origin PYTHON)" = "command line" ] && [ -x $(BIN)/python ]; then \
	  want=$$($(PYTHON) -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null); \
	  have=$$($(BIN)/python -c 'import sys; print("%d.%d" % sys.version_info[:2])'); \
	  if [ "$$want" != "$$have" ]; then \
	    echo "$(VENV) was made with Python $$have, not with PYTHON=$(PYTHON) ($${want:-not found})." >&2; \
	    echo "Run 'make clean' to remove it, then run your make command again with PYTHON=$(PYTHON)." >&2; exit 1; fi; fi

# .venv itself, before anything is installed into it or under it (npm's tools go to .venv/node): with make -j2, a
# folder made under .venv before `python -m venv` ran would look like a venv that stopped halfway.
$(BIN)/python: | check-venv
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null || \
	  { echo "The workbook needs Python 3.11 or newer as '$(PYTHON)'. Try: make PYTHON=python3.11 ..." >&2; exit 1; }
	@$(PYTHON) -m venv $(VENV) || \
	  { echo "'$(PYTHON) -m venv $(VENV)' failed (on Debian or Ubuntu: sudo apt-get install python3-venv)." >&2; \
	    echo "Run 'make clean', then run your make command again." >&2; exit 1; }
	@$(BIN)/python -c 'import pip' 2>/dev/null || \
	  { echo "$(VENV) has no pip (on Debian or Ubuntu: sudo apt-get install python3-venv). Run 'make clean', then run your make command again." >&2; exit 1; }

# Hash-checking mode (the lock carries every file's hash) refuses an editable requirement, so loopkit is installed
# in a second step, from this checkout, with the lock's setuptools (no build isolation: nothing unpinned is
# downloaded). setuptools reports every editable install of a flat layout with an "Editable installation." notice
# (folders named like the package may shadow it); here the folder is the package itself, so that one notice is muted.
$(LAB_STAMP): requirements.txt binder/requirements.txt pyproject.toml binder/overrides.json binder/lab.css \
              binder/install_lab_settings.py | check-venv $(BIN)/python $(UV)
	$(UV_INSTALL) --compile-bytecode --require-hashes -r requirements.txt
	PYTHONWARNINGS="ignore:Editable installation" $(UV_INSTALL) --no-deps --no-build-isolation -e .
	$(BIN)/python binder/install_lab_settings.py
	$(COMPILE_MESSAGES)
	@touch $(LAB_STAMP)

$(TEST_STAMP): $(LAB_STAMP) $(NODE_STAMP) requirements-test.txt
	$(UV_INSTALL) --compile-bytecode --require-hashes -r requirements-test.txt
	@touch $(TEST_STAMP)

# Without npm, nothing is installed here and the hub test and the browser test's accessibility check fail saying what
# is missing; the rest still runs.
# configurable-http-proxy 5.1.0 is the newest release whose whole dependency tree accepts Node.js 18 (Debian 12's
# nodejs); 5.2.0 needs Node 20, and 5.3.0's commander 15 declares Node >= 22.12, which npm warns about on Node 20.
$(NODE_STAMP): package.json package-lock.json | $(BIN)/python
	@if command -v npm >/dev/null; then \
	  mkdir -p $(VENV)/node && cp package.json package-lock.json $(VENV)/node/ && \
	  (cd $(VENV)/node && npm ci --no-audit --no-fund --no-update-notifier --loglevel=warn) && touch $@; \
	else echo "npm not found: the hub test and the accessibility check will fail (install Node.js and npm, e.g. apt-get install nodejs npm)" >&2; fi

# The translations: one gettext catalog per language, loopkit/core/locales/<code>/LC_MESSAGES/loopkit.po (committed),
# compiled by Babel (in the lock) into the loopkit.mo beside it (git-ignored), which loopkit reads. Every target that
# runs loopkit depends on the .mo files, so an edited .po is compiled again before it is used; binder/postBuild runs
# the same command. --statistics prints how many messages each catalog translates.
CATALOGS := $(wildcard loopkit/core/locales/*/LC_MESSAGES/loopkit.po)
COMPILED := $(CATALOGS:.po=.mo)
COMPILE_MESSAGES = $(BIN)/pybabel compile --domain loopkit --directory loopkit/core/locales --statistics

translations: $(COMPILED)

$(COMPILED): %.mo: %.po | $(LAB_STAMP)
	$(BIN)/pybabel compile --statistics --input-file $< --output-file $@

# A new or reworded text: `make messages` extracts every message (tools/babel_extract.py, named by babel.cfg) into
# build/loopkit.pot and adds the new ones, untranslated, to each .po (no fuzzy guesses, no obsolete entries kept);
# then write each new msgstr and run the tests. tests/test_language.py runs the same extraction and fails when the
# catalog is not current.
BABEL := $(BIN)/python -m babel.messages.frontend --quiet
EXTRACT_OPTIONS := --mapping-file babel.cfg --width 120 --add-location file --sort-by-file --project loopkit \
                   --version 0.1.0
UPDATE_OPTIONS := --domain loopkit --width 120 --no-fuzzy-matching --ignore-obsolete --ignore-pot-creation-date

messages: $(LAB_STAMP)
	@mkdir -p build
	$(BABEL) extract $(EXTRACT_OPTIONS) --output-file build/loopkit.pot loopkit
	$(BABEL) update $(UPDATE_OPTIONS) --input-file build/loopkit.pot --output-dir loopkit/core/locales

# Jupyter refuses to run as root unless told; containers and CI machines often are root.
ROOT_FLAG := $(if $(filter 0,$(shell id -u)),--allow-root)

# The track JupyterLab opens at: `make lab` (English), `make lab TRACK=es` (Spanish, notebooks/es/), each with its
# own JupyterLab settings folder, whose defaults give the lab's menus the track's language
# (binder/install_lab_settings.py writes both folders).
TRACK ?= en
START_en := notebooks/00_start_here.ipynb
START_es := notebooks/es/00_empieza_aqui.ipynb
LAB_SETTINGS_en := $(VENV)/share/jupyter/lab/settings
LAB_SETTINGS_es := $(VENV)/share/jupyter/lab/settings-es
CHAPTERS := $(wildcard notebooks/[0-9][0-9]_*.ipynb notebooks/es/[0-9][0-9]_*.ipynb)

# Kernels talk to the lab over Unix sockets in Jupyter's runtime folder (readable by this user only), not TCP ports on
# 127.0.0.1: with TCP, ipykernel 7 prints "Kernel is running over TCP without encryption" in the terminal for every
# chapter a learner opens.
# `jupyter trust` first: JupyterLab shows a widget view stored in an untrusted notebook as its plain-text repr, so the
# chapters are signed (in Jupyter's data folder, as a learner's own save does) every time, since `make notebooks` or a
# pull changes them; a chapter opened before it runs then draws its views from the state it stores.
lab: check-venv $(LAB_STAMP) $(COMPILED)
	@test -n "$(START_$(TRACK))" || { echo "TRACK must be en or es, got '$(TRACK)'" >&2; exit 1; }
	$(BIN)/jupyter trust $(CHAPTERS) >/dev/null
	$(BIN)/jupyter lab $(ROOT_FLAG) --ServerApp.root_dir="$(CURDIR)" --LabApp.default_url=/lab/tree/$(START_$(TRACK)) \
	  --LabApp.app_settings_dir="$(CURDIR)/$(LAB_SETTINGS_$(TRACK))" --KernelManager.transport=ipc

# The suite in lanes (tools/lanes.py, standard library only): setup, lint, unit, nbval, then for `make test` the
# paths lane, then the browser, Binder-like, hub and site lanes side by side (the site after the hub). Every lane
# runs even after another failed (a failed setup stops the rest), and one summary at the end names each lane as
# passed, failed or not reached, with its counts and time; build/lanes/<lane>.log keeps its output. `make test LANES="--only unit nbval"` runs some
# lanes, `LANES=--fail-fast` stops at the first failure.
LANES ?=
test: check-venv
	@$(PYTHON) tools/lanes.py test $(LANES)

# For a machine without Chromium, Node or access to PyPI: the browser, Binder-like, hub and paths lanes are left
# out on purpose, and the summary lists only the lanes it ran.
test-quick: check-venv
	@$(PYTHON) tools/lanes.py test-quick $(LANES)

# The setup lane of each (tools/lanes.py runs them with make -j2): the install, and for `make test` Debian's
# Chromium, a target of its own so that apt can fetch it while uv fetches the wheels.
test-setup: check-venv $(TEST_STAMP) $(COMPILED) chromium

chromium:
	@tools/ensure_chromium.sh

test-quick-setup: check-venv $(TEST_STAMP) $(COMPILED)

# Ruff, then mypy, on loopkit/ (their settings are in pyproject.toml, their versions in requirements-test.in), before
# any test runs: a few seconds, and mypy keeps its cache in build/mypy-cache. Each names the file and line it objects to.
lint: check-venv $(TEST_STAMP)
	@$(BIN)/ruff check --quiet loopkit || { echo "make lint: Ruff found the problems above in loopkit/ (rules: [tool.ruff] in pyproject.toml)" >&2; exit 1; }
	@$(BIN)/mypy --cache-dir build/mypy-cache || { echo "make lint: mypy found the type errors above in loopkit/ ([tool.mypy] in pyproject.toml)" >&2; exit 1; }

notebooks: check-venv $(TEST_STAMP) $(COMPILED)
	$(BIN)/python tools/run_notebooks.py notebooks/[0-9][0-9]_*.ipynb notebooks/es/[0-9][0-9]_*.ipynb notebooks/instructor/*.ipynb

# The static site of both tracks (tools/site_build.py; .github/workflows/site.yml publishes it from main): Sphinx
# with MyST-NB and sphinx-book-theme from the test lock, the widget manager from npm (NODE_STAMP). It runs a copy of
# each chapter for its reveal cells' outputs (two at a time; kept in build/site-src/reveals/ by the chapter's hash).
site: check-venv $(TEST_STAMP) $(COMPILED)
	$(BIN)/python tools/site_build.py

# The diagram of docs/architecture.md, drawn from loopkit's folders and imports (tests/test_architecture.py fails when
# it is stale). Standard library only, so it needs no .venv.
architecture:
	$(PYTHON) tools/architecture.py --write

# Every benchmarks/bench_*.py, one after the other, then one table; a benchmark that misses its goal or fails is a
# row like the others (benchmarks/README.md has the protocol). The exit status is 1 when any row failed.
bench: check-venv $(LAB_STAMP) $(COMPILED)
	$(BIN)/python benchmarks/run_all.py

# The locks, re-resolved by uv ($(UV), above) from the short lists of direct dependencies. uv keeps every version
# the lock already pins unless a list asks for another, and --exclude-newer ignores anything uploaded after
# LOCK_DATE, so the same checkout always gives the same locks. One lock serves every Python the workbook supports
# (--universal, from its lowest: pyproject.toml's requires-python), with markers where a package differs by Python
# version or platform. To take a newer release: raise its pin in the .in file (or
# `make lock LOCK_ARGS="--upgrade-package NAME"`) and move LOCK_DATE forward.
LOCK_DATE := 2026-12-01T21:00:00Z
LOCK_ARGS ?=
LOCK = $(UV) pip compile --no-config --universal --python-version 3.11 --generate-hashes \
       --exclude-newer $(LOCK_DATE) --annotation-style line --custom-compile-command "make lock" --quiet $(LOCK_ARGS)

$(UV): requirements-lock-tool.txt
	@test -x $(LOCK_TOOL)/bin/python || $(PYTHON) -m venv $(LOCK_TOOL) || \
	  { echo "'$(PYTHON) -m venv $(LOCK_TOOL)' failed (on Debian or Ubuntu: sudo apt-get install python3-venv)." >&2; \
	    rm -rf $(LOCK_TOOL); exit 1; }
	$(LOCK_TOOL)/bin/python -m pip install --quiet --require-hashes -r requirements-lock-tool.txt
	@touch $(UV)

lock: $(UV)
	$(LOCK) binder/requirements.in binder/install.in -o binder/requirements.txt
	$(LOCK) binder/requirements.in binder/install.in requirements-test.in -c binder/requirements.txt -o requirements-test.txt

clean:
	rm -rf $(VENV) build .pytest_cache .hypothesis
