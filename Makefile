# Two commands do all the set-up on a fresh machine: `make test` and (with the
# app) `make run`. Both create .venv and install what they need into it.
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
SHARED_RULINGS := ../shared/tools/check-rulings

HTMX_VERSION := 2.0.11
HTMX := static/vendor/htmx.min.js

SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
# (`$(SUDO) env VAR=... apt-get`, not `VAR=... $(SUDO) apt-get`: sudo resets the environment.)

.PHONY: run serve serve-https redis caddy test test-slow lint bench bench-web bench-standalone bench-instructions load clean chromium firefox check-firefox webkit check-webkit valgrind messages paper standalone

$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -e '.[dev]'
	touch $(STAMP)

# htmx is served from our own static files (the table may have no internet),
# taken from the npm registry's htmx.org package at a pinned version.
$(HTMX):
	rm -rf build/htmx && mkdir -p build/htmx static/vendor
	cd build/htmx && npm pack --silent htmx.org@$(HTMX_VERSION) >/dev/null \
		&& tar -xzf htmx.org-$(HTMX_VERSION).tgz package/dist/htmx.min.js
	cp build/htmx/package/dist/htmx.min.js $(HTMX)

# The app with no server (issue 28): Pyodide from the npm registry's package (pinned in
# standalone/package-lock.json), the project and the packages it runs on, built into
# build/standalone/ by scripts/build_standalone.py (build.js, written last, stands for a
# whole build); made again when a file it holds changed.
STANDALONE := build/standalone/build.js
STANDALONE_SOURCES := $(shell find engine companion templates static migrations standalone \
	-type f -not -path '*/node_modules/*' -not -path '*/__pycache__/*' \
	-not -path 'standalone/firefox/*' -not -path 'standalone/webkit/*' 2>/dev/null) \
	$(wildcard docs/RULES*.md)
$(STANDALONE): $(STAMP) $(HTMX) scripts/build_standalone.py $(STANDALONE_SOURCES)
	$(PY) scripts/build_standalone.py
standalone: $(STANDALONE)

# The browser tests drive Debian's Chromium (Playwright never downloads one here), and
# give it a CA to trust with NSS's certutil (libnss3-tools: tests/browser/test_https.py).
chromium:
	@command -v chromium >/dev/null 2>&1 && command -v certutil >/dev/null 2>&1 || { \
		echo "Installing Debian's chromium, chromium-driver and libnss3-tools for the browser tests"; \
		$(SUDO) apt-get update -qq && \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver libnss3-tools >/dev/null; }

# Where systemd runs, Debian's packages start a service of their own (a Redis on port
# 6379, a Caddy on port 80): the app starts its own instead, so those are stopped.
NO_SERVICE = { { command -v systemctl && $(SUDO) systemctl disable --now $(1); } >/dev/null 2>&1 || true; }

# The rate limits of a server with several workers count in Redis (Debian's
# redis-server): `make serve` starts one, the tests their own (scripts/redis.sh).
redis:
	@command -v redis-server >/dev/null 2>&1 || { \
		echo "Installing Debian's redis-server for the rate limits"; \
		$(SUDO) apt-get update -qq && \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server >/dev/null \
		&& $(call NO_SERVICE,redis-server); }

# https in front of gunicorn: Debian's caddy (make serve-https, deploy/Caddyfile).
caddy:
	@command -v caddy >/dev/null 2>&1 || { \
		echo "Installing Debian's caddy for make serve-https"; \
		$(SUDO) apt-get update -qq && \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq caddy >/dev/null \
		&& $(call NO_SERVICE,caddy); }

run: $(STAMP) $(HTMX)
	$(PY) -m companion

# Production: gunicorn with several workers (settings from the environment,
# see docs/OPERATIONS.md), its rate limits counted in a Redis of the instance folder's
# own unless COMPANION_RATELIMIT_STORAGE_URI names one.
serve: $(STAMP) $(HTMX) redis
	@uri="$${COMPANION_RATELIMIT_STORAGE_URI:-}"; \
	if [ -z "$$uri" ]; then uri=$$(bash scripts/redis.sh start "$${COMPANION_INSTANCE:-instance}/redis") || exit 1; fi; \
	COMPANION_RATELIMIT_STORAGE_URI="$$uri" exec $(VENV)/bin/gunicorn -c gunicorn.conf.py wsgi:app

