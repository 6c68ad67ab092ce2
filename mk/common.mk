# Shared build settings for every userspace part of trustfor.
# Include from a tool's Makefile:  include ../mk/common.mk
# SAN=1 builds the ASan+UBSan flavour into build/asan instead of build/user.

TOP := $(abspath $(dir $(lastword $(MAKEFILE_LIST)))/..)
SAN ?= 0
ifeq ($(SAN),1)
O ?= $(TOP)/build/asan
SANFLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer \
	    -fno-sanitize-recover=all
else
O ?= $(TOP)/build/user
SANFLAGS :=
endif

CC ?= gcc
CFLAGS ?= -O2 -g
CFLAGS += -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror $(SANFLAGS) \
	  -I$(TOP)/lib -MMD -MP
LDFLAGS += $(SANFLAGS)

# libtrustedfor + shared helpers, built once per flavour.
LIBTF := $(O)/lib/libtrustedfor.a

PREFIX ?= /usr/local
DESTDIR ?=
