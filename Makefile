# sensorwatch — the two set-up commands are `make run` and `make test`.
SWIFT      ?= swift
PREFIX     ?= /usr/local
DESTDIR    ?=
CONFIG     ?= config/sensorwatch.json5
RELEASE    := .build/release/sensorwatch
SWIFTFLAGS := -Xswiftc -warnings-as-errors

.PHONY: all deps build release run test unit integration bench install clean

all: release

# Installs the one system package the build needs, only when it is missing.
deps:
	@if ! command -v pkg-config >/dev/null 2>&1 || ! pkg-config --exists libsystemd; then \
		echo "installing libsystemd-dev and pkg-config"; \
		apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y libsystemd-dev pkg-config; \
	fi

# The shipped binary: release mode, Swift runtime linked statically.
release: deps
	$(SWIFT) build -c release --static-swift-stdlib $(SWIFTFLAGS)

build: release

run: release
	$(RELEASE) run --config $(CONFIG)

unit: deps
	$(SWIFT) build --build-tests $(SWIFTFLAGS)
	$(SWIFT) test --skip-build

integration: release
	@scripts/run-integration

test: unit integration

bench: release
	@bench/run

clean:
	rm -rf .build
