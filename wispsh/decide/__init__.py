"""Deciding what may run: the gate's rules, remembered approvals, who is asking, and the audit."""
