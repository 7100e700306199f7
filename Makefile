# The two commands a new user needs:
#   make demo   set everything up, then run the main job on the embedded ComfyUI
#   make test   set everything up, then lint and run the tests
# Everything lives in this checkout: .venv/ (the project) and .embedded/ (ComfyUI + its venv).

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: setup demo test lint bench browser quality

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
	$(PY) -m mypy

# The frontend test drives Debian's Chromium (playwright's own browser download is not
# used); installed here when we may (root with apt-get), else that one test is skipped.
browser:
	@command -v chromium >/dev/null 2>&1 || { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null \
	  && (apt-get update -qq && apt-get install -y -qq chromium >/dev/null) \
	  || echo "note: no chromium; the ComfyUI page test will be skipped"; }

test: setup lint browser
	$(PY) -m pytest

bench: setup
	$(PY) -m benchmarks
	$(PY) -m benchmarks.batch

# Every model-like fixture against its truth; PNGs under benchmarks/_quality/.
quality: $(STAMP)
	$(PY) -m benchmarks.quality
