# Two commands on a fresh machine: `make run` (build the LayerNorm example) and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: run test test-quick bench fuzz clean check-gxx

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 10))' || \
	  { echo "opkg needs Python 3.10 or newer (found: $$($(PYTHON) --version))"; exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[test]'
	@touch $@

check-gxx:
	@command -v g++ >/dev/null || { echo "error: g++ (C++17) not found. opkg's sim toolchain compiles Ascend C sources with g++; install it (Debian/Ubuntu: apt-get install g++)."; exit 1; }

run: $(STAMP) check-gxx
	$(BIN)/opkg build packages/layernorm

# Tests run on every core (pytest-xdist); tests/sim files stay whole on one worker (they share
# the libraries they compile). A failing test still fails `make test` (pytest's exit status).
PYTEST_PARALLEL := -n auto --dist loadgroup

test: $(STAMP) check-gxx
	$(BIN)/python -m pytest -q $(PYTEST_PARALLEL)

# The edit loop: everything not marked slow (no package builds, no big sim compiles), under a minute.
test-quick: $(STAMP) check-gxx
	$(BIN)/python -m pytest -q $(PYTEST_PARALLEL) -m "not slow"

bench: $(STAMP) check-gxx
	$(BIN)/python bench/run.py

# Hostile input through the loaders for FUZZ_SECONDS (default 60); not part of `make test` or CI.
fuzz: $(STAMP)
	$(BIN)/python tests/fuzz/fuzz.py

clean:
	rm -rf out $(VENV)
