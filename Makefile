# sensorwatch — the two set-up commands are `make run` and `make test`.
SWIFT      ?= swift
PREFIX     ?= /usr/local
DESTDIR    ?=
CONFIG     ?= config/sensorwatch.json5
RELEASE    := .build/release/sensorwatch
SWIFTFLAGS := -Xswiftc -warnings-as-errors

.PHONY: all deps build release run test lint format unit integration rule-tests bench install clean

all: release

# Installs the system packages the build and its tests need, only when they are missing
# (systemd-journal-remote: the history reader's tests and the fleet test write journal files;
# libcurl4-openssl-dev: libcurl's headers for notify, which opens libcurl only when it runs;
# openssh-server and -client: `top` and `watch` over ssh, scripts/it/live-ssh.sh).
deps:
	@if ! command -v pkg-config >/dev/null 2>&1 || ! pkg-config --exists libsystemd; then \
		echo "installing libsystemd-dev and pkg-config"; \
		apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y libsystemd-dev pkg-config; \
	fi
	@if [ ! -e /usr/include/x86_64-linux-gnu/curl/curl.h ] && [ ! -e /usr/include/curl/curl.h ]; then \
		echo "installing libcurl4-openssl-dev (notify's alertmanager targets)"; \
		apt-get update && DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y libcurl4-openssl-dev; \
	fi
	@if [ ! -x /lib/systemd/systemd-journal-remote ]; then \
		echo "installing systemd-journal-remote"; \
		apt-get update && DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y systemd-journal-remote; \
	fi
	@# The package's own service is not for us: a policy-rc.d keeps it from starting while it
	@# installs (on a machine that runs systemd), and it is left disabled.
	@if [ ! -x /usr/sbin/sshd ] || ! command -v ssh >/dev/null 2>&1; then \
		echo "installing openssh-server and openssh-client (scripts/it/live-ssh.sh runs an sshd of its own on 127.0.0.1:17122; the system's ssh service is not started and is left disabled)"; \
		guard=; if [ ! -e /usr/sbin/policy-rc.d ]; then printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d && chmod 0755 /usr/sbin/policy-rc.d && guard=1; fi; \
		apt-get update && DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y openssh-server openssh-client; rc=$$?; \
		if [ -n "$$guard" ]; then rm -f /usr/sbin/policy-rc.d; fi; \
		systemctl disable ssh.service ssh.socket >/dev/null 2>&1 || true; \
		exit $$rc; \
	fi

# The shipped binary: release mode, Swift runtime linked statically; all symbols bound at
# start-up (-z now, with the default relro: a read-only GOT, as Debian's hardening wants).
# DWARF 4 debug info: Debian 12's valgrind (3.19) cannot read the DWARF 5 forms of a binary
# this size (it gave up on the whole binary once notify's code was added; memcheck-*.sh).
# No RUNPATH of $ORIGIN (SwiftPM's default): a root daemon must not look for its libraries
# beside its binary first, where a writable directory would let anyone plant one.
# Linked by the toolchain's lld for three things that cut `size` by 1.2 MB (bench/README.md,
# "binary size"): identical functions folded (--icf=all), relative relocations packed
# (DT_RELR: glibc 2.36, Debian 12), and no dynamic symbol table of our own symbols (the
# static stdlib's link file asks for -export-dynamic; nothing looks our symbols up by name).
# Each function in a section of its own, laid out in the order of packaging/symbol-order.txt
# (the steady loop's functions, then start-up's; bench/symbol-order.sh writes it), so the
# code that runs sits on few pages: resident 9.1 -> 7.1 MiB at 1000 zones (bench/README.md).
# SwiftPM does not see the order file: a newer one is linked by removing the old binary.
# Segments start 64 KiB apart in memory as in the file, so a page-cache folio of 64 KiB and
# the kernel's 64 KiB fault-around window cover the same code, not halves of two
# (bench/README.md, "resident with 20 BMCs").
ORDER := packaging/symbol-order.txt
release: deps
	@if [ -e $(RELEASE) ] && [ $(ORDER) -nt $(RELEASE) ]; then rm -f $(RELEASE); fi
	$(SWIFT) build -c release --static-swift-stdlib --disable-local-rpath $(SWIFTFLAGS) -Xlinker -z -Xlinker now \
		-Xswiftc -use-ld=lld -Xlinker --icf=all -Xlinker -z -Xlinker pack-relative-relocs -Xlinker --no-export-dynamic \
		-Xswiftc -Xfrontend -Xswiftc -function-sections \
		-Xlinker --symbol-ordering-file=$(CURDIR)/$(ORDER) -Xlinker --no-warn-symbol-ordering \
		-Xswiftc -dwarf-version=4 -Xcc -gdwarf-4 -Xlinker -z -Xlinker max-page-size=65536

