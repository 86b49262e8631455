# SPDX-License-Identifier: GPL-2.0
"""Run the analysis tests and print TAP (scripts/summary.sh counts it)."""
import os
import sys
import unittest

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(here))


class Tap(unittest.TextTestResult):
    n = 0

    def _line(self, test, ok, why=""):
        Tap.n += 1
        print(f"{'ok' if ok else 'not ok'} {Tap.n} - {test.id()}{why}", flush=True)

    def addSuccess(self, test):
        self._line(test, True)

    def addFailure(self, test, err):
        self._line(test, False)
        print("# " + self._exc_info_to_string(err, test).replace("\n", "\n# "))

    addError = addFailure

    def addSkip(self, test, reason):
        self._line(test, True, f" # SKIP {reason}")


suite = unittest.defaultTestLoader.discover(here)
print("TAP version 13")
print(f"1..{suite.countTestCases()}")
res = unittest.TextTestRunner(stream=open(os.devnull, "w"), resultclass=Tap).run(suite)
sys.exit(0 if res.wasSuccessful() else 1)