# The same behind Caddy, over https: a certificate for COMPANION_PUBLIC_URL's name from
# Let's Encrypt, or on a home network one from Caddy's own CA, whose root phones trust
# from /trust (scripts/serve_https.py; docs/OPERATIONS.md, "https: make serve-https").
serve-https: $(STAMP) $(HTMX) redis caddy
	$(PY) scripts/serve_https.py

lint: $(STAMP)
	$(VENV)/bin/ruff check engine companion tests bench wsgi.py scripts/build_standalone.py scripts/serve_https.py standalone/webkit
	$(VENV)/bin/ruff format --check engine companion tests bench wsgi.py scripts/build_standalone.py scripts/serve_https.py standalone/webkit
	$(VENV)/bin/mypy --strict companion engine

# Every test on SQLite; then, when TEST_DATABASE_URL names a PostgreSQL database
# (.ci/run starts a throwaway one), the database-backed suites again on it: every app
# test but PG_SAME's, and the browser tests where the database is at work under the screen (several
# phones on one table, an answer lost after the server recorded it, double taps on cards
# and the two-phone refresh race); the other browser tests check the screen itself, the
# same on either database (a whole hand by tapping among them: the app tests play whole
# hands on PostgreSQL through the same routes).
PG_BROWSER := tests/browser/test_together.py tests/browser/test_never_lost.py \
	tests/browser/test_double_taps.py::test_a_double_tap_on_a_card_records_one_play \
	tests/browser/test_double_taps.py::test_the_two_phone_refresh_race_records_one_line_and_tells_the_second_phone
# Not again on PostgreSQL: the app tests that check the source, the HTTP server, the
# rules page, languages, icons, the manifest and link addresses, URL building, static
# files' addresses, the app in the phone handed out, and the app started without a
# server's packages, the same whatever the database (CI's time: the PostgreSQL pass is
# about a third of it); and the browser tests on the phone's screen only
# (-k 'not desktop'): the database is the same under either.
PG_SAME := test_rules_in_engine test_shape test_bounded test_server_shape test_hosts \
	test_rules_page test_rules_contents test_installable test_public_url test_icons \
	test_languages test_catalogs_once test_card_faces test_phone test_without_a_server \
	test_https test_trust_page test_routing test_static_versions
PG_IGNORE := $(foreach f,$(PG_SAME),--ignore=tests/app/$(f).py)
# The tests run in parallel, one worker per core, at most 4 but at least 3: a browser
# test waits on its page about half its time (on 2 cores, 3 workers took CI from 901 s
# to 854 s). A test file per worker at a time (its module's servers stay its own); on
# PostgreSQL each worker has a database of its own (tests/databases.py). The files in the
# order collected: the slowest first (tests/conftest.py), not xdist's own order (the most
# tests first, which handed a file of one minute-long test out last).
WORKERS := $(shell n=$$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2); \
	if [ $$n -lt 3 ]; then echo 3; elif [ $$n -gt 4 ]; then echo 4; else echo $$n; fi)
PARALLEL := -n $(WORKERS) --dist loadfile --no-loadscope-reorder
# The lint and the standalone build (each mostly one core's work) side by side.
test: $(HTMX) chromium redis caddy
	@$(MAKE) --no-print-directory -j2 lint $(STANDALONE)
	$(VENV)/bin/pytest $(PARALLEL)
	@if [ -n "$$TEST_DATABASE_URL" ]; then \
		echo "The app tests and the database's browser tests again, on PostgreSQL:"; \
		COMPANION_TEST_POSTGRES=1 $(VENV)/bin/pytest $(PARALLEL) -k 'not desktop' tests/app $(PG_IGNORE) $(PG_BROWSER); \
	fi
	@if [ -x $(SHARED_RULINGS) ]; then \
		echo "shared table-record scenarios:"; \
		$(SHARED_RULINGS) --engine "$(PY) -m engine check"; \
	fi

test-slow: $(STAMP)
	$(VENV)/bin/pytest -m slow

# The paper table: the uniform policy's mean hand length at 2-6 players against the
# research simulator's, within 1% (engine/tools/paper.py; README, "The paper table").
PAPER_JOBS ?= 2
paper: $(STAMP)
	$(PY) -m engine paper --jobs $(PAPER_JOBS)

bench: $(STAMP)
	$(PY) bench/engine_bench.py

