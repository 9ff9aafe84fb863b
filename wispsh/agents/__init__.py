"""What the gate knows of coding agents: their plumbing around a command, and the shims they find us by."""
