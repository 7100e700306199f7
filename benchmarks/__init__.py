"""Benchmarks: ratios, not timed assertions. `make bench` or `python -m benchmarks`."""
