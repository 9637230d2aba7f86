"""Benchmark helpers; see docs/benchmarks.md."""
