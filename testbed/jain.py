#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Jain's fairness index J = (sum x)^2 / (n * sum x^2), 1/n <= J <= 1 (1 = all equal).

  jain.py 12.5 13.1 11.9          values on the command line
  echo '12.5 13.1' | jain.py      or whitespace/newline separated on stdin
  jain.py --json f.json --key airtime_us   a JSON list of numbers or of objects

Importable: from jain import jain.
"""
import argparse
import json
import sys


def jain(values):
    xs = [float(v) for v in values]
    if not xs:
        raise ValueError("no values")
    sq = sum(x * x for x in xs)
    if sq == 0:
        return float("nan")
    return sum(xs) ** 2 / (len(xs) * sq)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("values", nargs="*", type=float)
    ap.add_argument("--json", help="JSON file: a list of numbers or of objects")
    ap.add_argument("--key", help="the field of each object to use (with --json)")
    a = ap.parse_args(argv)
    vals = list(a.values)
    if a.json:
        with open(a.json) as f:
            data = json.load(f)
        vals += [d[a.key] if a.key else d for d in data]
    if not vals:
        vals = [float(t) for t in sys.stdin.read().split()]
    try:
        print(f"{jain(vals):.4f}")
    except ValueError as e:
        print(f"jain.py: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
