"""Run inside `wisp run` by test_wisp_run_parity.py: for each line, a fresh process (a fork, so that no line is
beneath another) sends the supervisor two requests, the way the launcher and a wispsh entry point would:
`/bin/bash -c LINE` (the gate's verdict) and `wispsh --explain --json -c LINE` (the plan). The answers are
written to OUT as JSON lines, and the environment the requests carried to ENV_OUT. Nothing is exec'd.

usage: python run_parity_inside.py LINES.json OUT.jsonl ENV_OUT.json
"""
import json
import os
import socket
import sys

from wispsh.sandbox import client


def ask(path: bytes, argv: list[str], kind: bytes) -> list[str]:
    env = {k.encode(): v.encode() for k, v in os.environ.items()}
    message = client.request([a.encode() for a in argv], kind=kind, cwd=os.getcwdb(), env=env, tty=False)
    sock = socket.socket(socket.AF_UNIX)
    sock.connect(path)
    sock.sendall(message)          # no fd 0 sent: the lines are -c lines
    body, fds = client.receive(sock)
    for fd in fds:
        os.close(fd)
    sock.close()
    return [f.decode("utf-8", "surrogateescape") for f in client.unpack(body)]


def main() -> int:
    lines_path, out_path, env_out = sys.argv[1:4]
    with open(lines_path) as fh:
        lines = json.load(fh)
    with open(env_out, "w") as fh:
        json.dump(dict(os.environ), fh)
    path = client.inside_run()
    with open(out_path, "w") as out:
        for line in lines:
            read, write = os.pipe()
            pid = os.fork()
            if pid == 0:
                os.close(read)
                got = {"line": line, "verdict": ask(path, ["/bin/bash", "-c", line], b"launcher"),
                       "explain": ask(path, ["wispsh", "--explain", "--json", "-c", line], b"wispsh")}
                data = (json.dumps(got) + "\n").encode()
                while data:
                    data = data[os.write(write, data):]
                os._exit(0)
            os.close(write)
            chunks = []
            while chunk := os.read(read, 1 << 16):
                chunks.append(chunk)
            os.close(read)
            os.waitpid(pid, 0)
            out.write(b"".join(chunks).decode())
    return 0


if __name__ == "__main__":
    sys.exit(main())
