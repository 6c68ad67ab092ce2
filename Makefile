# trustfor — top-level build.  See README.md.
#   make            kernel + tools
#   make kernel     the patched Linux 6.1 (build/kernel/)
#   make tools      libtrustedfor and the userspace tools
#   make check      every test suite (host + VM); last line "N passed, N failed"
#   make demo       the end-to-end story in the VM
#   make install    PREFIX=/usr/local DESTDIR=
#   make deps       install the Debian packages everything needs (root)

TOOL_DIRS := $(patsubst %/Makefile,%,$(wildcard policyctl/Makefile \
	auditd-plugin/Makefile trusttop/Makefile interpreters/Makefile))
KERNEL_INPUTS := kernel/build.sh kernel/config/vm.config \
	kernel/patches/series $(wildcard kernel/patches/*.patch)

all: kernel tools

kernel: build/kernel/bzImage

build/kernel/bzImage: $(KERNEL_INPUTS)
	bash kernel/build.sh

tools:
	$(MAKE) -C lib
	set -e; for d in $(TOOL_DIRS); do $(MAKE) -C $$d; done

check: kernel tools
	tests/run

demo: kernel tools
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

clean:
	rm -rf build

.PHONY: all kernel tools check demo deps install uninstall clean
