# SPDX-License-Identifier: GPL-2.0
#
# What the feed's packages share: where the project's sources are (the feed is the
# project's openwrt/ directory), its version, licence and maintainer.

AIRFAIR_SRC ?= $(abspath $(CURDIR)/../..)

PKG_VERSION:=$(shell cat $(AIRFAIR_SRC)/VERSION)
PKG_RELEASE:=1
PKG_LICENSE:=GPL-2.0-only
PKG_LICENSE_FILES:=LICENSE
PKG_MAINTAINER:=sch_airfair maintainers <maintainers@users.noreply.a-seed-13261ddb.example>
