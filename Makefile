# trustfor — top-level build.  See README.md.
#   make            kernel + tools
#   make kernel     the patched Linux 6.1 (build/kernel/)
#   make kernel-debug  the same with KASAN, lockdep, kmemleak... from
#                   tinyconfig + the selftests' fragment (build/kernel-debug/)
#   make kernel-deb Debian packages of the patched kernel with Debian's own
#                   configuration (build/kernel-deb/*.deb; KCONFIG=FILE,
#                   LOCALMOD=LSMOD-LISTING, KDEB_COMPRESS=gzip: see
#                   kernel/build.sh and README "Deploying the kernel")
#   make tf-stress  tests/kernel/tf-stress (build/tests/), run on it
#   make tools      libtrustedfor, the userspace tools and their test helpers
#                   (one target per directory: make -j2 tools, make policyctl)
#   make check      every test suite (host + VM); last line "N passed, N failed"
#   make demo       the end-to-end story in the VM
#   make install    PREFIX=/usr/local DESTDIR=
#   make deps       install the Debian packages everything needs (root;
#                   make check and make demo do it first: nothing but a
#                   dpkg-query when everything is installed)
#   V=1             show the build commands in full

# The directories whose Makefile includes mk/common.mk: lib/, the tools
# (installed) and the test programs (tests/probe/, when it is there).  They
# link lib's archive, so they wait for lib/ (which they would otherwise all
# build at once under -j).
TOOL_DIRS := $(patsubst %/Makefile,%,$(wildcard policyctl/Makefile \
	auditd-plugin/Makefile trusttop/Makefile relay/Makefile interpreters/Makefile))
TEST_DIRS := $(patsubst %/Makefile,%,$(wildcard tests/probe/Makefile))
TOP := $(CURDIR)
include mk/quiet.mk

KERNEL_INPUTS := kernel/build.sh kernel/config/vm.config \
	kernel/patches/series $(wildcard kernel/patches/*.patch)

# The debug kernel's fragments: the selftests' own one comes with the
# patches; kernel/config/vm.config is not used.
KERNEL_DEBUG_INPUTS := kernel/build.sh kernel/config/boot.config \
	kernel/config/debug.config kernel/patches/series \
	$(wildcard kernel/patches/*.patch)
TF_STRESS := build/tests/tf-stress

all: kernel tools

kernel: build/kernel/bzImage

build/kernel/bzImage: $(KERNEL_INPUTS)
	bash kernel/build.sh

kernel-debug: build/kernel-debug/bzImage

build/kernel-debug/bzImage: $(KERNEL_DEBUG_INPUTS)
	bash kernel/build.sh --debug

# Always run: the script rebuilds only what changed (configuration, series,
# sources), and KCONFIG/LOCALMOD are not files make could compare.
kernel-deb:
	bash kernel/build.sh --deb

tf-stress: $(TF_STRESS)

$(TF_STRESS): tests/kernel/tf-stress.c
	mkdir -p $(@D)
	$(CC) -std=c11 -D_GNU_SOURCE -O2 -g -Wall -Wextra -Werror -pthread \
		-o $@ $<

tools: lib $(TOOL_DIRS) $(TEST_DIRS)

lib:
	$(Q)$(MAKE) -C lib all

# The tools' test helpers include the probe (tests/probe), which each tool's
# Makefile builds on demand: build it before them, or under -j several
# sub-makes write the same probe.o at once and one links a torn object.
$(TEST_DIRS): lib
$(TOOL_DIRS): lib $(TEST_DIRS)
$(TOOL_DIRS) $(TEST_DIRS):
	$(Q)$(MAKE) -C $@ all test-helpers

# A debug kernel that does not build (a fragment's option that does not
# apply, say) fails its VM case, not the other suites; a kernel package
# that does not build fails the system suite.  The system suite's kernel
# package is trimmed to its VM's modules (kernel/config/qemu-lsmod.txt).
SYSTEM_KERNEL_DEB = kernel-deb LOCALMOD=kernel/config/qemu-lsmod.txt KDEB_COMPRESS=gzip
check: deps
	$(MAKE) kernel tools tf-stress
	$(MAKE) kernel-debug || { rm -f build/kernel-debug/bzImage; \
		echo "make check: no debug kernel: the kernel-debug case fails" >&2; }
	$(MAKE) $(SYSTEM_KERNEL_DEB) || \
		echo "make check: no kernel package: the system suite fails" >&2
	tests/run

# Only the suites of the Debian system: the series under Debian's full
# configuration, and the whole Debian system booted on the kernel package
# (with TF_SYSTEM_CACHE=/var/cache/trustfor-system, as .ci/run, the
# packages it builds are the ones the next make check finds there).
check-system: deps
	$(MAKE) tools
	$(MAKE) $(SYSTEM_KERNEL_DEB) || \
		echo "make check-system: no kernel package: the system suite fails" >&2
	tests/run --system-only

demo: deps
	$(MAKE) kernel tools
	tests/demo/run

deps:
	bash .ci/deps

install: tools
	$(MAKE) -C lib install
	set -e; for d in $(TOOL_DIRS); do $(MAKE) -C $$d install; done
	install -d $(DESTDIR)$(or $(PREFIX),/usr/local)/share/man/man2
	install -m 0644 man/trusted_for.2 $(DESTDIR)$(or $(PREFIX),/usr/local)/share/man/man2/

uninstall:
	$(MAKE) -C lib uninstall
	set -e; for d in $(TOOL_DIRS); do $(MAKE) -C $$d uninstall; done
	rm -f $(DESTDIR)$(or $(PREFIX),/usr/local)/share/man/man2/trusted_for.2

# make deb: Debian packages of the userspace parts (debian/) into build/deb/,
# built by dpkg-buildpackage from a copy of the tree (build/deb/src/trustfor);
# tested by tests/deb/check.sh (install in a debootstrap'd chroot).
DEB_SRC := build/deb/src/trustfor
deb:
	rm -rf build/deb/src build/deb/*.deb
	mkdir -p $(DEB_SRC)
	rsync -a --exclude=/build/ --exclude=/.git/ ./ $(DEB_SRC)/
	@echo "deb: dpkg-buildpackage -us -uc -b in $(DEB_SRC) (log: build/deb/build.log)"
	cd $(DEB_SRC) && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
		dpkg-buildpackage -us -uc -b > ../../build.log 2>&1 || \
		{ tail -40 ../../build.log; echo "deb: failed, see build/deb/build.log" >&2; exit 1; }
	cp build/deb/src/*.deb build/deb/
	@if command -v lintian > /dev/null; then \
		lintian --pedantic --display-info build/deb/src/*.changes > build/deb/lintian.log 2>&1; \
		echo "deb: lintian: $$(grep -c '^[EW]:' build/deb/lintian.log) errors/warnings," \
			"$$(grep -c '^[IP]:' build/deb/lintian.log) info/pedantic (build/deb/lintian.log)"; \
	fi
	@ls -1 build/deb/*.deb

clean:
	rm -rf build

.PHONY: lib $(TOOL_DIRS) $(TEST_DIRS)
.PHONY: all kernel kernel-debug kernel-deb tf-stress tools check check-system demo deps install uninstall deb clean
