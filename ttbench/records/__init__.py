"""The records every room reads, on the ground floor beside core.py: results of runs and op-by-op passes
(results.py), stage comparisons (comparison.py), findings (findings.py) and pages as data (document.py). Fields,
their own summaries and serialisation; nothing here executes, analyses or renders."""
