#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Airtime fairness of TCP downloads by the medium's ground truth: see fairness_test.sh.
FAIR_TEST_DIR=down . "$(dirname "$0")/fairness_test.sh"
