"""Where things are, for tests in any folder under tests/."""
import os

TESTS = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(TESTS)
GOLDEN = os.path.join(TESTS, "golden")  # the export folders `make golden` refreshes
