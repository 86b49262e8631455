// SPDX-License-Identifier: GPL-2.0
/*
 * Harness self-test: a module whose only job is to make the kernel complain when it
 * loads. The VM harness must fail any run in which this happens, whatever the test
 * script's own exit status says.
 *
 *   kind=warn  a WARNING (any kernel)
 *   kind=leak  an allocation nobody frees (seen by kmemleak on the debug kernel)
 *   kind=uaf   a read after kfree (seen by KASAN on the debug kernel)
 */
#include <linux/module.h>
#include <linux/bug.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/compiler.h>

static char *kind = "warn";
module_param(kind, charp, 0444);
MODULE_PARM_DESC(kind, "what to provoke: warn, leak or uaf");

static int __init airfair_warn_init(void)
{
	if (!strcmp(kind, "leak")) {
		/* the only reference goes out of scope, as on a leaking error path */
		void *lost = kmalloc(192, GFP_KERNEL);

		if (!lost)
			return -ENOMEM;
		pr_info("airfair-vm harness self-test: leaking %p\n", lost);
	} else if (!strcmp(kind, "uaf")) {
		char *p = kmalloc(64, GFP_KERNEL);

		if (!p)
			return -ENOMEM;
		kfree(p);
		OPTIMIZER_HIDE_VAR(p);
		pr_info("airfair-vm harness self-test: read after free: %d\n", READ_ONCE(p[8]));
	} else {
		WARN(1, "airfair-vm harness self-test: deliberate warning\n");
	}
	return 0;
}

static void __exit airfair_warn_exit(void)
{
}

module_init(airfair_warn_init);
module_exit(airfair_warn_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Deliberate kernel complaints to prove the sch_airfair VM harness catches them");
