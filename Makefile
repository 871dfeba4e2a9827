# Two commands: `make run` and `make test`. Both set everything up first.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
SAMPLE ?= resources/samples/opera-game.pgn

.PHONY: run test setup system-deps engines js-deps lint bench clean

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[test]'
	touch $@

system-deps:
	@bash packaging/install-system-deps.sh

engines: $(STAMP)
	$(BIN)/reviewer engines install

setup: system-deps $(STAMP) engines

run: setup
	@bash packaging/run-gui.sh $(BIN)/reviewer gui $(SAMPLE)

test: setup js-deps lint
	@$(BIN)/python -m pytest -q; rc=$$?; \
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

clean:
	rm -rf $(VENV) build *.egg-info
