# The two commands of README.md, and the few beside them.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000
export HOST PORT

.PHONY: serve test check lint bench clean

# `serve` installs the runtime dependencies and the Python client with `cardavia` (their
# own distribution, which README's examples use beside the service); `test` (and the
# targets that lint or measure) the test extras too; each stamp is remade when a
# pyproject.toml changes.
$(BIN)/activate: pyproject.toml clients/python/pyproject.toml
	test -d $(VENV) || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e . -e clients/python
	touch $(BIN)/activate

$(VENV)/.test-extras: $(BIN)/activate
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(VENV)/.test-extras

# The compiled search core (rules/ai/core/*.c, setup.py), rebuilt in place when a source
# changes; the install above builds it the first time. Where it cannot be built the
# service still runs, and says so (rules/ai/native.py).
CORE_SOURCES := setup.py $(wildcard rules/ai/core/*.c rules/ai/core/*.h)
$(VENV)/.core: $(BIN)/activate $(CORE_SOURCES)
	PYTHONWARNINGS=ignore $(BIN)/python setup.py --quiet build_ext --inplace
	touch $(VENV)/.core

serve: $(BIN)/activate $(VENV)/.core
	$(BIN)/gunicorn --config gunicorn.conf.py "service.app:create_app()"

# nginx (Debian's, installed with apt-get when missing) in front of the rules and AI pools:
# deploy/stack.py, docs/deploy.md's "Running at scale".
.PHONY: serve-prod
serve-prod: $(BIN)/activate $(VENV)/.core
	$(BIN)/python deploy/stack.py

test: $(VENV)/.test-extras $(VENV)/.core
	$(BIN)/ruff check .
	$(BIN)/mypy rules schemas service clients/python/cardavia_client bench contract
	$(BIN)/python -m pytest -n 2

# Everyday work: the linters and the tests that start no server or browser and play no
# thousands of deals (tests/conftest.py marks them `http` and `slow`); `make test` before
# landing.
check: $(VENV)/.test-extras $(VENV)/.core
	$(BIN)/ruff check .
	$(BIN)/mypy rules schemas service clients/python/cardavia_client bench contract
	$(BIN)/python -m pytest -n 2 -m "not http and not slow"

lint: $(VENV)/.test-extras
	$(BIN)/ruff check .

bench: $(VENV)/.test-extras $(VENV)/.core
	$(BIN)/python -m bench

clean:
	rm -rf $(VENV) *.egg-info .pytest_cache .ruff_cache build rules/ai/_core*.so
