"""`wisp run`: the agent in a namespace where every shell is the gate and the gate's files are read-only.

readiness.py  whether bubblewrap and user namespaces work here, and if not why and what to do
layout.py     what the namespace looks like: the shells bound over, what is read-only or hidden, bwrap argv
seccomp.py    the filter that keeps programs inside from typing into the terminal (TIOCSTI)
procs.py      reading /proc from outside: start times, parents, process groups, who is inside
client.py     the tiny client inside (and the wire format both ends speak)
judge.py      the warm judge: a request -> an Outcome through invoke.decide; nested shells; allowed lines
asking.py     where the supervisor's questions go: `wisp watch`, or its own terminal when that is free
walls.py      the walls' settings and places: writable, hidden secrets, host sockets, nesting
landlock.py   Landlock scopes: no abstract unix socket or signal out of the namespace
steering.py   files that steer tools: read-only, which lines may write them, the sentry for missing ones
view.py       where a steering line runs (enter.py joins the namespace from outside); lost binds made again
contained.py  contained work: what the walls keep in the project (for the gate), the restore point before a line
netrules.py   the network wall's rules: who may be reached, the checks before and after a name is resolved
netns.py      the namespace's own network from outside: the proxy's listeners made inside, who connects
netgrants.py  remembered answers to the network's questions (session, project, always)
proxy.py      the asking proxy: the only way out of the namespace's network
supervisor.py `wisp run` itself: set up, start bwrap, serve, tear down
"""
