#!/bin/sh
# A script run by `gpumemsim exec` (tests/cli.cmake, cli.exec_script): scripts are run without the
# ELF check, and what they start inherits the environment.
echo "GPUMEMSIM_GPU=$GPUMEMSIM_GPU"
exit 5