build: release

# The demo keeps its alert state under .build/, never in the installed service's
# /var/lib/sensorwatch (a demo run must not move the real service's alerts, nor start with
# theirs); its status file and live socket go where `status`, `watch` and `top` look.
RUN_STATE ?= $(CURDIR)/.build/run-state
# The unit's environment too (glibc's malloc settings), so the demo runs as the service does.
UNIT_ENV := $(shell sed -n 's/^Environment=//p' systemd/sensorwatch.service)
run: release
	env $(UNIT_ENV) STATE_DIRECTORY=$(RUN_STATE) $(RELEASE) run --config $(CONFIG)

unit: deps
	$(SWIFT) build --build-tests $(SWIFTFLAGS)
	$(SWIFT) test --skip-build

integration: release
	@scripts/run-integration

# The shipped configurations' own rule tests (config/tests/), run as a user's CI would.
rule-tests: release
	$(RELEASE) test config/tests/*.json5

# The code's layout, checked by the toolchain's swift-format against .swift-format (120 columns,
# 4 spaces); `make format` applies it.
lint:
	swift format lint --strict --recursive --parallel Sources Tests

format:
	swift format format --in-place --recursive --parallel Sources Tests

test: lint unit integration rule-tests fuzz-smoke

bench: release
	@bench/run

# libFuzzer targets (fuzz/): `fuzz` fuzzes each for FUZZ_SECONDS on a working corpus in
# .build/fuzz; `fuzz-smoke` replays the checked-in corpus and fuzzes 10 s each.
FUZZ_SECONDS ?= 300

.PHONY: fuzz fuzz-smoke

fuzz:
	@fuzz/run.sh $(FUZZ_SECONDS)

fuzz-smoke:
	@fuzz/run.sh --smoke

clean:
	rm -rf .build dist

# Where systemd looks for units and message catalogs of packages (not under PREFIX: systemd
# searches /usr/lib, and `journalctl --update-catalog` reads /usr/lib/systemd/catalog).
UNITDIR    ?= /usr/lib/systemd/system
CATALOGDIR ?= /usr/lib/systemd/catalog
CONFDIR    ?= /etc/sensorwatch
LIBEXECDIR ?= $(PREFIX)/lib/sensorwatch
MANDIR     ?= $(PREFIX)/share/man
# The runbook the shipped limit rules point at (file:///usr/share/doc/sensorwatch/limits.md).
DOCDIR     ?= $(PREFIX)/share/doc/sensorwatch
# The installed configuration reads the real sensors only (the `make run` one adds a demo feed).
INSTALL_CONFIG ?= config/sensorwatch.example.json5

# Installs binary, units (ExecStart pointing at PREFIX; sensorwatch-notify.service is not
# enabled: it needs a notify list first), catalog, node-exporter-link (makes the link
# node_exporter reads the metrics through), man pages and example configuration.
# An existing configuration is kept; on a live system (no DESTDIR) the catalog database
# and systemd are refreshed.
install: release
	install -D -m 0755 $(RELEASE) $(DESTDIR)$(PREFIX)/bin/sensorwatch
	install -d -m 0755 $(DESTDIR)$(UNITDIR) $(DESTDIR)$(CATALOGDIR) $(DESTDIR)$(CONFDIR)/scenarios
	sed -e 's|/usr/local/bin/sensorwatch|$(PREFIX)/bin/sensorwatch|g' \
		-e 's|/etc/sensorwatch/|$(CONFDIR)/|g' systemd/sensorwatch.service \
		> $(DESTDIR)$(UNITDIR)/sensorwatch.service
	chmod 0644 $(DESTDIR)$(UNITDIR)/sensorwatch.service
	sed -e 's|/usr/local/bin/sensorwatch|$(PREFIX)/bin/sensorwatch|g' \
		-e 's|/etc/sensorwatch/|$(CONFDIR)/|g' systemd/sensorwatch-notify.service \
		> $(DESTDIR)$(UNITDIR)/sensorwatch-notify.service
	chmod 0644 $(DESTDIR)$(UNITDIR)/sensorwatch-notify.service
	sed -e 's|/usr/local/bin/sensorwatch|$(PREFIX)/bin/sensorwatch|g' \
		-e 's|/etc/sensorwatch/|$(CONFDIR)/|g' systemd/sensorwatch-mqtt.service \
		> $(DESTDIR)$(UNITDIR)/sensorwatch-mqtt.service
	chmod 0644 $(DESTDIR)$(UNITDIR)/sensorwatch-mqtt.service
	install -m 0644 systemd/sensorwatch.catalog $(DESTDIR)$(CATALOGDIR)/sensorwatch.catalog
	install -D -m 0755 packaging/node-exporter-link $(DESTDIR)$(LIBEXECDIR)/node-exporter-link
	install -D -m 0644 man/sensorwatch.8 $(DESTDIR)$(MANDIR)/man8/sensorwatch.8
	install -D -m 0644 man/sensorwatch.json5.5 $(DESTDIR)$(MANDIR)/man5/sensorwatch.json5.5
	install -D -m 0644 docs/limits.md $(DESTDIR)$(DOCDIR)/limits.md
	@test -e $(DESTDIR)$(CONFDIR)/sensorwatch.json5 \
		|| install -m 0644 $(INSTALL_CONFIG) $(DESTDIR)$(CONFDIR)/sensorwatch.json5
	@for f in config/scenarios/*; do \
		[ -e "$$f" ] || continue; \
		[ -e "$(DESTDIR)$(CONFDIR)/scenarios/$${f##*/}" ] || install -m 0644 "$$f" $(DESTDIR)$(CONFDIR)/scenarios/; \
	done
	@if [ -z "$(DESTDIR)" ]; then \
		journalctl --update-catalog || true; \
		$(LIBEXECDIR)/node-exporter-link || true; \
		if [ -d /run/systemd/system ]; then systemctl daemon-reload || true; fi; \
	fi

