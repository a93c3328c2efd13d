# Podium: the external API of a sports-event registration platform.
# Every target loops over the workspace modules listed in go.work.

SHELL       := /bin/bash
BIN         := $(CURDIR)/bin
TOOLS       := $(BIN)/tools
MODULES     := $(shell go work edit -json | awk -F'"' '/"DiskPath"/ {print $$4}')
PACKAGES    := $(foreach m,$(MODULES),$(m)/...)
SERVICES    := auth catalog registration checkout webhooks gateway

STRIPE_MOCK_VERSION   := v0.203.0
SQLC_VERSION          := v1.31.1
GOLANGCI_LINT_VERSION := v2.15.0
NPM_TOOLS             := $(BIN)/npm/node_modules/.bin
OPENAPI               := libs/apispec/openapi.yaml
JAEGER_VERSION        := v1.76.0
KUBE_VERSION          := v1.34.4
ETCD_VERSION          := v3.6.4
KUBE_SCORE_VERSION    := v1.20.0
KUBECONFORM_VERSION   := v0.8.0

.DEFAULT_GOAL := help

.PHONY: help
help: ## Show this help.
	@awk 'BEGIN {FS = ":.*## "} /^[a-z-]+:.*## / {printf "  \033[36m%-10s\033[0m %s\n", $$1, $$2}' $(MAKEFILE_LIST)

.PHONY: build
build: ## Build every service into bin/, stamped with VERSION (default: git describe) and the commit.
	@mkdir -p $(BIN)
	@# Go stamps vcs.* in a workspace only with -buildvcs=true and never in a linked worktree
	@# (.git is a file there): the commit and the checkout's state go in with -X as well.
	pkg=github.com/podiumhq/podium/libs/service; \
	commit=$$(git rev-parse HEAD 2>/dev/null); modified=; \
	if [ -n "$$commit" ]; then modified=$$(test -z "$$(git status --porcelain)" && echo false || echo true); fi; \
	go build $(if $(wildcard .git/HEAD),-buildvcs=true) -o $(BIN)/ \
		-ldflags "-X $$pkg.Version=$(or $(VERSION),$(shell git describe --tags --always --dirty 2>/dev/null),dev) -X $$pkg.Commit=$$commit -X $$pkg.Modified=$$modified" \
		$(foreach s,$(SERVICES),./services/$(s)/cmd/$(s))

.PHONY: run
run: build tools $(if $(JAEGER),$(TOOLS)/jaeger) ## Run the whole system locally (Ctrl-C stops it); JAEGER=1 traces into Jaeger.
	PATH="$(TOOLS):$$PATH" go run ./system/cmd/devstack -bin $(BIN) $(if $(JAEGER),-jaeger $(TOOLS)/jaeger)

.PHONY: jaeger
jaeger: $(TOOLS)/jaeger ## Run Jaeger v2 in memory: OTLP on 4317/4318, API and UI on 16686.
	$(TOOLS)/jaeger

.PHONY: test
test: tools ## Run unit, integration and end-to-end tests (needs Postgres and Redis).
	PATH="$(TOOLS):$$PATH" go test -race -count=1 -timeout 20m $(PACKAGES)

.PHONY: fuzz
fuzz: tools ## Run every fuzz target for FUZZTIME each (default 30s; FUZZ=regexp picks targets).
	PATH="$(TOOLS):$$PATH" ./scripts/fuzz.sh

.PHONY: bench
bench: build tools nginx ## Measure the services against same-run baselines (bare nginx, a bare Go proxy, pgbench); report in bin/bench/report.md.
	go build -o $(TOOLS)/ ./system/cmd/bareproxy
	PATH="$(TOOLS):$$PATH" go run ./system/cmd/bench -bin $(BIN) -report $(BIN)/bench/report.md

.PHONY: lint
lint: $(TOOLS)/golangci-lint npm-tools ## Run golangci-lint on every module, Redocly CLI and Spectral on the OpenAPI document.
	@for m in $(MODULES); do echo "lint $$m"; (cd $$m && $(TOOLS)/golangci-lint run ./...) || exit 1; done
	REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true $(NPM_TOOLS)/redocly lint --config redocly.yaml $(OPENAPI)
	$(NPM_TOOLS)/spectral lint --ruleset .spectral.yaml --fail-severity warn $(OPENAPI)

.PHONY: npm-tools
npm-tools: $(BIN)/npm/package-lock.json ## Install the pinned Node tools of lint (tools/npm) into bin/npm.

$(BIN)/npm/package-lock.json: tools/npm/package.json tools/npm/package-lock.json
	@mkdir -p $(BIN)/npm
	cp tools/npm/package.json tools/npm/package-lock.json $(BIN)/npm/
	npm ci --prefix $(BIN)/npm --ignore-scripts --no-audit --no-fund

