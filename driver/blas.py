"""One OpenBLAS thread for a driver process.

The chain's matrix products are small (56 frames of 9216 values by up to 136) and run
beside the chain's own threads (the cells, SMEAR; in a batch, the next clip's
generation): OpenBLAS's threads spin-wait against them. On the 448x448 benchmark clip a
whole process took 0.98 s of CPU instead of 1.28 s, and one product 2.6 ms instead of
15 ms under load, for the same bits (25 trial clips: the same cells).
"""

from __future__ import annotations

import os
import sys

VARIABLE = "OPENBLAS_NUM_THREADS"


def one_blas_thread() -> None:
    """Load numpy and OpenCV (whose wheel has an OpenBLAS of its own) with one OpenBLAS
    thread each, unless the user set the variable; then drop it, so the processes the
    driver starts (ComfyUI) get the user's environment. Each OpenBLAS reads it once, as it
    loads: call this before anything imports numpy or cv2 (where a sitecustomize did
    already, it is too late, and nothing is changed)."""
    if VARIABLE in os.environ or "numpy" in sys.modules:
        return
    os.environ[VARIABLE] = "1"
    try:
        import cv2  # noqa: F401
        import numpy  # noqa: F401
    finally:
        del os.environ[VARIABLE]
