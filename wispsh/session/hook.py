"""A gated interactive bash (a person's terminal, an agent's pty or tmux pane): bash keeps its own line editing,
job control, prompts, PS1 and Ctrl-C; the Enter keys hand the typed buffer to the gate before bash reads it.

Inside the real shell (installed by the start-up text below, after the user's own start-up files):

- Enter (C-m, C-j; emacs and vi keymaps) is a macro of two keys: the first runs `__wisp_accept` (bind -x),
  which sends READLINE_LINE to the gate over a private socket (fd 63) and does what the gate answers:
  `e CODE` (report state: eval the gate's query, output to the socket), `r` (run: the second key, a sequence
  secret to this session, is bound to accept-line), `m` (more: a newline is added to the buffer, bash's own
  line editing goes on with the whole command in one buffer, as after a paste), `n MSG` (not run: the buffer
  becomes `__wisp_not_run`, which says MSG on stderr, puts the typed text in the history and sets `$?` to
  126). A broken or closed socket answers `n`: nothing runs unjudged.
- Readline functions that run code or accept a line without Enter are unbound in every keymap (operate-and-
  get-next, insert-comment, edit-and-execute-command, shell-expand-line, re-read-init-file,
  execute-named-command, the dump functions); the functions are readonly. Typed commands that would change
  bindings, switch line editing off, shadow a builtin the hook calls or touch fd 63 are refused as tampering
  (tamper.py).

In the gate (`HookSession`): the socket's other end; each request is judged exactly as the piped session
judges a command (complete.py, tamper.py, state, the judge), and answered.

Start-up: `bash -i --rcfile TEXT` where TEXT sources what bash would have (the `--rcfile` given, else
~/.bashrc; for a login shell /etc/profile and the first of ~/.bash_profile, ~/.bash_login, ~/.profile, the
login itself emulated) and then installs the hook; with `--norc`, through PROMPT_COMMAND from the
environment (nothing else runs before the first prompt), which is then put back.
"""
from __future__ import annotations

import os
import signal
import socket

from wispsh.session import complete, shellcode, tamper
from wispsh.session.driver import ALWAYS, Ended, Gate, _nonce
from wispsh.session.state import ShellState, names_in
from wispsh.support import inherited

FD = 63
RC_FD = 61                         # the start-up text, closed once read
TRIGGER = r"\C-x\C-_\C-w"          # runs the hook (harmless typed by hand: it only judges the buffer)
UNBOUND = ("operate-and-get-next", "insert-comment", "edit-and-execute-command", "shell-expand-line",
           "re-read-init-file", "execute-named-command", "dump-functions", "dump-variables", "dump-macros",
           "accept-line", "vi-editing-mode", "emacs-editing-mode")
KEYMAPS = ("emacs-standard", "emacs-meta", "emacs-ctlx", "vi-insert", "vi-command", "vi-move")

HOOK = r"""
__wisp_accept() {
  \builtin local __wisp_k __wisp_i __wisp_s __wisp_v
  __wisp_n=$((__wisp_n + 1))
  if ! \builtin printf 't\0%s\0%s\0' "$__wisp_n" "$READLINE_LINE" >&63 2>/dev/null; then
    __wisp_text=$READLINE_LINE; READLINE_LINE='__wisp_not_run'
    __wisp_msg='wispsh: not run: the gate is gone (its socket closed); nothing ran'; \builtin return
  fi
  while IFS= \builtin read -r -d '' -u 63 __wisp_i && IFS= \builtin read -r -d '' -u 63 __wisp_k &&
        IFS= \builtin read -r -d '' -u 63 __wisp_s && IFS= \builtin read -r -d '' -u 63 __wisp_v; do
    [[ $__wisp_i == "$__wisp_n" ]] || \builtin continue
    case $__wisp_k in
      e) \builtin eval "$__wisp_v" ;;
      r) \builtin bind "\"$__wisp_s\": accept-line"; \builtin return ;;
      m) READLINE_LINE+=$'\n'; READLINE_POINT=${#READLINE_LINE}
         \builtin bind "\"$__wisp_s\": redraw-current-line"; \builtin return ;;
      n) __wisp_msg=$__wisp_v; __wisp_text=$READLINE_LINE; READLINE_LINE='__wisp_not_run'; READLINE_POINT=0
         \builtin bind "\"$__wisp_s\": accept-line"; \builtin return ;;
    esac
  done
  __wisp_text=$READLINE_LINE; READLINE_LINE='__wisp_not_run'
  __wisp_msg='wispsh: not run: no answer from the gate; nothing ran'
}
__wisp_not_run() {
  \builtin history -d -1 2>/dev/null; [[ -n ${__wisp_text-} ]] && \builtin history -s -- "$__wisp_text"
  \builtin printf '%s\n' "${__wisp_msg-wispsh: not run}" >&2; \builtin unset __wisp_text __wisp_msg
  \builtin return 126
}
"""


