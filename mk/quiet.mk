# Quiet build output, as the kernel and libbpf-tools print it (included by
# mk/common.mk).  In a recipe:
#	$(call say,CC)
#	$(Q)$(COMPILE) -c -o $@ $<
# Default: one "  CC      user/policyctl/main.o" line per command (the
# target under build/); V=1: every command in full, no such line;
# make -s: neither.

ifeq ($(V),1)
Q :=
say :=
else
Q := @
ifneq ($(findstring s,$(firstword -$(MAKEFLAGS))),)
say :=
else
say = @printf '  %-7s %s\n' '$(1)' '$(patsubst $(TOP)/build/%,%,$@)'
endif
MAKEFLAGS += --no-print-directory
endif
