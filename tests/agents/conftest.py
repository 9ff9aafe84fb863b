"""The real-client stage: tests/agents runs only when named (`pytest tests/agents`, as .ci/run's agent stage
does); the unit suite's default run (`pytest`, testpaths = tests) leaves it out (tests/conftest.py)."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
