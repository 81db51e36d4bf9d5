# A thin layer over npm scripts. `make demo` and `make test` work on a fresh machine with only
# Node >= 20 and npm: each installs what it needs (npm ci) first.
.PHONY: demo test build typecheck golden man bench ci clean

STAMP := node_modules/.cursorlog-installed

$(STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund
	@touch $@

build: $(STAMP)
	npm run build

demo: build
	node bin/cursorlog.js text -v examples/session.ndjson
	node bin/cursorlog.js json --pretty examples/session.ndjson

test: build
	npm test

typecheck: $(STAMP)
	npm run typecheck

golden: build
	UPDATE_GOLDEN=1 npm test

man: build
	node bin/cursorlog.js man > man/cursorlog.1

bench: build
	bash bench/run.sh

ci: test

clean:
	rm -rf dist node_modules
