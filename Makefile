# The two commands a new user needs:
#   make demo   set everything up, then run the main job on the embedded ComfyUI
#   make test   set everything up, then lint and run the tests
# Everything lives in this checkout: .venv/ (the project) and .embedded/ (ComfyUI + its venv).

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: setup demo test lint bench browser engines quality

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

# The engine tests load our sheets with the engines' own code (Phaser 3 and 4, PixiJS 8)
# from npm into tests/_engines/ (git-ignored); the tests install them too when missing,
# and skip with a note where npm or the registry is not there.
engines:
	@command -v npm >/dev/null 2>&1 || { echo "note: no npm; the engine tests will be skipped"; exit 0; }; \
	for p in phaser3=phaser@3 phaser4=phaser@4 pixi8=pixi.js@8; do \
	  dir=tests/_engines/$${p%%=*}; [ -d $$dir/node_modules ] || npm install --silent --no-audit \
	    --no-fund --prefer-offline --prefix $$dir $${p#*=} || echo "note: npm could not install $${p#*=}"; \
	done

test: setup lint browser engines
	$(PY) -m pytest

bench: setup
	$(PY) -m benchmarks
	$(PY) -m benchmarks.batch

# Every model-like fixture against its truth; PNGs under benchmarks/_quality/.
quality: $(STAMP)
	$(PY) -m benchmarks.quality
