# Everything bootstraps its own virtualenv in .venv on first use.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test bench lint clean install uninstall

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
	$(BIN)/python benchmarks/run.py

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks
	$(BIN)/mypy

# Everyday use: `actframes` on the PATH from a virtualenv of its own (no pipx or uv needed,
# nothing installed into the system Python). PREFIX/bin must be on the PATH.
PREFIX ?= $(HOME)/.local
APPDIR ?= $(PREFIX)/share/actframes/venv

install:
	rm -rf $(APPDIR)
	$(PY) -m venv $(APPDIR)
	$(APPDIR)/bin/pip install -q --upgrade pip
	$(APPDIR)/bin/pip install -q '.[user]'
	mkdir -p $(PREFIX)/bin
	ln -sf $(APPDIR)/bin/actframes $(PREFIX)/bin/actframes
	@echo "installed: $(PREFIX)/bin/actframes"
	@case ":$$PATH:" in *":$(PREFIX)/bin:"*) ;; \
	  *) echo "add $(PREFIX)/bin to your PATH (e.g. in ~/.profile)";; esac

uninstall:
	rm -f $(PREFIX)/bin/actframes
	rm -rf $(APPDIR)

clean:
	rm -rf $(VENV) demo-out .bench
