# The two commands of the README: `make lab` and `make test`.
# Both create the virtual environment .venv when it is missing.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin

.PHONY: lab test test-fast notebooks bench clean play lite lite-serve catalogues

$(BIN)/python:
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "cardlab needs Python 3.11 or newer; run: make PYTHON=python3.12 ...")'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# installed extras are remembered by a stamp file, redone when pyproject.toml changes, or setup.py
# or a module it compiles (the install compiles the typed modules where a C compiler is there:
# setup.py; without one it is the pure install)
INSTALL_INPUTS := pyproject.toml setup.py $(wildcard cardlab/games/*/wcore.py) cardlab/wsearch.py
$(VENV)/.lab-installed: $(INSTALL_INPUTS) | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[notebook]'
	touch $@

$(VENV)/.lite-installed: $(INSTALL_INPUTS) | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[lite]'
	touch $@

$(VENV)/.test-installed: $(INSTALL_INPUTS) | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@

# the Japanese catalogue: cardlab.po is written by people, cardlab.mo compiled from it (and shipped)
LOCALE := cardlab/locale
PO     := $(LOCALE)/ja/LC_MESSAGES/cardlab.po
MO     := $(LOCALE)/ja/LC_MESSAGES/cardlab.mo
# (listed after the install stamp by lab and test, so Babel's pybabel is there)
$(MO): $(PO) | $(BIN)/python
	$(BIN)/pybabel compile -i $(PO) -o $(MO) -l ja

## make catalogues: after changing texts people read, extract them from the sources with Babel
## (babel.cfg), merge them into $(PO) (new texts come in untranslated: translate them there; the
## test tests/test_i18n.py fails while any is missing or fuzzy), and compile $(MO)
catalogues: $(VENV)/.lab-installed
	$(BIN)/pybabel extract -F babel.cfg --no-location --sort-output --project cardlab \
	  --copyright-holder "the cardlab authors" -o $(LOCALE)/cardlab.pot .
	$(BIN)/pybabel update -i $(LOCALE)/cardlab.pot -o $(PO) -l ja --no-fuzzy-matching --ignore-obsolete
	$(BIN)/pybabel compile -i $(PO) -o $(MO) -l ja --statistics

## make lab: create .venv, install cardlab with its notebook extra, open JupyterLab on notebooks/
## (as root, in a container or on a lab machine, JupyterLab needs --allow-root: added by itself;
##  more JupyterLab arguments: make lab LAB_ARGS="--no-browser --port=8899")
LAB_ARGS  ?=
ROOT_ARGS := $(shell [ "$$(id -u)" = 0 ] && echo --allow-root)
lab: $(VENV)/.lab-installed $(MO)
	$(BIN)/jupyter lab --ServerApp.root_dir=$(CURDIR) --LabApp.default_url=/lab/tree/notebooks/00_welcome.ipynb \
	  $(ROOT_ARGS) $(LAB_ARGS)

## make test: unit tests and doctests, the slow playouts, then every notebook under nbval
# (notebook outputs are stored in English whatever LANG says: LANGUAGE=en; the Japanese
#  editions in notebooks/ja/ say cardlab.set_language("ja") themselves)
# (the unit and slow suites run in TEST_JOBS processes with pytest-xdist; the browser
#  tests share one browser and the notebooks one kernel at a time, so they run in one)
# (the compiled modules' agreement runs again as Python: CARDLAB_PURE=1; cardlab.build_info()
#  says which run compiled)
TEST_JOBS ?= 2
COMPILED_TESTS := $(wildcard tests/test_compiled_agreement*.py) tests/test_compiled_wiring.py tests/test_word_search.py tests/test_word_search_games.py
test: $(VENV)/.test-installed $(MO)
	$(BIN)/python -m pytest -q -n $(TEST_JOBS)
	CARDLAB_PURE=1 $(BIN)/python -m pytest -q $(COMPILED_TESTS)
	$(BIN)/python -m pytest -q -n $(TEST_JOBS) -m slow tests
	$(BIN)/python -m pytest -q -m browser tests
	LANGUAGE=en $(BIN)/python -m pytest -q --nbval --nbval-current-env --nbval-sanitize-with notebooks/sanitize.cfg notebooks/

## make play: the class app notebooks/play.ipynb as a page (Voila), served on every address of this
## machine (PLAY_IP=0.0.0.0; PLAY_IP=127.0.0.1: this machine only) on port PLAY_PORT. It first prints
## the teacher's link to the class rooms (class-rooms.db: rooms and their moves, kept between lessons)
## with this machine's address on the class network, never 0.0.0.0 (PLAY_URL=http://NAME:8866/ gives
## another, e.g. a name the laptops know); the teacher's page shows the pupils' links with it too.
## A page's kernel is shut down when its page is closed, or has been gone (reloaded, a laptop asleep)
## and idle for PLAY_CULL_IDLE seconds (Voila's culling; checked every PLAY_CULL_EVERY seconds).
## Voila waits up to PLAY_OUTPUT_WAIT seconds for a page's board after its code has run (its own
## default, 4 s, dropped 2 boards of 60 on a loaded 2-core machine: the page then stays empty)
## A school's rooms on PostgreSQL: make play CARDLAB_ROOMS=postgresql://USER:PASSWORD@HOST/DATABASE
PLAY_IP         ?= 0.0.0.0
PLAY_PORT       ?= 8866
PLAY_URL        ?=
PLAY_CULL_IDLE  ?= 300
PLAY_CULL_EVERY ?= 60
CARDLAB_ROOMS   ?= $(CURDIR)/class-rooms.db
PLAY_OUTPUT_WAIT ?= 120
PLAY_KERNELS    := --MappingKernelManager.cull_idle_timeout=$(PLAY_CULL_IDLE) \
                   --MappingKernelManager.cull_interval=$(PLAY_CULL_EVERY) \
                   --MappingKernelManager.cull_connected=False \
                   --VoilaExecutor.iopub_timeout=$(PLAY_OUTPUT_WAIT)
play: $(VENV)/.lab-installed
	url="$$(PLAY_URL='$(PLAY_URL)' $(BIN)/python -c 'from cardlab.rooms import class_url; print(class_url("$(PLAY_IP)", $(PLAY_PORT)))')" && \
	export PLAY_URL='$(PLAY_URL)' CARDLAB_ROOMS='$(CARDLAB_ROOMS)' && \
	$(BIN)/cardlab rooms --db '$(CARDLAB_ROOMS)' --url "$$url" && \
	$(BIN)/voila notebooks/play.ipynb --Voila.ip=$(PLAY_IP) --port=$(PLAY_PORT) --Voila.custom_display_url="$$url" \
	  $(PLAY_KERNELS)

## make lite: the JupyterLite classroom site in _site/ (static files, runs offline in the browser:
## JupyterLab and Pyodide, cardlab's wheel, the welcome notebook, the tutorials and the play app);
## it needs npm (Pyodide's runtime) and PyPI at build time, nothing at run time (lite/build.py)
## (built again only when one of its inputs changed: cardlab's sources and catalogue, the rules'
##  digests, the notebooks, lite/, pyproject.toml, README.md; make -B lite builds it anyway)
## (absolute paths: the compiled catalogue cardlab.mo is an input of the site here, not a target
##  to remake with Babel's pybabel, which the lite extra does not bring)
LITE_INPUTS := pyproject.toml README.md $(wildcard lite/* notebooks/*.ipynb notebooks/ja/*.ipynb) \
  $(shell find $(CURDIR)/cardlab $(CURDIR)/docs/rules -type f -not -path '*/__pycache__/*' -not -name '*.pyc' 2>/dev/null)
# (index.html is the last file lite/build.py writes: there only when a build finished)
_site/index.html: $(VENV)/.lite-installed $(LITE_INPUTS)
	$(BIN)/python lite/build.py --out _site

lite: _site/index.html

## make lite-serve: try the site on http://127.0.0.1:$(LITE_PORT)/ (any static web server will do);
## it serves the site as built, building it first only when it is missing or out of date
LITE_PORT ?= 8000
lite-serve: _site/index.html
	$(BIN)/python lite/serve.py --port $(LITE_PORT) --dir _site

## make test-fast: unit tests and doctests only
test-fast: $(VENV)/.test-installed
	$(BIN)/python -m pytest -q -n $(TEST_JOBS)

## make notebooks: re-execute every notebook and store its outputs (for nbval)
notebooks: $(VENV)/.test-installed
	for nb in notebooks/*.ipynb notebooks/ja/*.ipynb; do \
	  LANGUAGE=en $(BIN)/jupyter nbconvert --to notebook --execute --inplace --ExecutePreprocessor.record_timing=False "$$nb" && \
	  $(BIN)/nbstripout --keep-output --keep-count "$$nb" || exit 1; \
	done

## make bench: the benchmark table
bench: $(VENV)/.test-installed
	$(BIN)/python benchmarks/run.py

clean:
	rm -rf $(VENV) .pytest_cache _site build/lite
