// SPDX-License-Identifier: GPL-2.0
/*
 * Harness self-test: a module whose only job is to make the kernel complain when it
 * loads. The VM harness must fail any run in which this happens, whatever the test
 * script's own exit status says.
 *
 *   kind=warn  a WARNING (any kernel)
 *   kind=leak  an allocation nobody frees (seen by kmemleak on the debug kernel)
 *   kind=uaf   a read after kfree (seen by KASAN on the debug kernel)
 *   kind=emufault  the console of a guest the emulator killed (vm/emulator-fault.sh),
 *              then a panic: the harness must run the command once more, and fail
 *   kind=dbtrap  a single-step trap in kernel mode, the kernel's exc_debug_kernel
 *              warning that QEMU's TCG sometimes leaks: the selftest runner must run
 *              the test once more, and the harness must not count it
 */
#include <linux/module.h>
#include <linux/bug.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/compiler.h>
#include <linux/panic.h>

static char *kind = "warn";
module_param(kind, charp, 0444);
MODULE_PARM_DESC(kind, "what to provoke: warn, leak, uaf, emufault or dbtrap");

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
	} else if (!strcmp(kind, "emufault")) {
		/* reserved bits 22-31 set in the saved flags: no CPU pushes that */
		pr_emerg("traps: PANIC: double fault, error_code: 0x0\n");
		pr_emerg("RSP: 0018:ff603ffa004e3500 EFLAGS: 83160a02\n");
		panic("airfair-vm harness self-test: emulator fault");
	} else if (!strcmp(kind, "dbtrap")) {
		/* x86-64 (the VM's guests): TF set for one instruction, #DB with DR_STEP */
		asm volatile("pushf\n\t"
			     "orl $0x100, (%%rsp)\n\t"
			     "popf\n\t"
			     "nop\n\t"
			     "pushf\n\t"
			     "andl $~0x100, (%%rsp)\n\t"
			     "popf" ::: "memory", "cc");
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
