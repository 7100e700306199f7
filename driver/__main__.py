import sys

from driver.blas import one_blas_thread

one_blas_thread()  # before anything imports numpy: see driver/blas.py

from driver.cli import main  # noqa: E402

sys.exit(main())
