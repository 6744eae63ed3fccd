#!/bin/sh
# no-check.sh: stands in for the Check suites when configure found no Check.
echo "Check (the unit test framework) was not found: install the Debian" >&2
echo "package 'check' and re-run configure to build the unit tests." >&2
exit 77
