# kakehashi — a static site generator for bilingual (ja/ko) course material.
GO ?= go
# FUZZTIME, when set (10s, 5000x), is every fuzz target's budget; by
# default each has a count of runs, about ten seconds on a busy machine.
# A count, not a duration: with a duration Go 1.26's fuzzing coordinator
# may fail a target with "context deadline exceeded" as its time runs out
# (golang/go#75804), with no failing input.
FUZZTIME ?=

.PHONY: build test vet fuzz clean bench serve search-bench generate install

## generate: compile the calculators into build/wasm/embedded for the binary to embed (git-ignored)
generate:
	$(GO) generate ./build/wasm

## install: install a complete kakehashi (theme, UI strings and calculators inside) into $GOBIN or $(go env GOPATH)/bin
install: generate
	$(GO) install ./cmd/kakehashi

## build: render the bundled course into public/
build: generate
	$(GO) run ./cmd/kakehashi build

## serve: build the bundled course into memory and serve it on 127.0.0.1:1313 with live reload
serve: generate
	$(GO) run ./cmd/kakehashi serve --bind 127.0.0.1 --port 1313

## test: every test: vet, unit, whole-site, browser (headless Chromium), short fuzzing
test: vet generate
	@# The Nu HTML checker and axe-core for build/e2e's validate test (its
	@# install script, which would fetch a Java, is not run: java is the system's).
	@if command -v npm >/dev/null 2>&1 || [ "$$CI" = true ]; then \
		echo 'npm ci --ignore-scripts (build/internal/validate)' && \
		cd build/internal/validate && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error; \
	else echo "npm not found: skipping the HTML and accessibility checks (they are required under CI=true)"; fi
	$(GO) test ./...
	@# The WebAssembly runs under Node: skipped without it, except under CI=true.
	@if command -v node >/dev/null 2>&1 || [ "$$CI" = true ]; then \
		echo 'GOOS=js GOARCH=wasm go test ./shortcodes/calc/' && \
		PATH="$$PATH:$$($(GO) env GOROOT)/lib/wasm" GOOS=js GOARCH=wasm $(GO) test ./shortcodes/calc/ && \
		build/e2e/node/run.sh; \
	else echo "node not found: skipping the WebAssembly tests (they are required under CI=true)"; fi
	$(MAKE) fuzz

vet:
	$(GO) vet ./...
	@test -z "$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))" || { gofmt -l .; echo "gofmt: files above need formatting"; exit 1; }

## fuzz: run each fuzz target briefly (a count of runs each; FUZZTIME=30s for all)
fuzz:
	$(GO) test -run=NONE -fuzz=FuzzRender -fuzztime=$(or $(FUZZTIME),2000x) ./build/markdown
	$(GO) test -run=NONE -fuzz=FuzzLex -fuzztime=$(or $(FUZZTIME),50000x) ./shortcodes
	$(GO) test -run=NONE -fuzz=FuzzPage -fuzztime=$(or $(FUZZTIME),8000x) ./shortcodes
	$(GO) test -run=NONE -fuzz=FuzzDiskCodec -fuzztime=$(or $(FUZZTIME),60000x) ./build/cache
	$(GO) test -run=NONE -fuzz=FuzzFastPaths -fuzztime=$(or $(FUZZTIME),30000x) ./build/search
	$(GO) test -run=NONE -fuzz=FuzzJSONString -fuzztime=$(or $(FUZZTIME),80000x) ./build/search
	$(GO) test -run=NONE -fuzz=FuzzPlainNFC -fuzztime=$(or $(FUZZTIME),100000x) ./build/source
	$(GO) test -run=NONE -fuzz=FuzzSiteFS -fuzztime=$(or $(FUZZTIME),80000x) ./build/source
	$(GO) test -run=NONE -fuzz=FuzzContentPaths -fuzztime=$(or $(FUZZTIME),8000x) ./build
	$(GO) test -run=NONE -fuzz=FuzzCheckPath -fuzztime=$(or $(FUZZTIME),3000x) ./build/output
	$(GO) test -run=NONE -fuzz=FuzzNesting -fuzztime=$(or $(FUZZTIME),50000x) ./build/markdown
	$(GO) test -run=NONE -fuzz=FuzzAttributes -fuzztime=$(or $(FUZZTIME),3000x) ./build/markdown
	$(GO) test -run=NONE -fuzz=FuzzMark -fuzztime=$(or $(FUZZTIME),80000x) ./build/translation

## clean: remove build output
clean:
	rm -rf public bin .kakehashi-tmp-*
	find build/wasm/embedded -type f ! -name README.md -delete

## bench: kakehashi against the newest Hugo (HUGO, else ../shared/tools/hugo-latest.sh, else PATH) on the generated corpus, with serve's save-to-reload and the floor; writes docs/bench.md
## (BENCH_SIZES, BENCH_RUNS, BENCH_SERVE_EDITS; BENCH_STRICT=1 fails when the machine was too busy to judge the targets)
bench:
	$(GO) run ./build/internal/bench

## search-bench: kakehashi's search against Pagefind on the built course in headless Chromium (CHROMIUM); writes docs/search-bench.md
## (SEARCH_BENCH_SIZES: generated parts per language for the scale table, default "10 100 1000")
search-bench:
	$(GO) run ./cmd/kakehashi build -q -d .bench/search-site
	sizes="$${SEARCH_BENCH_SIZES-10 100 1000}"; scale=""; \
	for n in $$sizes; do \
		rm -rf .bench/search-corpus-$$n && \
		$(GO) run ./build/internal/cmd/corpus -n $$n .bench/search-corpus-$$n && \
		$(GO) run ./cmd/kakehashi build -q -s .bench/search-corpus-$$n -d .bench/search-corpus-$$n/public || exit 1; \
		scale="$$scale --scale $$n=.bench/search-corpus-$$n/public"; \
	done; \
	cd build/internal/searchbench && npm ci --no-audit --no-fund && cd ../../.. && \
	node build/internal/searchbench/bench.mjs --site .bench/search-site $$scale --out docs/search-bench.md
