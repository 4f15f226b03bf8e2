# printshop: `make` builds every product into build/, `make test` runs the tests.
# Both create the virtualenv .venv/ on first use. WeasyPrint needs the system's Pango,
# HarfBuzz and HarfBuzz's font subsetter (Debian: libpango-1.0-0 libpangoft2-1.0-0
# libharfbuzz-subset0). `make` checks for them first, with the system's Python, before it
# installs or renders anything. On Debian or Ubuntu, as root or where `sudo -n` needs no
# password, it installs what is missing with apt-get, saying what and why; otherwise (or
# with PRINTSHOP_NO_INSTALL=1) it stops at once with the one command to run (elsewhere:
# the packages for Debian, Fedora and macOS).

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
PRINTSHOP := $(BIN)/printshop

.PHONY: all build test lint bench equivalence weasyprint-suite test-slow bytecode clean \
	system-check \
	system-check-test look

all: build

$(STAMP): pyproject.toml setup.py | system-check
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "printshop needs Python 3.11 or newer (found " + sys.version.split()[0] + ")")'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	@touch $(STAMP)

system-check:
	@$(PYTHON) printshop/system_check.py build --install

# the tests also need poppler-utils, Chromium and the CJK and Thai fonts (installed the same way)
system-check-test:
	@$(PYTHON) printshop/system_check.py test --install

# The other games in games/ (each a project folder of its own), each into build/games/NAME/.
GAMES := red-hack dcc dice-and-danger chainmail

build: system-check $(STAMP) bytecode
	$(PRINTSHOP) build --strict
	@for game in $(GAMES); do \
	  echo "$(PRINTSHOP) build --strict --source games/$$game --out build/games/$$game"; \
	  $(PRINTSHOP) build --strict --source games/$$game --out build/games/$$game || exit 1; \
	done

test: system-check-test $(STAMP) bytecode lint
	$(BIN)/python -m pytest -q

# The linter and the type checker, first in `make test` (and so in .ci/run): ruff's
# pyflakes, pycodestyle, import order and bugbear rules, and mypy over printshop/ (rules in
# pyproject.toml's [tool.ruff] and [tool.mypy]); seconds, a fraction of one warm.
lint: $(STAMP)
	$(BIN)/ruff check printshop tests bench tools
	$(BIN)/mypy

bench: system-check $(STAMP) bytecode
	$(BIN)/python bench/run.py

# The tests marked `slow` (minutes of work, left out of `make test`; in .ci/run): every
# command the docs and --help show for HAMMERCRAWL! (rules-src/) and games/, run in a copy
# of them (tests/test_help_examples.py), and the guide read back from its PDF on A4, A5 and
# dtrpg-book (tests/test_kit_readback.py; Letter is in `make test`)
test-slow: system-check-test $(STAMP) bytecode
	$(BIN)/python -m pytest -q -m slow

# printshop's speed patches of WeasyPrint change no page: the kit, a foreign manuscript and
# a print profile built with them and without them (render/weasy/registry.py); ~2 min alone
equivalence: system-check-test $(STAMP) bytecode
	$(BIN)/python tools/equivalence.py

# WeasyPrint's own test suite (from its sdist on PyPI, fetched once into .venv/) run with
# printshop's patches and without: every test must have the same outcome (but those a fix patch fixes); ~5 min alone
weasyprint-suite: $(STAMP)
	@$(PYTHON) printshop/system_check.py weasyprint-suite --install
	$(BIN)/python tools/weasyprint_suite.py

# printshop's modules compiled ahead (an editable install is not compiled by pip): each
# command starts ~0.1 s sooner where Python may not write its own cache
# (PYTHONDONTWRITEBYTECODE). An edited module's stale .pyc is ignored, never used.
bytecode: $(STAMP)
	@$(BIN)/python -m compileall -q printshop

# Render every page of the built PDFs to PNG for looking at them (needs poppler-utils).
look: build
	@$(PYTHON) printshop/system_check.py look --install
	@mkdir -p build/png
	@for pdf in build/*.pdf; do name=$$(basename $$pdf .pdf); pdftoppm -png -r 60 $$pdf build/png/$$name; done
	@for pdf in build/games/*/*.pdf; do game=$$(basename $$(dirname $$pdf)); name=$$(basename $$pdf .pdf); pdftoppm -png -r 60 $$pdf build/png/$$game-$$name; done
	@echo "pages in build/png/"

clean:
	rm -rf build .pytest_cache .mypy_cache .ruff_cache
	find . -name __pycache__ -prune -exec rm -rf {} +

distclean: clean
	rm -rf $(VENV) *.egg-info
