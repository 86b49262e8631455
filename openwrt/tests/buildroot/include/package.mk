# SPDX-License-Identifier: GPL-2.0
# Stand-in for the buildroot's package.mk (see rules.mk). Targets:
#   dump      the package's fields, one "KEY=value" per line
#   prepare   Build/Prepare      compile   + Build/Configure, Build/Compile
#   install   + the package's install recipe into $(STUB_OUT)/root/<package>
PKG_BUILD_DIR ?= $(BUILD_DIR)/$(PKG_NAME)-$(PKG_VERSION)
CONFIGURE_ARGS :=
CONFIGURE_VARS :=
MAKE_FLAGS :=

# PKG_SOURCE, unpacked: the stand-in copies STUB_SOURCE
define Build/Prepare/Default
	rm -rf $(PKG_BUILD_DIR) && mkdir -p $(PKG_BUILD_DIR)
	$(CP) $(STUB_SOURCE)/. $(PKG_BUILD_DIR)/
endef

define Build/Configure/Default
	if [ -x $(PKG_BUILD_DIR)/configure ]; then \
		cd $(PKG_BUILD_DIR) && $(CONFIGURE_VARS) ./configure $(CONFIGURE_ARGS); fi
endef

# $(1): tree, $(2): directory of patches, applied in name order
define PatchDir
	for p in $$(ls $(2)/*.patch 2>/dev/null | sort); do \
		patch -d $(1) -p1 -s -N -i $$p || exit 1; done
endef

define stub_dump
	@echo 'PKG_NAME=$(PKG_NAME)'
	@echo 'PKG_VERSION=$(PKG_VERSION)'
	@echo 'PKG_RELEASE=$(PKG_RELEASE)'
	@echo 'PKG_LICENSE=$(PKG_LICENSE)'
	@echo 'PKG_SOURCE=$(PKG_SOURCE)'
	@echo 'PKG_HASH=$(PKG_HASH)'
	@echo 'PKG_BUILD_DIR=$(PKG_BUILD_DIR)'
	@echo 'PACKAGE=$(1)'
	@echo 'TITLE=$(TITLE)'
	@echo 'DEPENDS=$(strip $(DEPENDS))'
	@echo 'PROVIDES=$(PROVIDES)'
	@echo 'ALTERNATIVES=$(ALTERNATIVES)'
	@echo 'FILES=$(strip $(FILES))'
	@echo 'AUTOLOAD=$(AUTOLOAD)'
	@echo 'CONFFILES=$(strip $(Package/$(1)/conffiles))'
	@echo 'DESCRIPTION=$(if $(Package/$(1)/description)$(KernelPackage/$(patsubst kmod-%,%,$(1))/description),yes,no)'
endef

# recipes are referenced with $$ so that they expand once, when they run, as in the
# buildroot
define stub_targets
.PHONY: dump prepare compile install
dump:
	$(call stub_dump,$(1))
prepare:
	$$(if $$(value Build/Prepare),$$(Build/Prepare),$$(Build/Prepare/Default))
compile: prepare
	$$(if $$(value Build/Configure),$$(Build/Configure),$$(Build/Configure/Default))
	$$(Build/Compile)
install: compile
	rm -rf $(STUB_OUT)/root/$(1) && mkdir -p $(STUB_OUT)/root/$(1)
	$$(call $(2),$(STUB_OUT)/root/$(1))
endef

define stub_kmod_install
	$(INSTALL_DIR) $(1)/lib/modules/target
	$(INSTALL_DATA) $(FILES) $(1)/lib/modules/target/
endef

BuildPackage = $(eval $(Package/$(1)))$(eval $(call stub_targets,$(1),Package/$(1)/install))
KernelPackage = $(eval $(KernelPackage/$(1)))$(eval $(call stub_targets,kmod-$(1),stub_kmod_install))
