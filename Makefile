# A thin layer over npm scripts. `make demo` and `make test` work on a fresh machine with only
# Node >= 20 and npm: each installs what it needs (npm ci) first.
.PHONY: demo test stress build typecheck golden man bench ci clean

STAMP := node_modules/.cursorlog-installed

$(STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund
	@touch $@

build: $(STAMP)
	npm run build

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

golden: build
	UPDATE_GOLDEN=1 npm test

man: build
	node bin/cursorlog.js man > man/cursorlog.1

bench: build
	bash bench/run.sh

ci: test stress

clean:
	rm -rf dist node_modules
