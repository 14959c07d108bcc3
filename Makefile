# dht — the one interface. `make run` starts a local 3-node cluster; `make test` runs every test.
SHELL := /bin/bash
.DEFAULT_GOAL := build

# Temurin 25: JAVA_HOME if it is 25+, else the Debian/Temurin install path.
JAVA_HOME ?= $(shell for d in "$$JAVA_HOME" /usr/lib/jvm/temurin-25-jdk-amd64 /usr/lib/jvm/temurin-25-jdk; do \
	  [ -x "$$d/bin/java" ] && "$$d/bin/java" -version 2>&1 | grep -qE 'version "(2[5-9]|[3-9][0-9])' && { echo "$$d"; break; }; done)
export JAVA_HOME
export PATH := $(JAVA_HOME)/bin:$(PATH)
SHARED ?= $(abspath ../shared)
K8S_LOCAL := $(SHARED)/k8s-local
MVN := mvn -B -ntp

# touched after a whole install: a module packaged alone (say the app jar, for a benchmark) leaves
# the others stale, so freshness is not judged by one module's jar
BUILT := target/.built
SOURCES := $(shell find pom.xml */pom.xml */src/main -type f 2>/dev/null)

.PHONY: kubectl-plugin build run test chaos fmt bench bench-wrk2 backup-bench bench-k8s soak heal-bench scale-bench clean check-java prereqs chart-test images e2e docs

check-java:
	@[ -n "$(JAVA_HOME)" ] || { echo "Temurin/JDK 25 not found: set JAVA_HOME to a JDK 25" >&2; exit 1; }
	@command -v mvn >/dev/null || { echo "installing maven"; apt-get update -qq && apt-get install -y -qq maven; }

## build: compile everything and package app/target/dht.jar + app/target/lib/ (node and load generator)
build: $(BUILT)
$(BUILT): $(SOURCES) | check-java
	$(MVN) -q install -DskipTests -Dspotless.check.skip=true
	@mkdir -p target && touch $@

## run: a local 3-node cluster on 127.0.0.1:8080-8082, in the foreground until Ctrl-C
run: build
	scripts/local-cluster.sh run

## test: unit, property and black-box tests of every module (and the operator's against a real apiserver;
## installs Debian's faketime and chromium when missing: clock-skew tests, the report site in a browser)
test: check-java prereqs chart-test
	@[ -e /usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1 ] || { echo "installing faketime (clock-skew tests)"; \
	  apt-get update -qq && apt-get install -y -qq faketime >/dev/null; }
	@command -v chromium >/dev/null || { echo "installing chromium (the report site read in a browser)"; \
	  apt-get update -qq && apt-get install -y -qq chromium >/dev/null; }
	python3 -m unittest discover -s plugin -q
	$(MVN) install

## chaos: faults against local node processes (kill -9, SIGSTOP, wiped data, clock jumps, away past
## the grace, partitioned past the grace, scale 3 -> 5 -> 3, default ack/from 2/3 -> 2/2 -> 2/3)
## under 2/3 load, each history checked: lost, stale, resurrected, wrong copies must all be 0
## (~6 min; the table also goes to node/target/chaos.txt)
chaos: check-java
	@[ -e /usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1 ] || { echo "installing faketime (clock jumps)"; \
	  apt-get update -qq && apt-get install -y -qq faketime >/dev/null; }
	$(MVN) -q install -DskipTests -Dspotless.check.skip=true -pl contract -am
	$(MVN) test -pl node -Dchaos.excluded=none -Dgroups=chaos

## fmt: format the Java sources (the build checks the format)
fmt: check-java
	$(MVN) -q spotless:apply

## bench: start a local cluster, fill it, sweep PUT/GET rates, print a table (docs/benchmarks)
bench: build
	scripts/bench.sh

## bench-wrk2: wrk2 -t4 -c64 against a bare Vert.x server and the local 3-node cluster in one run;
## both tables and the ratio of their peaks (builds wrk2 with ../shared/tools/build-wrk2.sh if missing)
bench-wrk2: build
	SHARED="$(SHARED)" scripts/bench-wrk2.sh

## backup-bench: backup and restore throughput (1M keys by default) with a local SeaweedFS
backup-bench: build
	scripts/backup-bench.sh

