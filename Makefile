# Two commands do all set-up: `make run` (the service with demo data) and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: run serve test install lint lock

# Development and CI install the runtime and the dev group from the hashed lock; requirements.txt stays the runtime's plain install.
$(BIN)/.installed: requirements.lock
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --require-hashes --no-deps -r requirements.lock
	touch $@

install: $(BIN)/.installed

run: install
	scripts/run.sh

# Production: see deploy/serve.sh for the environment it needs.
serve: install
	deploy/serve.sh

test: install
	$(BIN)/pytest

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

# After a change to pyproject.toml's dependencies or groups: re-resolve and hash.
lock: install
	$(BIN)/uv pip compile pyproject.toml --group dev --generate-hashes \
		--python-version 3.11 --custom-compile-command "make lock" --quiet -o requirements.lock
