"""Gated shells: a shell started without `-c` (commands piped or typed into it) judges each complete command
before one long-lived real shell runs it.

start.py      an Outcome's session (invoke.decide) -> the right session, run to its end
driver.py     commands from a pipe or a file: read one, judge it with the shell's state, hand it over, wait
hook.py       an interactive bash: its Enter keys hand the typed buffer to the gate first (bind -x)
reader.py     one complete command from the input, not a byte more
complete.py   whether text is a complete command (the real shell's own `-n`)
shellcode.py  the only text the real shell reads: each command in its group, the restore and the report
state.py      the shell's state a command is judged with (cwd, values, functions, aliases, options)
tamper.py     commands that would take the plumbing apart, refused
judges.py     who judges: this process (warm), or the `wisp run` supervisor
"""
