# Everything bootstraps its own virtualenv in .venv on first use.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test bench lint clean

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[all]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/actframes demo --out demo-out

test: $(STAMP)
	$(BIN)/python -m pytest

bench: $(STAMP)
	$(BIN)/python -m compileall -q src >/dev/null  # time the code as an installed package runs it
	$(BIN)/python bench/run.py

lint: $(STAMP)
	$(BIN)/ruff check src tests bench
	$(BIN)/mypy

clean:
	rm -rf $(VENV) demo-out .bench
