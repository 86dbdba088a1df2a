# `make demo` and `make test` set everything up themselves on a fresh clone (Python 3.11, .venv, pinned packages).
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.ttbench-installed
OUT ?= out
JOBS ?= 2

.PHONY: wheel-check setup sim-env bench-ttsim demo test test-fast system-deps bench golden screenshot sweep conformance notebooks hf-zoo track lab clean

setup: $(STAMP)

$(STAMP): requirements.lock requirements-vision.lock pyproject.toml
	@command -v $(PYTHON) >/dev/null || { echo "needs $(PYTHON) on PATH (pyenv install 3.11, or apt-get install python3.11)"; exit 2; }
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -r requirements.lock
	# Model Explorer without ai-edge-model-explorer-adapter (481 MB of TF/TFLite converters ttbench never calls:
	# it serves JSON graphs); its other dependencies are in the lock.
	$(BIN)/python -m pip install -q --no-deps ai-edge-model-explorer==0.1.34
	$(BIN)/python -m pip install -q --no-deps -e .
	# timm and torchvision (the timm/ and torchvision/ zoo entries) in a folder of their own, on the path only once
	# ttbench/vision_zoo.py has made torchvision's import sound under the CPU torch: in site-packages, PyPI's CUDA
	# build of torchvision broke every `import transformers` model in the environment.
	rm -rf $(VENV)/vision-packages
	$(BIN)/python -m pip install -q --no-deps --target $(VENV)/vision-packages -r requirements-vision.lock
	@$(MAKE) --no-print-directory system-deps
	touch $@

# The simulator's side environment (.venv-sim: Python 3.12, ttnn==0.76.0 and the SFPI it pins, taken from the pinned
# jax-tt-plugin wheel; hashes checked). Idempotent. The simulator itself is the user's download: see docs/simulator.md.
sim-env: setup
	$(BIN)/python -m ttbench.tt.sim

# The simulator beside the interpreter (cold and warm wall time, per-op time): needs TTBENCH_TTSIM (docs/simulator.md).
bench-ttsim: sim-env
	$(BIN)/python benchmarks/bench_ttsim.py

# Debian packages: graphviz's `dot` for graph views (best effort: ttbench says how to get it when missing) and
# chromium for the browser tests (Playwright drives it; it downloads no browser of its own).
system-deps:
	@command -v dot >/dev/null || { command -v apt-get >/dev/null && [ "$$(id -u)" = 0 ] && \
	  (apt-get install -y -q graphviz >/dev/null 2>&1 || (apt-get update -q >/dev/null 2>&1 && apt-get install -y -q graphviz >/dev/null 2>&1)) \
	  || echo "note: graphviz not installed (graph views fall back to DOT text)"; }
	@command -v chromium >/dev/null || { command -v apt-get >/dev/null && [ "$$(id -u)" = 0 ] && \
	  (apt-get install -y -q chromium >/dev/null 2>&1 || (apt-get update -q >/dev/null 2>&1 && apt-get install -y -q chromium >/dev/null 2>&1)) \
	  || echo "note: chromium not installed: the browser tests need it (apt-get install chromium)"; }

demo: setup
	$(BIN)/ttbench bringup mobilenet_v2 --out $(OUT)/mobilenet_v2
	@echo "results: $(OUT)/mobilenet_v2 (one file per stage, manifest.json; the report: $(OUT)/mobilenet_v2/report.html)"

test: setup wheel-check
	$(BIN)/python -m pytest -q -ra --durations=15 tests --nbval-lax --nbval-sanitize-with notebooks/sanitize.cfg notebooks

# The inner loop (under 4 minutes): every test that needs no compiler (TTBENCH_DISABLE_TT: the plugin counts as
# absent, as on a machine without it), no browser, no notebook, no large model and no child process it starts on
# purpose; the interpreter's handlers on handwritten programs included. Each test's marks say what it needs
# (tests/conftest.py). `make test` runs everything.
test-fast: setup
	TTBENCH_DISABLE_TT=1 $(BIN)/python -m pytest -q -ra --durations=10 \
	  -m "not tt and not browser and not notebook and not slow and not subprocess" tests

# The built wheel, installed into a fresh virtualenv, imports and brings mlp up (what `pip install ttbench` gets,
# not the editable checkout). Its dependencies come from .venv through a path entry, so nothing is downloaded twice.
# The zoo is not part of the wheel: TTBENCH_MODELS points at a checkout's models/ folder.
WHEEL_DIR := build/wheel-check
wheel-check: setup
	rm -rf $(WHEEL_DIR) && mkdir -p $(WHEEL_DIR)
	$(BIN)/python -m pip wheel -q --no-deps -w $(WHEEL_DIR)/dist . 2>&1 | grep -v "^WARNING: Location" || true
	$(PYTHON) -m venv $(WHEEL_DIR)/venv
	$(BIN)/python -c "import sysconfig; print(sysconfig.get_paths()['purelib'])" > \
	  "$$($(WHEEL_DIR)/venv/bin/python -c "import sysconfig; print(sysconfig.get_paths()['purelib'])")/ttbench-deps.pth"
	$(WHEEL_DIR)/venv/bin/python -m pip install -q --no-deps $(WHEEL_DIR)/dist/ttbench-*.whl
	cd $(WHEEL_DIR) && venv/bin/ttbench --help >/dev/null
	cd $(WHEEL_DIR) && TTBENCH_MODELS=$(CURDIR)/models venv/bin/python -c "import ttbench as tb, sys; \
	  assert '/wheel-check/venv/' in tb.__file__, tb.__file__; \
	  m, x = tb.models.load('mlp'); b = tb.bringup(m, x, tt=False); \
	  assert b.ok, b.table(); print('wheel-check: installed wheel brings mlp up to', list(b.stages)[-1])"

# Refresh the golden export folders tests/transforms/test_diff.py compares against. Run on purpose, when a change to the IR is
# intended (new torch-mlir, tt-mlir, model code), and commit the result with the change. Binaries are left out.
GOLDEN_MODELS := mlp bert_tiny
golden: setup
	for m in $(GOLDEN_MODELS); do \
	  $(BIN)/ttbench bringup $$m --run cpu --out tests/golden/$$m >/dev/null || exit 1; \
	  rm -f tests/golden/$$m/weights.safetensors tests/golden/$$m/*.ttnn tests/golden/$$m/report.html; \
	done
	@echo "refreshed tests/golden/{$(GOLDEN_MODELS)}: review with git diff, commit with the change that caused it"

# A real headless-Chromium screenshot of mobilenet_v2's report.html (installs Debian's chromium when it can).
screenshot: setup
	@command -v chromium >/dev/null || apt-get install -y -q chromium >/dev/null 2>&1 || { echo "needs chromium (apt-get install chromium)"; exit 2; }
	$(BIN)/ttbench bringup mobilenet_v2 --out $(OUT)/mobilenet_v2 >/dev/null
	chromium --headless --no-sandbox --disable-gpu --no-first-run --disable-background-networking \
	  --disable-component-update --disable-sync --user-data-dir=$$(mktemp -d) --hide-scrollbars \
	  --window-size=1600,1200 --screenshot=$(OUT)/mobilenet_v2/report.png file://$(CURDIR)/$(OUT)/mobilenet_v2/report.html
	@echo "screenshot: $(OUT)/mobilenet_v2/report.png"

# The zoo status table (docs/status.md, .html, .json): every model x frontend, TT stages and the CPU run included;
# and the op support table (docs/op_support.md, .json): every op on its own through the TT compiler.
sweep: setup
	$(BIN)/ttbench sweep --ops --jobs $(JOBS) --out docs

# ONNX's backend node tests through ttbench and the bare route (fleet/conformance/bare_route.py): docs/onnx_conformance.md and .json (see docs/stages.md
# for how long it takes; `make test` runs a fixed sample of them against the committed table).
conformance: setup
	$(BIN)/ttbench conformance --jobs $(JOBS) --out docs

# The transformers zoo's census (docs/hf_zoo.json): every architecture built and run eagerly (~10 min here).
hf-zoo: setup
	$(BIN)/ttbench models --hf --check --out docs/hf_zoo.json

# The model tracker (docs/tracker.md): every architecture the census builds, compile-only, triaged;
# docs/track/ (status page, reproductions) and the tracker's entries in models/known_failures.json.
TRACK_DB ?= $(HOME)/.cache/ttbench/ttbench_results.sqlite
track: setup
	$(BIN)/ttbench track --jobs $(JOBS) --out docs/track --db $(TRACK_DB) --update-known

# Re-execute every notebook in place (their saved outputs are what a reader sees on GitHub; tests/
# test_notebooks_clean.py checks them for warnings, machine paths and progress bars).
notebooks: setup
	cd notebooks && for nb in *.ipynb; do ../$(BIN)/jupyter nbconvert --to notebook --execute --inplace \
	  --ExecutePreprocessor.timeout=1200 "$$nb" || exit 1; done

# JupyterLab on 127.0.0.1 with the notebooks.
# Loopback only; as root (containers) Jupyter refuses to start without --allow-root.
lab: setup
	$(BIN)/jupyter lab --ip=127.0.0.1 --no-browser $$([ "$$(id -u)" = 0 ] && echo --allow-root) notebooks

bench: setup
	$(BIN)/python benchmarks/bench_capture.py
	$(BIN)/python benchmarks/bench_tt.py
	$(BIN)/python benchmarks/bench_opt_level.py
	$(BIN)/python benchmarks/bench_run.py
	$(BIN)/python benchmarks/bench_op_by_op.py
	$(BIN)/python benchmarks/bench_op_by_op_tt.py
	$(BIN)/python benchmarks/bench_hoist.py
	$(BIN)/python benchmarks/bench_diff.py
	$(BIN)/python benchmarks/bench_render.py
	$(BIN)/python benchmarks/bench_sweep.py
	$(BIN)/python benchmarks/bench_llm.py
	$(BIN)/python benchmarks/bench_interp.py
	$(BIN)/python benchmarks/bench_startup.py

clean:
	rm -rf $(OUT) .pytest_cache
