"""A seed's match is the same wherever it is simulated: the evaluation videos and the golden
logs are made from seeds, on whatever machine runs the command.

The BLAS library numpy uses picks its kernel by the CPU it finds (an AVX-512 kernel fuses
multiply and add, others do not); forcing each kernel in turn stands in for other machines.
Before the simulation's products were made kernel-free (samples/physics/vec.py) seed 10
came out a different match under the AVX-512 kernel than under the others."""

from __future__ import annotations

import os
import platform
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SIMULATE = """
import hashlib, json
from samples.match import simulate_match
sim = simulate_match(10, boards=1)
log = json.dumps(sim.match_log, sort_keys=True).encode()
print(hashlib.sha256(sim.timeline.xy_mm.tobytes() + log).hexdigest())
"""


def _kernels() -> list[str]:
    """OpenBLAS kernels this CPU can run: without and with fused multiply-add, and AVX-512."""
    flags = Path("/proc/cpuinfo").read_text() if Path("/proc/cpuinfo").exists() else ""
    kernels = ["Sandybridge"] if " avx " in flags else []
    if " fma " in flags and " avx2 " in flags:
        kernels.append("Haswell")
    if " avx512f " in flags:
        kernels.append("SkylakeX")
    return kernels


@pytest.mark.skipif(platform.machine() != "x86_64", reason="forces x86-64 BLAS kernels")
def test_a_seeds_match_is_the_same_under_every_blas_kernel() -> None:
    kernels = _kernels()
    if len(kernels) < 2:
        pytest.skip("this CPU runs only one of the kernels compared")
    digests = {}
    for kernel in kernels:
        env = {**os.environ, "OPENBLAS_CORETYPE": kernel, "PYTHONPATH": str(ROOT)}
        run = subprocess.run(
            [sys.executable, "-c", SIMULATE], env=env, cwd=ROOT, capture_output=True, text=True, check=True
        )
        digests[kernel] = run.stdout.strip()
    assert len(set(digests.values())) == 1, digests
