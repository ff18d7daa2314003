"""Benchmarks (``make bench``): scripts that measure, not tests that assert."""