TRIPWIRE = "\\builtin kill -KILL $$"      # PROMPT_COMMAND until the hook is in: a shell without it never reads


def startup_text(*, seq: str, sources: list[str], restore_prompt_command: str | None, posix: bool = False) -> str:
    """The text bash runs at start (its --rcfile, or through PROMPT_COMMAND). Until it has run, PROMPT_COMMAND
    is a tripwire that ends the shell before its first prompt: a bash that skipped it never reads a line."""
    lines = ["# wispsh: the gated shell's start-up (wispsh/session/hook.py)"]
    # the tripwire's work is done once this runs: PROMPT_COMMAND as it was, before the user's files change it
    if restore_prompt_command:
        lines.append(f"PROMPT_COMMAND={shellcode.quoted(restore_prompt_command)}")
    else:
        lines.append("\\builtin unset PROMPT_COMMAND")
    lines += sources
    lines.append(HOOK)
    lines.append("__wisp_n=0")
    for keymap in KEYMAPS:
        for function in UNBOUND:
            lines.append(f"\\builtin bind -m {keymap} -u {function} 2>/dev/null")
    for keymap in ("emacs-standard", "vi-insert", "vi-command"):
        lines.append(f"\\builtin bind -m {keymap} -x '\"{TRIGGER}\": __wisp_accept'")
        lines.append(f"\\builtin bind -m {keymap} '\"{seq}\": redraw-current-line'")
        for key in (r"\C-m", r"\C-j"):
            lines.append(f"\\builtin bind -m {keymap} '\"{key}\": \"{TRIGGER}{seq}\"'")
    lines.append("\\builtin readonly -f __wisp_accept __wisp_not_run")
    if posix:
        lines.append("\\builtin set -o posix")
    return "\n".join(lines) + "\n"


def sources_for(options, *, login: bool, home: str, posix: bool = False) -> tuple[list[str], bool]:
    """(the lines that source what bash would read at start, whether --norc was given). An interactive sh
    reads `$ENV` (expanded), and a login one ~/.profile first."""
    options = list(options)
    if posix:
        lines = ['[ -r /etc/profile ] && . /etc/profile', '[ -r ~/.profile ] && . ~/.profile'] if login else []
        # True: --norc, or bash would read /etc/bash.bashrc, which sh never does
        return lines + ['[ -n "${ENV-}" ] && eval "[ -r \"$ENV\" ] && . \"$ENV\""'], True
    norc = any(o in ("--norc", "-norc") for o in options)
    rcfile = None
    for i, word in enumerate(options[:-1]):
        if word in ("--rcfile", "-rcfile", "--init-file", "-init-file"):
            rcfile = options[i + 1]
    noprofile = any(o in ("--noprofile", "-noprofile") for o in options)
    if login:
        if noprofile:
            return [], norc
        return ["[ -r /etc/profile ] && . /etc/profile",
                'for __wisp_f in ~/.bash_profile ~/.bash_login ~/.profile; do '
                '[ -r "$__wisp_f" ] && { . "$__wisp_f"; break; }; done; unset __wisp_f'], norc
    if norc:
        return [], True
    if rcfile is not None:
        return [f"[ -r {shellcode.quoted(rcfile)} ] && . {shellcode.quoted(rcfile)}"], False
    return ["[ -r ~/.bashrc ] && . ~/.bashrc"], False


def _asks_posix(options) -> bool:
    options = list(options)
    return any(w in ("--posix", "-posix") for w in options) or any(
        w == "-o" and options[i + 1:i + 2] == ["posix"] for i, w in enumerate(options))


def argv_for(spec, rc_path: str | None) -> list[str]:
    """The real bash's argv: interactive, our start-up text instead of its own files (those it would read are
    sourced from it), the rest of the options as given."""
    kept = []
    options = list(spec.options)
    i = 0
    while i < len(options):
        word = options[i]
        if word in ("--rcfile", "-rcfile", "--init-file", "-init-file") or word in ("-o", "+o") and options[
                i + 1:i + 2] == ["posix"]:
            i += 2          # posix mode would skip --rcfile: it is set at the end of the start-up text instead
            continue
        if word in ("--posix", "-posix"):
            i += 1
            continue
        if word in ("--login", "-login", "-l", "--noprofile", "-noprofile"):
            i += 1
            continue
        if word.startswith("-") and not word.startswith("--") and "l" in word[1:] and word not in ("-o", "-O"):
            word = word.replace("l", "")
            if word == "-":
                i += 1
                continue
        kept.append(word)
        i += 1
    argv0 = spec.argv0.lstrip("-") or "bash"
    if not os.path.basename(argv0).startswith("bash"):
        argv0 = "bash"          # bash called as sh reads only $ENV and ignores --rcfile: the hook would be lost
    argv = [argv0, *kept]
    if rc_path is not None:
        argv += ["--rcfile", rc_path]
    if "-i" not in kept:
        argv.append("-i")
    return argv + list(spec.args)


