"""Benchmarks and evaluations (``python -m bench``). Measurements, not tests."""
