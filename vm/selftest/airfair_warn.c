// SPDX-License-Identifier: GPL-2.0
/*
 * Harness self-test: a module whose only job is to make the kernel log a WARNING when it
 * loads. The VM harness must fail any run in which this happens, whatever the test
 * script's own exit status says.
 */
#include <linux/module.h>
#include <linux/bug.h>

static int __init airfair_warn_init(void)
{
	WARN(1, "airfair-vm harness self-test: deliberate warning\n");
	return 0;
}

static void __exit airfair_warn_exit(void)
{
}

module_init(airfair_warn_init);
module_exit(airfair_warn_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Deliberate WARN to prove the sch_airfair VM harness catches kernel warnings");
