# Shared build settings and rules for every userspace part of trustfor.
# Include first thing from a directory's Makefile:  include ../mk/common.mk
# (from tests/probe/: include ../../mk/common.mk).
#
#   SAN=1   the ASan+UBSan flavour, into build/asan instead of build/user
#   O=DIR   another output root (made absolute, passed on to lib/)
#   V=1     show every command; by default one "  CC      file" line each
#           (and nothing under make -s)
#
# The directory's outputs go to $(B) = $(O)/$(TF_DIR), TF_DIR being the
# directory's name unless set before the include.  This file gives it:
#   - the compile command $(COMPILE): our flags, then the caller's
#     CPPFLAGS / CFLAGS (e.g. dpkg-buildflags); $(LINK) with LDFLAGS;
#     dependency files (-MMD -MP) of objects, test binaries and helpers
#     linked straight from a .c file;
#   - $(B)/%.o: %.c, $(B)/tests/%.o: tests/%.c and DIR/: the one directory
#     rule (use "| $(B)/" or "| $(B)/tests/" as order-only prerequisite);
#   - $(LIBTF), lib's internal archive, built by lib/ in this flavour;
#   - $(PROBE), the test probe (tests/probe), built there in this flavour;
#   - test-helpers: builds $(TEST_HELPERS) (what the test suites and VM
#     cases run besides the tools);
#   - check / run-tests: the one result gate, see mk/tests.mk;
#   - clean: removes $(B) of both flavours and $(CLEAN_EXTRA).
# The directory's Makefile defines all: (the default goal), install,
# uninstall and its own link rules.

TOP := $(abspath $(dir $(lastword $(MAKEFILE_LIST)))/..)
TF_DIR ?= $(notdir $(CURDIR))
.DEFAULT_GOAL := all

# A recipe that fails leaves no half-written target behind.
.DELETE_ON_ERROR:

SAN ?= 0
ifeq ($(SAN),1)
O ?= $(TOP)/build/asan
SANFLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer \
	    -fno-sanitize-recover=all
else
O ?= $(TOP)/build/user
SANFLAGS :=
endif
# Absolute, so that lib/ (make -C) puts the archive where this one looks.
override O := $(abspath $(O))
B := $(O)/$(TF_DIR)

# The project's flags (a directory adds to TF_CPPFLAGS / TF_CFLAGS), then
# the caller's CPPFLAGS and CFLAGS (dpkg-buildflags: _FORTIFY_SOURCE,
# hardening), which may thus override ours; LDFLAGS likewise.
CC ?= gcc
CFLAGS ?= -O2 -g
TF_CPPFLAGS := -D_GNU_SOURCE -I$(TOP)/lib
TF_CFLAGS := -std=c11 -Wall -Wextra -Werror $(SANFLAGS)
DEPFLAGS := -MMD -MP
# Compile (add -c -o $@ $<), or compile and link a helper in one go (add
# -o $@ $< ... $(LDFLAGS) libraries); LINK links objects.
COMPILE = $(CC) $(TF_CPPFLAGS) $(CPPFLAGS) $(TF_CFLAGS) $(CFLAGS) $(DEPFLAGS)
LDFLAGS += $(SANFLAGS)
LINK = $(CC) $(LDFLAGS)

# The tools' internal archive: every lib/*.c, linked statically.  The
# public library (lib/pub/libtrustedfor.{a,so.1}) is another thing.
LIBTF := $(O)/lib/libtf-internal.a

PREFIX ?= /usr/local
DESTDIR ?=

include $(TOP)/mk/quiet.mk

# The one directory rule: "| $(B)/" as an order-only prerequisite.
%/:
	$(Q)mkdir -p $@
.PRECIOUS: %/

$(B)/%.o: %.c | $(B)/
	$(call say,CC)
	$(Q)$(COMPILE) -c -o $@ $<

$(B)/tests/%.o: tests/%.c | $(B)/tests/
	$(call say,CC)
	$(Q)$(COMPILE) -I. -c -o $@ $<

# lib/ builds its archive in this directory's flavour (SAN, O).  The
# top-level Makefile builds lib first, so that parallel tool builds only
# find it up to date.
ifneq ($(TF_DIR),lib)
$(LIBTF): FORCE
	$(Q)$(MAKE) -C $(TOP)/lib SAN=$(SAN) O=$(O) internal
endif

# The test probe every suite asks the kernel with (tests/probe/probe.c).
# Here too the top-level Makefile builds it before the tools, so that under
# -j they do not all build it at once (tests/build/parallel.sh).
PROBE := $(O)/tests/probe/probe
ifneq ($(TF_DIR),tests/probe)
$(PROBE): FORCE
	$(Q)$(MAKE) -C $(TOP)/tests/probe SAN=$(SAN) O=$(O) all
endif

# all's prerequisites come from the directory's Makefile; the empty recipe
# keeps make from saying "Nothing to be done" in quiet builds.
all:
	@:

# TEST_HELPERS is set after this file is read.
.SECONDEXPANSION:
test-helpers: $$(TEST_HELPERS)
	@:

include $(TOP)/mk/tests.mk

clean:
	rm -rf $(TOP)/build/user/$(TF_DIR) $(TOP)/build/asan/$(TF_DIR) $(CLEAN_EXTRA)

FORCE:
.PHONY: all check run-tests test-helpers install uninstall clean FORCE

# Dependency files of objects and of binaries linked from a .c file.
-include $(wildcard $(B)/*.d $(B)/tests/*.d)