## bench-k8s: DhtLoadTests (a first PUT on cold pods, then PUT and GET per rate) against a DhtCluster
## with the CRD's defaults on the local Kubernetes, and the same runs over loopback; one table with
## the p99 ratio per row (~15 min; docs/benchmarks)
bench-k8s: build
	SHARED="$(SHARED)" scripts/bench-k8s.sh

## soak: three local nodes under constant 2/3 load, one paused (SIGSTOP) for 3 minutes; prints heap
## and RSS per node every 10 s and the requests' outcomes (~4 min; docs/benchmarks)
soak: build
	scripts/soak.sh

## heal-bench: a wiped node's bootstrap, a repair run with nothing to repair (what an interval costs),
## hint replay (three local nodes, 1M keys of 100 B; ~4 min)
heal-bench: build
	scripts/heal-bench.sh

## scale-bench: grow 3 -> 5 local nodes and back with KEYS keys (default 100k); phase durations
scale-bench: build
	scripts/scale-bench.sh

clean:
	$(MVN) -q clean
## prereqs: a real kube-apiserver + etcd + controller-manager (k8s-local `api` mode, ~7 min the
## first time, <1 s when up) for the operator's tests; they reach it through its admin kubeconfig.
## And a real cert-manager (its controller built from the Go module proxy, ~2.5 min the first time)
## and a real S3 store for the backup tests (SeaweedFS's weed, likewise, ~4 min the first time)
prereqs:
	$(K8S_LOCAL)/ensure.sh api >/dev/null
	scripts/cert-manager.sh
	scripts/seaweedfs.sh

## kubectl-plugin: installs `kubectl dht` (plugin/kubectl-dht: Python 3 and kubectl) into $(PLUGIN_DIR)
PLUGIN_DIR ?= /usr/local/bin
kubectl-plugin:
	install -m 0755 plugin/kubectl-dht $(PLUGIN_DIR)/kubectl-dht
	@echo "kubectl dht --help"

## chart-test: offline checks of the Helm chart charts/dht: helm lint --strict, rendered objects
## validated against Kubernetes 1.34 (kubernetes-validate) and our CRDs (kubeconform -strict)
chart-test: prereqs
	e2e/chart-check.sh

## images: node + operator images with Jib (no daemon, no registry) into app|operator/target/
## jib-image.tar, tagged <version>-<sha>-<time>, each with its SBOM (/app/sbom.cdx.json); names,
## tags and digests in target/images.env; loaded into k8s-local when it is the current cluster.
## Base: k8s-local's jre25 tar without its shell (scripts/shellless-base.py), else
## JIB_FROM_IMAGE=eclipse-temurin:25-jre
images: build
	MVN="$(MVN)" SHARED="$(SHARED)" e2e/images.sh

## e2e: end-to-end tests on a real cluster: the current KUBECONFIG if it answers (k8s-local: images
## loaded with load-image.sh), else a kind cluster (kind + Docker; images via kind load)
e2e: images
	SHARED="$(SHARED)" e2e/run.sh

## docs: the manual (docs/, mkdocs.yml) built with MkDocs in strict mode into target/site: a broken
## link, any warning, or a CRD reference (docs/reference/crds.md) that differs from crds/ fails. MkDocs (pinned) is installed into the venv target/docs-venv if missing
DOCS_VENV := target/docs-venv
MKDOCS_VERSION := 1.6.1
docs:
	@python3 -c 'import ensurepip' 2>/dev/null || { echo "installing python3-venv"; \
	  apt-get update -qq && apt-get install -y -qq python3-venv >/dev/null; }
	@[ -x $(DOCS_VENV)/bin/mkdocs ] && $(DOCS_VENV)/bin/mkdocs --version | grep -q 'version $(MKDOCS_VERSION) ' || { \
	  echo "installing mkdocs==$(MKDOCS_VERSION) into $(DOCS_VENV)"; \
	  python3 -m venv $(DOCS_VENV) && $(DOCS_VENV)/bin/pip install -q --disable-pip-version-check 'mkdocs==$(MKDOCS_VERSION)'; }
	@$(DOCS_VENV)/bin/python scripts/crd-reference.py crds/*.yml | diff -u docs/reference/crds.md - >/dev/null || { \
	  echo "docs/reference/crds.md is stale: python3 scripts/crd-reference.py crds/*.yml > docs/reference/crds.md" >&2; exit 1; }
	$(DOCS_VENV)/bin/mkdocs build --strict -d target/site
