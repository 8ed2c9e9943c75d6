# Two commands do all the set-up on a fresh machine: `make test` and (with the
# app) `make run`. Both create .venv and install what they need into it.
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
SHARED_RULINGS := ../shared/tools/check-rulings

.PHONY: test test-slow lint bench clean

$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -e '.[dev]'
	touch $(STAMP)

lint: $(STAMP)
	$(VENV)/bin/ruff check engine tests bench
	$(VENV)/bin/ruff format --check engine tests bench
	$(VENV)/bin/mypy --strict engine

test: lint
	$(VENV)/bin/pytest
	@if [ -x $(SHARED_RULINGS) ]; then \
		echo "shared table-record scenarios:"; \
		$(SHARED_RULINGS) --engine "$(PY) -m engine check"; \
	fi

test-slow: $(STAMP)
	$(VENV)/bin/pytest -m slow

bench: $(STAMP)
	$(PY) bench/engine_bench.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
