# Two commands: `make run` and `make test`. Both set everything up first.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
SAMPLE ?= resources/samples/opera-game.pgn

.PHONY: run test setup system-deps engines js-deps lint bench clean wheel dist dist-test install-desktop uninstall-desktop icons

$(STAMP): pyproject.toml setup.py reviewer/core/formats/_pgn_blocks.c reviewer/core/database/_chess_lines.c reviewer/core/database/_polyglot.h \
		reviewer/core/database/_first_visits.c reviewer/core/database/_go_lines.c
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[test,cluster]'
	touch $@

system-deps:
	@PY=$(PY) bash packaging/install-system-deps.sh

engines: $(STAMP)
	$(BIN)/reviewer engines install

setup: system-deps $(STAMP) engines

run: setup
	@bash packaging/run-gui.sh $(BIN)/reviewer gui $(SAMPLE)

test: setup js-deps lint
	@$(BIN)/python -m pytest -q -n auto --dist loadfile; rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "make test: pytest collected no tests" >&2; exit 1; fi; \
	exit $$rc

# The npm packages that the export tests use to read our files back, as other programs do.
js-deps:
	@if command -v npm >/dev/null; then \
	  [ -d tests/js/node_modules ] || npm ci --prefix tests/js --no-audit --no-fund --silent || \
	  echo "warning: npm ci failed; the outside-reader tests will be skipped" >&2; \
	else echo "warning: npm not found; the outside-reader tests will be skipped" >&2; fi

# ruff (rules in pyproject.toml), mypy --strict on the core, the import-linter contracts.
lint: $(STAMP)
	$(BIN)/ruff check reviewer tests benchmarks
	$(BIN)/mypy
	$(BIN)/lint-imports

bench: setup
	$(BIN)/python benchmarks/analysis.py
	$(BIN)/python benchmarks/builtin_go.py
	$(BIN)/python benchmarks/gui.py

# -- packages and the desktop -----------------------------------------------------------------
DIST_STAMP := $(VENV)/.dist-tools

$(DIST_STAMP): $(STAMP)
	$(BIN)/python -m pip install -q -e '.[test,dist]'
	touch $@

# The wheel and the sdist, in dist/.
wheel: $(DIST_STAMP)
	$(BIN)/python -m build --no-isolation --outdir dist .

# A one-folder bundle with Python and every library inside: dist/reviewer/reviewer.
dist: $(DIST_STAMP)
	$(BIN)/pyinstaller --noconfirm --log-level WARN --distpath dist --workpath build/pyinstaller \
	  packaging/pyinstaller/reviewer.spec
	@du -sh dist/reviewer

# The bundle built, then started off screen on a sample game with Stockfish (CI runs it after `test`).
dist-test: dist
	REVIEWER_BUNDLE=dist/reviewer/reviewer $(BIN)/python -m pytest -q tests/packaging/test_bundle.py

# The menu entry, icons and PGN/SGF file types for the current user (no root), running $(BIN)/reviewer
# (or REVIEWER=/path/to/reviewer, e.g. dist/reviewer/reviewer or a pipx install).
REVIEWER ?= $(BIN)/reviewer
install-desktop:
	@[ -x "$(REVIEWER)" ] || $(MAKE) --no-print-directory $(STAMP)
	@bash packaging/desktop-integration.sh install "$(REVIEWER)"

uninstall-desktop:
	@bash packaging/desktop-integration.sh uninstall

# The PNG icons, drawn again from resources/icons/reviewer.svg.
icons: $(STAMP)
	QT_QPA_PLATFORM=offscreen $(BIN)/python packaging/render_icons.py

clean:
	rm -rf $(VENV) build dist *.egg-info
