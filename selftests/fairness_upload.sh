#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Airtime fairness of TCP uploads by the medium's ground truth: see fairness_test.sh.
FAIR_TEST_DIR=up . "$(dirname "$0")/fairness_test.sh"