.PHONY: uninstall

# Removes what install put in place, except the configuration and the kept state.
uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/sensorwatch $(DESTDIR)$(UNITDIR)/sensorwatch.service \
		$(DESTDIR)$(UNITDIR)/sensorwatch-notify.service $(DESTDIR)$(UNITDIR)/sensorwatch-mqtt.service \
		$(DESTDIR)$(CATALOGDIR)/sensorwatch.catalog $(DESTDIR)$(LIBEXECDIR)/node-exporter-link \
		$(DESTDIR)$(MANDIR)/man8/sensorwatch.8 $(DESTDIR)$(MANDIR)/man5/sensorwatch.json5.5 \
		$(DESTDIR)$(DOCDIR)/limits.md
	@prom=$(DESTDIR)/var/lib/prometheus/node-exporter/sensorwatch.prom; \
		if [ -L "$$prom" ] && [ "$$(readlink "$$prom")" = /run/sensorwatch/sensorwatch.prom ]; then rm -f "$$prom"; fi
	@if [ -z "$(DESTDIR)" ]; then journalctl --update-catalog || true; fi

.PHONY: deb

# The Debian package dist/sensorwatch_<version>_<arch>.deb, built with dpkg-deb from the
# release binary and packaging/deb/ (installs dpkg-dev and lintian with apt when missing).
deb: release
	@scripts/make-deb.sh