.PHONY: generate
generate: $(TOOLS)/sqlc ## Regenerate sqlc code for every service that has a sqlc.yaml.
	@for d in services/*; do [ -f $$d/sqlc.yaml ] && (cd $$d && $(TOOLS)/sqlc generate) || true; done

.PHONY: clients
clients: ## Regenerate the Go and TypeScript clients from the OpenAPI document (clients/).
	cd clients/go && go generate .
	cd clients/typescript && npm ci --no-audit --no-fund && npm run generate && npm run build

.PHONY: tidy
tidy: ## Tidy every module's go.mod (workspace modules stay unlisted).
	./scripts/tidy.sh

.PHONY: up
up: ## Start the production-like stack with Docker Compose.
	docker compose up --build -d

.PHONY: down
down: ## Stop the Docker Compose stack.
	docker compose down

.PHONY: deploy-tools
deploy-tools: $(TOOLS)/kube-apiserver $(TOOLS)/kubectl $(TOOLS)/etcd $(TOOLS)/kubeconform $(TOOLS)/kube-score ## Build or install the tools of deploy-check into bin/tools.

.PHONY: deploy-check
deploy-check: deploy-tools ## Check deploy/k8s: kubeconform, a real kube-apiserver (server dry-run, strict fields, restricted Pod Security), kube-score.
	cd deploy && go run ./cmd/deploycheck -tools $(TOOLS)
	$(TOOLS)/kubectl kustomize deploy/k8s | $(TOOLS)/kube-score score --exit-one-on-warning -

.PHONY: tools
tools: $(TOOLS)/stripe-mock $(TOOLS)/kubeconform ## Install the tools the tests and the local stack need.

.PHONY: nginx
nginx: ## Install Debian's nginx, make bench's bare-proxy baseline, unless it is there (needs root).
	@command -v nginx >/dev/null || test -x /usr/sbin/nginx || (apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y nginx)

.PHONY: chromium
chromium: ## Install Chromium for the browser tests (system/browser) unless it is there (needs root).
	@command -v chromium >/dev/null || (apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium)

$(TOOLS)/kubeconform:
	GOBIN=$(TOOLS) go install github.com/yannh/kubeconform/cmd/kubeconform@$(KUBECONFORM_VERSION)

$(TOOLS)/kube-score:
	GOBIN=$(TOOLS) go install github.com/zegl/kube-score/cmd/kube-score@$(KUBE_SCORE_VERSION)

$(TOOLS)/stripe-mock:
	GOBIN=$(TOOLS) go install github.com/stripe/stripe-mock@$(STRIPE_MOCK_VERSION)

$(TOOLS)/sqlc:
	GOBIN=$(TOOLS) CGO_ENABLED=1 go install github.com/sqlc-dev/sqlc/cmd/sqlc@$(SQLC_VERSION)

# Built from its module source (a few minutes, once); the UI page is a placeholder without the
# separately built jaeger-ui assets, the query API (/api/traces) is complete.
$(TOOLS)/jaeger:
	GOWORK=off GOFLAGS=-mod=mod go mod download github.com/jaegertracing/jaeger@$(JAEGER_VERSION)
	cd "$$(go env GOMODCACHE)/github.com/jaegertracing/jaeger@$(JAEGER_VERSION)" && \
		GOWORK=off GOFLAGS=-mod=mod go build -o $(TOOLS)/jaeger ./cmd/jaeger

$(TOOLS)/golangci-lint:
	GOBIN=$(TOOLS) go install github.com/golangci/golangci-lint/v2/cmd/golangci-lint@$(GOLANGCI_LINT_VERSION)

# deploy-check's API server, etcd and kubectl, built from module source once (scripts/k8s-tools.sh;
# with empty Go caches on 2 CPUs: kube-apiserver 290 s, kubectl 33 s, etcd 41 s); rebuilt only when
# the version recorded next to the binary (<tool>.version) differs from the pin above.
stale = $(if $(filter $(2),$(shell cat $(TOOLS)/$(1).version 2>/dev/null)),,FORCE)

$(TOOLS)/kube-apiserver: $(call stale,kube-apiserver,$(KUBE_VERSION))
	./scripts/k8s-tools.sh $(TOOLS) kube-apiserver $(KUBE_VERSION)

$(TOOLS)/kubectl: $(call stale,kubectl,$(KUBE_VERSION))
	./scripts/k8s-tools.sh $(TOOLS) kubectl $(KUBE_VERSION)

$(TOOLS)/etcd: $(call stale,etcd,$(ETCD_VERSION))
	./scripts/k8s-tools.sh $(TOOLS) etcd $(ETCD_VERSION)

.PHONY: FORCE
FORCE:
