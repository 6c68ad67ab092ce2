# BPF objects and their skeletons, for a directory that includes
# mk/common.mk first (trusttop/, relay/): the libbpf-tools shape, NAME.bpf.c
# compiled against vmlinux.h into $(B)/NAME.bpf.o, and bpftool's skeleton
# $(B)/NAME.skel.h (struct NAME_bpf).  A directory adds each object's other
# headers as prerequisites of $(B)/NAME.bpf.o.
#
#   BPF_CLANG  clang (-target bpf)
#   BPFTOOL    bpftool (vmlinux.h, skeletons)

BPF_CLANG ?= clang
BPFTOOL ?= bpftool
BPF_CC = $(BPF_CLANG) -g -O2 -target bpf -mcpu=v3 -D__TARGET_ARCH_x86

# vmlinux.h comes from the patched kernel's BTF when it has been built,
# else from the running kernel's: CO-RE relocates at load time either way.
VMLINUX_BTF ?= $(firstword $(wildcard $(TOP)/build/kernel/src/vmlinux) \
			   /sys/kernel/btf/vmlinux)

# Regenerate vmlinux.h when the BTF source changes (e.g. the kernel appears).
$(B)/vmlinux.src: FORCE | $(B)/
	@echo '$(VMLINUX_BTF)' | cmp -s - $@ || echo '$(VMLINUX_BTF)' > $@

$(B)/vmlinux.h: $(B)/vmlinux.src $(VMLINUX_BTF)
	$(call say,GEN)
	$(Q)$(BPFTOOL) btf dump file $(VMLINUX_BTF) format c > $@.tmp
	$(Q)mv $@.tmp $@

# lib/ holds trustedfor_abi.h and the BPF parts two tools share (lib/bpf/).
# (The tests/ rule: more specific than common.mk's C rule for tests/%.o.)
define bpf_obj
	$(call say,BPF)
	$(Q)mkdir -p $(@D)
	$(Q)$(BPF_CC) -I$(B) -I. -I$(TOP)/lib -c $< -o $@
endef
$(B)/%.bpf.o: %.bpf.c $(TOP)/lib/trustedfor_abi.h $(B)/vmlinux.h
	$(bpf_obj)
$(B)/tests/%.bpf.o: tests/%.bpf.c $(TOP)/lib/trustedfor_abi.h $(B)/vmlinux.h
	$(bpf_obj)

$(B)/%.skel.h: $(B)/%.bpf.o
	$(call say,GEN)
	$(Q)$(BPFTOOL) gen skeleton $< name $(subst -,_,$(notdir $*))_bpf > $@.tmp
	$(Q)mv $@.tmp $@
