# SPDX-License-Identifier: GPL-2.0
# Stand-ins for the OpenWrt buildroot's rules.mk and include/*.mk, enough to evaluate the feed's
# package Makefiles on a Debian host and run their recipes with the host's compiler,
# kernel headers and Debian's iproute2 source in place of the target's (check.sh).
# They define the variables and functions the feed uses, with the buildroot's meaning.
# Set by check.sh: TOPDIR (this buildroot), STUB_OUT (work dir), STUB_KDIR (kernel
# build tree), STUB_SOURCE (an unpacked PKG_SOURCE).
INCLUDE_DIR := $(TOPDIR)/include
BUILD_DIR := $(STUB_OUT)/build_dir
TOOLCHAIN_ROOT_DIR :=
CP := cp -fpR
INSTALL_DIR := install -d -m0755
INSTALL_BIN := install -m0755
INSTALL_DATA := install -m0644
INSTALL_CONF := install -m0600
TARGET_CC := gcc
TARGET_CFLAGS := -O2 -pipe
TARGET_CPPFLAGS :=
TARGET_LDFLAGS :=
FPIC := -fPIC
PKG_JOBS := -j$(shell nproc)
MAKE_VARS = CFLAGS="$(TARGET_CFLAGS)" CPPFLAGS="$(TARGET_CPPFLAGS)" \
	LDFLAGS="$(TARGET_LDFLAGS)" CC="$(TARGET_CC)"
