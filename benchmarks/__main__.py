import sys

from benchmarks.chain import main

sys.exit(main())
