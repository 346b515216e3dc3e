"""Verification: run a built kernel on generated inputs and compare with the NumPy golden.

inputs.py makes the inputs from the recorded seed, compare.py applies the tolerance rules,
runner.py runs one (package, SoC, variant) in its own process and writes verification.json,
report.py renders reports for people.
"""
