"""One key of a git config file's [core] section, read as git reads the simple form (`key = value`), without
running git: what wisp run needs of a config it must not let git act on (the project's, the person's)."""
from __future__ import annotations


def core_setting(config: str, key: str) -> str | None:
    """The value of core.<key> (case-blind) in the file `config`, unquoted; None when absent or unreadable."""
    try:
        with open(config, encoding="utf-8", errors="replace") as fh:
            text = fh.read(1 << 20)
    except OSError:
        return None
    section = None
    wanted = key.lower()
    for raw in text.splitlines():
        line = raw.strip()
        if line.startswith("["):
            section = line.strip("[]").split()[0].lower() if line.strip("[]").split() else None
        elif section == "core" and "=" in line and line.split("=", 1)[0].strip().lower() == wanted:
            return line.split("=", 1)[1].strip().strip('"')
    return None
