# SPDX-License-Identifier: GPL-2.0
"""Metrics for sch_airfair's testbed: from the raw data a run saved (the medium's
ground truth, tc's class statistics, iperf3's results) to the figures in docs/."""
from .metrics import cov, efficiency, if_index, jain, maxmin_fair, optimum  # noqa: F401
from .run import StationResult, RunResult, load_run  # noqa: F401
