# Everything bootstraps its own virtualenv in .venv on first use: `make demo` installs only
# what the demo and everyday use need (wheels only, no compiler); `make test`, `lint` and
# `bench` add the test tools and the [team] extra to the same .venv. The recorder's
# Wayland input counts need the [evdev] extra, which builds from source: `.ci/run`
# installs it (`make evdev`).
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
TEST_STAMP := $(VENV)/.installed-test
USER_EXTRAS := user,tokens
# `all`: user, tokens, dev and team; everything but evdev.
TEST_EXTRAS := all

.PHONY: demo test bench lint clean install uninstall evdev

$(STAMP): pyproject.toml
	@tools/need-python.sh $(PY)
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q --only-binary=:all: -e '.[$(USER_EXTRAS)]'
	touch $(STAMP)

$(TEST_STAMP): $(STAMP)
	$(BIN)/pip install -q --only-binary=:all: -e '.[$(TEST_EXTRAS)]'
	touch $(TEST_STAMP)

evdev: $(TEST_STAMP)
	$(BIN)/pip install -q -e '.[$(TEST_EXTRAS),evdev]'  # builds evdev: gcc, python3-dev

demo: $(STAMP)
	$(BIN)/actframes demo --out demo-out

test: $(TEST_STAMP)
	$(BIN)/python -m pytest

bench: $(TEST_STAMP)
	$(BIN)/python -m compileall -q src >/dev/null  # time the code as an installed package runs it
	$(BIN)/python benchmarks/run.py

lint: $(TEST_STAMP)
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks
	$(BIN)/mypy

# Everyday use: `actframes` in PREFIX/bin from a virtualenv of its own (no pipx or uv
# needed, nothing installed into the system Python, wheels only).
PREFIX ?= $(HOME)/.local
APPDIR ?= $(PREFIX)/share/actframes/venv

install:
	@tools/need-python.sh $(PY)
	rm -rf $(APPDIR)
	$(PY) -m venv $(APPDIR)
	$(APPDIR)/bin/pip install -q --upgrade pip
	$(APPDIR)/bin/pip install -q --only-binary=:all: '.[user]'
	mkdir -p $(PREFIX)/bin
	ln -sf $(APPDIR)/bin/actframes $(PREFIX)/bin/actframes
	@echo "installed: $(PREFIX)/bin/actframes"
	@case ":$$PATH:" in *":$(PREFIX)/bin:"*) ;; \
	  *) echo "$(PREFIX)/bin is not on your PATH yet: run $(PREFIX)/bin/actframes, or add" \
	       "it (e.g. to ~/.profile; many systems do at your next login)";; esac

uninstall:
	rm -f $(PREFIX)/bin/actframes
	rm -rf $(APPDIR)

clean:
	rm -rf $(VENV) demo-out .bench
