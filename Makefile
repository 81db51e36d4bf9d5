# A thin layer over npm scripts. `make demo` and `make test` work on a fresh machine with only
# Node >= 20 and npm: each installs what it needs (npm ci) first.
.PHONY: demo test stress build typecheck golden man bench ci clean

STAMP := node_modules/.cursorlog-installed

# npm ci without the build its "prepare" (scripts/prepare.mjs) would run: the rule below builds,
# once, so a fresh clone builds once (npm install in a clone still builds in "prepare").
$(STAMP): package.json package-lock.json
	CURSORLOG_PREPARE_BUILD=no npm ci --no-audit --no-fund
	@touch $@

# What `npm run build` reads (the lock: the bundle holds the dependencies); BUILT, rewritten by
# every build, is remade when one of them is newer, so a second `make test` builds nothing.
BUILD_INPUTS := $(shell find src -type f) $(wildcard schemas/*.json schemas/claude-code/*.json schemas/gemini/*.json schemas/codex/*.json) tsconfig.json package.json \
	package-lock.json scripts/build.mjs scripts/bundle.mjs scripts/code-cache.mjs scripts/build-validators.ts
BUILT := dist/bundle/main.js

$(BUILT): $(BUILD_INPUTS) | $(STAMP)
	npm run build

build: $(BUILT)

demo: build
	node bin/cursorlog.js text -v examples/session.ndjson
	node bin/cursorlog.js json --pretty examples/session.ndjson

# The fast loop: every golden byte for byte, small fuzz counts and stress inputs, files run
# several at once (scripts/run-tests.mjs).
test: build
	npm test

# The heavy runs: fuzzing at large counts, hundreds of MiB of input, every golden again in 1-, 3-
# and 7-byte chunks, the HTML timeline in Chromium, OTLP checked against Python's opentelemetry-proto.
stress: build
	npm run test:stress

typecheck: $(STAMP)
	npm run typecheck

# Rewrites the golden files, and docs/timeline.png from the browser test (a make stress file).
golden: build
	UPDATE_GOLDEN=1 npm test
	UPDATE_GOLDEN=1 node scripts/run-tests.mjs test/timeline-html-browser.test.ts

man: build
	node bin/cursorlog.js man > man/cursorlog.1

bench: build
	bash bench/run.sh

ci: test stress

clean:
	rm -rf dist node_modules
