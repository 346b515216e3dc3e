# Two commands on a fresh machine: `make run` (build the LayerNorm example) and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: run test test-quick bench fuzz compat compat-goldens compat-repo check-compat-repo dist docs \
        clean check-gxx check-test-tools check-host-headers

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

# Debian packages the tests run, as command:package. makeself builds the CANN backend's
# custom_opp_<os>_<arch>.run (the tests build one against stand-in CANN tools); distccd serves
# the distributed-compile tests on loopback; Chromium and its driver open `opkg report`'s page
# headless; docker-registry (CNCF distribution) serves the OCI registry tests, htpasswd puts one
# behind basic auth; PostgreSQL holds the scheduler of the BuildGrid that the remote execution
# tests start (looked for where Debian puts its initdb, off PATH); nlohmann-json3-dev is the
# JSON library (/usr/include/nlohmann/json.hpp) that ops repositories' host code includes (ops-nn's
# matmul tiling), compiled by the tests' fixtures and the compat-repo harness. Installed when
# missing (as root, with apt-get).
TEST_TOOLS := makeself:makeself distccd:distcc chromium:chromium chromedriver:chromium-driver \
              docker-registry:docker-registry htpasswd:apache2-utils

# $(call apt_install_missing,WHAT): install the Debian packages listed in $$missing (as root), or
# stop saying which are missing
apt_install_missing = if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    apt-get update -qq && apt-get install -y -qq $$missing; \
	  else echo "error: not installed:$$missing. $(1); install them (Debian/Ubuntu: apt-get install$$missing)."; exit 1; fi; fi

check-test-tools: check-host-headers
	@missing=""; for t in $(TEST_TOOLS); do \
	  command -v $${t%%:*} >/dev/null || missing="$$missing $${t#*:}"; done; \
	ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing="$$missing postgresql"; \
	$(call apt_install_missing,The tests run them)

# Headers the sim's host compiles take from /usr/include, as header:package
HOST_HEADERS := nlohmann/json.hpp:nlohmann-json3-dev

check-host-headers:
	@missing=""; for h in $(HOST_HEADERS); do \
	  test -f /usr/include/$${h%%:*} || missing="$$missing $${h#*:}"; done; \
	$(call apt_install_missing,Host code of ops repositories includes them)

# Tests run on every core (pytest-xdist); tests/sim files stay whole on one worker (they share
# the libraries they compile). A failing test still fails `make test` (pytest's exit status).
# --durations: every log (CI's included) ends with the 25 slowest tests, setup and call apart.
PYTEST_PARALLEL := -n auto --dist loadgroup

test: $(STAMP) check-gxx check-test-tools
	$(BIN)/python -m pytest -q $(PYTEST_PARALLEL) --durations=25

# The edit loop: everything not marked slow (no package builds, no big sim compiles), under a minute.
test-quick: $(STAMP) check-gxx check-test-tools
	$(BIN)/python -m pytest -q $(PYTEST_PARALLEL) -m "not slow"

bench: $(STAMP) check-gxx
	$(BIN)/python bench/run.py

# Hostile input through the loaders for FUZZ_SECONDS (default 60), corpus in tests/fuzz/corpus/;
# `make test` (and so CI) runs each target for a few seconds (tests/test_fuzz.py).
fuzz: $(STAMP)
	$(BIN)/python tests/fuzz/fuzz.py

# The compatibility harness over a checkout of a public corpus (docs/compat.md); not in CI.
compat: $(STAMP) check-gxx
	@test -n "$(CORPUS)" || { echo "usage: make compat CORPUS=DIR [COMPAT_ARGS='--only NAME --jobs 2']"; exit 2; }
	$(BIN)/python bench/compat/run.py --corpus $(CORPUS) $(COMPAT_ARGS)

# The goldens of ops repositories (tests/assets/golden.py) import torch: 150 of ops-nn's 274.
# `make compat-goldens` installs it into the venv for the corpus run; `make test` never needs it.
# A CPU build: on a machine whose index is PyPI (where plain `torch` pulls CUDA packages), add
# COMPAT_PIP_ARGS='--index-url https://download.pytorch.org/whl/cpu'.
# Others import tensorflow or scipy (the Ascend 950's activation goldens among them): installed
# the same way; COMPAT_GOLDEN_EXTRAS='' leaves them out.
COMPAT_TORCH    ?= torch==2.13.0
# ops-nn's matmul goldens (matmul/common/tests/st/arch35/matmul_golden_util.py) import en_dtypes
COMPAT_GOLDEN_EXTRAS ?= tensorflow==2.21.0 scipy en-dtypes==0.0.4
COMPAT_PIP_ARGS ?=

compat-goldens: $(STAMP)
	$(BIN)/pip install -q $(COMPAT_PIP_ARGS) '$(COMPAT_TORCH)' $(COMPAT_GOLDEN_EXTRAS)

# The harness over an ops repository checkout and the base library (docs/compat.md), goldens
# with what they import: make compat-repo REPO=../ops-nn OPBASE=../opbase COMPAT_ARGS='--every 4'
compat-repo: check-compat-repo compat-goldens check-gxx check-host-headers
	$(BIN)/python bench/compat/repository.py --repo $(REPO) --opbase $(OPBASE) $(COMPAT_ARGS)

check-compat-repo:
	@test -n "$(REPO)" -a -n "$(OPBASE)" || { echo "usage: make compat-repo REPO=DIR OPBASE=DIR [COMPAT_ARGS='--families norm --jobs 1']"; exit 2; }

# The distribution (ascend-opkg: wheel and sdist in dist/), built from this environment without
# a network; install it anywhere with pip, pipx or uv (README, "Install").
dist: $(STAMP)
	rm -rf dist build
	$(BIN)/python -m build --no-isolation --outdir dist .

# Pages generated from the sources (docs/workspace.md from the workspace file's schema)
docs: $(STAMP)
	$(BIN)/python docs/gen_workspace.py > docs/workspace.md

clean:
	rm -rf out dist $(VENV)
