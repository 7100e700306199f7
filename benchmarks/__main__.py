import sys

from driver.blas import one_blas_thread

one_blas_thread()  # as `python -m driver` runs the chain: see driver/blas.py

from benchmarks.chain import main  # noqa: E402

sys.exit(main())
