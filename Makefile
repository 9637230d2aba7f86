# Two commands do all set-up: `make run` (the service with demo data) and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: run serve test install lint bench-recall

$(BIN)/.installed: requirements.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -r requirements.txt
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