class HookSession(Gate):
    IGNORED = (signal.SIGINT, signal.SIGQUIT, signal.SIGTSTP, signal.SIGTTIN, signal.SIGTTOU)

    def __init__(self, spec, judge):
        self.spec, self.judge = spec, judge
        self.state = ShellState(os.getcwd())
        self.oracle = lambda options=(): complete.spawn_oracle(spec.exe, spec.name, options)
        self.seq = r"\C-x\C-_" + os.urandom(9).hex()
        self.buffer = b""
        self.pid = None

    def start(self) -> None:
        from wispsh import realshell

        self.sock, shell_end = socket.socketpair()
        home = self.spec.env.get("HOME") or os.path.expanduser("~")
        sources, norc = sources_for(self.spec.options, login=self.spec.login, home=home, posix=self.spec.posix)
        env = dict(self.spec.env)
        before = env.get("PROMPT_COMMAND") or ""
        posix = self.spec.posix or _asks_posix(self.spec.options)
        text = startup_text(seq=self.seq, sources=sources, restore_prompt_command=before, posix=posix)
        if norc:
            rc_fd = realshell.sealed_reader(text.encode())
            env["PROMPT_COMMAND"] = f". /dev/fd/{RC_FD}; \\builtin exec {RC_FD}<&-"
            argv = argv_for(self.spec, None)
            if "--norc" not in argv:
                argv.insert(1, "--norc")
        else:
            rc_fd = realshell.sealed_reader((text + f"\\builtin exec {RC_FD}<&-\n").encode())
            env["PROMPT_COMMAND"] = TRIPWIRE
            argv = argv_for(self.spec, f"/dev/fd/{RC_FD}")
        moves = [(shell_end.fileno(), FD), (rc_fd, RC_FD)]
        try:
            self.pid = inherited.spawn(self.spec.exe, argv, env, moves)    # the caller's signals and mask
        finally:
            shell_end.close()
            os.close(rc_fd)

    def _records(self, count: int) -> list[str]:
        while True:
            parts = self.buffer.split(b"\0")
            if len(parts) > count:
                self.buffer = b"\0".join(parts[count:])
                return [p.decode("utf-8", "surrogateescape") for p in parts[:count]]
            chunk = self.sock.recv(65536)
            if not chunk:
                raise Ended()
            self.buffer += chunk

    def _reply(self, ident: str, kind: str, value: str = "") -> None:
        try:
            self.sock.sendall(f"{ident}\0{kind}\0{self.seq}\0{value}\0".encode("utf-8", "surrogateescape"))
        except OSError:
            raise Ended() from None

    def _query(self, ident: str, text: str) -> None:
        variables, words = names_in(text)
        nonce = _nonce()
        code = shellcode.query(shellcode.BASH, nonce, list(dict.fromkeys([*variables, *ALWAYS, "BASHOPTS"])), words)
        self._reply(ident, "e", code)
        head = self._records(1)
        while head[0] != nonce:
            head = self._records(1)
        fields = []
        while True:
            kind = self._records(1)[0]
            if kind == ".":
                break
            fields += [kind, *self._records(2)]
        self.state.take_query(fields)

    def serve(self) -> None:
        kind, ident, text = self._records(3)
        if kind != "t":
            return
        found = complete.status(text + "\n", family=shellcode.BASH, oracle=self.oracle(self.state.parse_options()))
        if found == complete.MORE:
            self._reply(ident, "m")
            return
        if not text.strip():
            self._reply(ident, "r")       # an empty line: nothing runs
            return
        refused = tamper.check(text, fds=(FD, RC_FD), interactive=True)
        if refused is None:
            self._query(ident, text)
            self.state.bashopts = self.state.variables.get("BASHOPTS", self.state.bashopts)
            refused = self._verdict(text, shellcode.BASH)
        if refused is None:
            self._reply(ident, "r")
        else:
            self._reply(ident, "n", refused.rstrip("\n"))
