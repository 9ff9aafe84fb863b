"""What every agent template holds (agents/harness.py, Resources/harnesses.json; a test checks it), apart from
the matcher: a line that holds none of these words is no agent's plumbing, so the pipeline decides that
without loading the matcher or its table (most lines an agent runs through a plain shell hold none)."""

MAY_MATCH = ("eval ", "exec ", "__code=$?")


def may_be_plumbing(line: str) -> bool:
    return any(word in line for word in MAY_MATCH)
