# The two commands a new user needs:
#   make demo   set everything up, then run the main job on the embedded ComfyUI
#   make test   set everything up, then lint and run the tests
# Everything lives in this checkout: .venv/ (the project) and .embedded/ (ComfyUI + its venv).

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: setup demo test lint bench clean-venv

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -e '.[dev]'
	touch $(STAMP)

setup: $(STAMP)
	$(PY) -m service setup

demo: setup
	$(PY) -m driver batch examples/joblist.yaml

lint: $(STAMP)
	$(PY) -m ruff check .

test: setup lint
	$(PY) -m pytest

bench: setup
	$(PY) -m benchmarks
	$(PY) -m benchmarks.batch
