"""How long to wait for an answer: below the asking agent's own tool timeout (harnesses.json `tool_timeouts`),
and never longer than config `approval.waitSeconds`. An agent that kills the command first leaves the model
with its own timeout message, the audit with nothing and the watcher with "withdrawn"; giving up a little
earlier gives the model the refusal line, the audit the event and the watcher "timed out"."""
from __future__ import annotations

MARGIN = 0.1            # of the agent's limit, at least MIN_MARGIN seconds: room to refuse and audit
MIN_MARGIN = 2.0


def agent_limit(agent: str | None) -> float | None:
    """The agent's own tool timeout in seconds, when known."""
    if not agent:
        return None
    import json

    from wispsh.support.resources import resource_path

    with open(resource_path("harnesses.json"), encoding="utf-8") as fh:
        table = json.load(fh).get("tool_timeouts", {})
    entry = table.get(agent)
    return float(entry["seconds"]) if isinstance(entry, dict) and "seconds" in entry else None


def wait_seconds(configured: float, agent: str | None) -> float:
    """The time to wait for an answer when `agent` asks (configured: approval.waitSeconds)."""
    limit = agent_limit(agent)
    if limit is None:
        return configured
    return max(0.0, min(configured, limit - max(MIN_MARGIN, limit * MARGIN)))