# The app in the phone in Chromium: a first visit's bytes, cold and warm starts, a play
# against the server (bench/standalone.py; docs/PERFORMANCE.md). E.g. each thread of the
# browser on a quarter of a core (a phone's cores, 4x slower; root: cgroups):
# make bench-standalone BENCH_STANDALONE_ARGS="--slower 4 --each-thread"
BENCH_STANDALONE_ARGS ?=
bench-standalone: $(STANDALONE) chromium
	$(PY) bench/standalone.py $(BENCH_STANDALONE_ARGS)

# The app in the phone checked in a second engine: Debian's Firefox ESR, driven over
# WebDriver BiDi by puppeteer-core (standalone/firefox/, pinned; Playwright drives only
# its own Firefox builds). A first visit, a match's first lines, a reload keeping them.
# Not part of make test (the browser tests run in Chromium).
firefox:
	@command -v firefox-esr >/dev/null 2>&1 || { \
		echo "Installing Debian's firefox-esr for make check-firefox"; \
		$(SUDO) apt-get update -qq && \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq firefox-esr >/dev/null \
		|| { echo "Could not install firefox-esr: apt-get install firefox-esr, then again"; exit 1; }; }
standalone/firefox/node_modules/.package-lock.json: standalone/firefox/package-lock.json
	cd standalone/firefox && npm ci --no-audit --no-fund --silent
check-firefox: $(STANDALONE) firefox standalone/firefox/node_modules/.package-lock.json
	node standalone/firefox/check.mjs build/standalone

# The same walk in WebKit, Safari's engine family: Debian's WebKitGTK MiniBrowser driven
# by its WebKitWebDriver (W3C WebDriver over HTTP, standalone/webkit/check.py) on a
# virtual display (Xvfb). Not part of make test.
webkit:
	@command -v WebKitWebDriver >/dev/null 2>&1 && command -v Xvfb >/dev/null 2>&1 || { \
		echo "Installing Debian's webkit2gtk-driver and xvfb for make check-webkit"; \
		$(SUDO) apt-get update -qq && \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq webkit2gtk-driver xvfb >/dev/null \
		|| { echo "Could not install webkit2gtk-driver and xvfb: apt-get install them, then again"; exit 1; }; }
check-webkit: $(STANDALONE) webkit
	$(PY) standalone/webkit/check.py build/standalone

# The table's endpoints in-process: ratios to a bare endpoint and to another commit
# (bench/web.py; docs/PERFORMANCE.md). E.g. make bench-web BENCH_WEB_ARGS="--against REF"
BENCH_WEB_ARGS ?=
bench-web: $(STAMP) $(HTMX)
	$(PY) bench/web.py $(BENCH_WEB_ARGS)

# The same endpoints counted in instructions (valgrind, Debian's package): a change's
# cost without this machine's noise. E.g. make bench-instructions BENCH_INSTRUCTIONS_ARGS="--against REF"
BENCH_INSTRUCTIONS_ARGS ?=
bench-instructions: $(STAMP) $(HTMX) valgrind
	$(PY) bench/instructions.py $(BENCH_INSTRUCTIONS_ARGS)

valgrind:
	@command -v valgrind >/dev/null 2>&1 || { \
		echo "Installing Debian's valgrind for make bench-instructions"; \
		$(SUDO) apt-get update -qq && \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq valgrind >/dev/null \
		|| { echo "Could not install valgrind: apt-get install valgrind, then again"; exit 1; }; }

# The real server (gunicorn) under 200 simulated tables; figures in docs/PERFORMANCE.md.
# One thread a worker, as behind a proxy (docs/OPERATIONS.md); make serve's 32: --threads 32.
# More options: make load LOAD_ARGS="--db both --tables 200 --duration 30"
LOAD_ARGS ?=
load: $(STAMP) $(HTMX)
	$(PY) -m bench.load $(LOAD_ARGS)

# The catalogs (engine/locale): extracted, merged into each language's messages.po
# (translators fill those in) and compiled; see scripts/catalogs.py. The test suite
# fails on a sentence missing from a catalog (tests/test_catalogs.py).
messages: $(STAMP)
	$(PY) scripts/catalogs.py

clean:
	rm -rf $(VENV) build static/vendor standalone/node_modules standalone/firefox/node_modules .pytest_cache .mypy_cache .ruff_cache .hypothesis
