# SPDX-License-Identifier: GPL-2.0
# Stand-in for the buildroot's kernel.mk (see rules.mk): the target kernel is STUB_KDIR.
LINUX_DIR := $(STUB_KDIR)
KERNEL_MAKE = $(MAKE) -C $(LINUX_DIR)
AutoProbe = $(1)
