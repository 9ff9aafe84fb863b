"""A line's parts judged in order, each with what the line did before it: a `cd`, variables it assigned
(`tmp=$(mktemp); curl -o "$tmp"`), the images it built, and for a `find -exec` command what `{}` stands for.

What the earlier parts set can make a later part worse (`cd ~ && rm -rf *`) or better (a download saved to
the temporary file the line itself made). It may only make it better when everything that set it runs for
certain before it: a top-level statement, not in a pipeline, a subshell, a condition or a loop, and no `||`
between it and the part; otherwise the part keeps the worse of its two readings.

An image the line builds (`docker build -t acme/api . && docker run acme/api`) must also have been built, not
only tried: had the build failed, `docker run` would pull the name from a registry. So a build counts only for
the parts reached from it through `&&` alone (the build's own status tested: not piped, negated, in the
background or the right side of `||`); after a `;`, `||`, `|` or `&`, or a statement that sets DOCKER_HOST and
the like, it counts no more. Which names a part builds, retags or makes stand for something else, and which it
runs, the container rules say (Facts.images, Facts.runs_images).
"""
from __future__ import annotations

import posixpath
from _operator import attrgetter

from wispsh.model import Finding, Judged, Part, Verdict, replace
from wispsh.policy import engine, places
from wispsh.policy.cmd import NO_IMAGES
from wispsh.policy.engine import READ_BY_NAME
from wispsh.policy.line import printed_text
from wispsh.programs.grammar import UNKNOWN
from wispsh.programs.sources import IMAGE_STORE_VARIABLES

MAX_PIPED_TEXT = 20_000
FIND_IN_DIR = frozenset({"-execdir", "-okdir"})


def judge_in_order(parts, key_for, ctx, line: str) -> tuple[Judged, ...]:
    """Every part judged, in the order bash reaches them: by where they stand in the line (the code a part
    hands on, `eval 'X=…'`, `sh -c '…'`, stands where its holder does; the splitter lists it after the line's
    other parts), so that what a part binds or changes reaches the parts after it."""
    judged: list = [None] * len(parts)
    cwd, line_vars = ctx.cwd, {}
    certain = True          # every cd and assignment so far ran for certain before what follows
    last_mover_end = 0
    printed: dict = {}      # pipeline -> (stage, what that stage visibly prints)
    named: dict = {}        # pipeline -> (stage, the path names that stage prints: ls F, find D, echo F)
    same: dict = {}         # a part's words and place in its pipeline -> (key, verdict, facts) judged alone
    built, built_end = NO_IMAGES, 0     # images built for certain if the line goes on by `&&` from built_end
    function_starts: dict = {}      # where a function's body starts -> the index of its first part
    functions = _line_functions(parts, line, function_starts) if "(" in line or "function" in line else None
    bodies: dict = {}       # function name -> its body parts' facts (for its calls)
    cds, cd_may_fail, chain_end, chain_pipeline = 0, False, None, None     # see the cd below
    tied: set = set()       # names `declare -n` made another's (see below)
    in_found_dirs: dict = {}    # a part find's -execdir/-okdir runs in the directory of each match -> where
    for index in sorted(range(len(parts)), key=lambda k: parts[k].span[0]):     # (stable: a holder first)
        part = parts[index]
        if part.parent is None and chain_end is not None:
            if line[chain_end:part.span[0]].strip() == "&&" or part.pipeline is not None \
                    and part.pipeline == chain_pipeline:
                chain_end, chain_pipeline = part.span[1], part.pipeline    # reached only if the cd succeeded
            else:       # reached whether it did or not: where the line runs now is not certain
                chain_end = None
                if cds > 1:
                    cwd = UNKNOWN
                else:
                    cd_may_fail = True
        images = NO_IMAGES
        if built and part.parent is None:
            if line[built_end:part.span[0]].strip() == "&&":
                images = built
            else:
                built = NO_IMAGES       # a `;`, `||`, `|` or `&` since the build: it may have failed
        signature = _signature(part)
        known = same.get(signature)
        key = key_for(part) if known is None else known[0]
        fed = printed.get(part.pipeline) if part.pipeline is not None else None
        seen = part             # the part as the rules read it
        if fed is not None and fed[0] == part.stage - 1 and part.stdin_code is None and part.parent is None:
            # `echo 'DROP DATABASE prod;' | mysql`: what the stage before visibly prints is this part's input,
            # as a heredoc would be (shells and interpreters are the line rules': pipe-to-interpreter)
            seen = replace(part, stdin_code=fed[1], stdin_quoted=True, pipeline=None, stage=0)
        found_file = None
        if part.origin == "find -exec" and part.parent is not None and part.parent < index:
            starts = judged[part.parent].facts.found_under
            found_file = starts[0] if len(starts) == 1 else None
            if any(word in FIND_IN_DIR for word in parts[part.parent].argv):
                in_found_dirs[index] = _found_dirs(found_file, ctx, cwd)
        elif part.parent in in_found_dirs:
            in_found_dirs[index] = in_found_dirs[part.parent]   # (the code it holds runs there too)
        here, also = in_found_dirs.get(index, (cwd, None))
        fed_names = ()
        if part.pipeline is not None and key is not None and "xargs" in key.wrappers and part.parent is None:
            before = named.get(part.pipeline)
            if before is not None and before[0] == part.stage - 1:
                fed_names = before[1]      # `ls ~/.ssh/id_* | xargs cat`: the names are what xargs appends
        uses_vars = bool(line_vars) and (_uses_variables(part) or not line_vars.keys().isdisjoint(READ_BY_NAME))
        moved = here != ctx.cwd or uses_vars or found_file is not None or bool(fed_names)
        if known is None:
            alone = engine.judge(part, key, ctx)
            same[signature] = (key, alone.verdict, alone.facts)
        else:               # the same command again in this line: judged alone, it is judged the same
            alone = Judged(part, key, known[1], known[2])
        if images and not moved and not images.isdisjoint(alone.facts.runs_images):
            moved = True    # `docker run NAME` of an image the line built
        if seen is not part:
            read = engine.judge(seen, key, ctx)
            if not read.facts.stdin_interp:
                alone = Judged(part, key, read.verdict, read.facts)
            else:
                seen = part
        if not moved:
            item = alone
        else:
            cmd = engine.analyse(seen, key, ctx, cwd=here, line_vars=line_vars, found_file=found_file,
                                 fed_names=fed_names, images=images)
            if also is not None:        # a start path's own match: -execdir runs in the directory above it
                above = engine.analyse(seen, key, ctx, cwd=also, line_vars=line_vars, found_file=found_file,
                                       fed_names=fed_names, images=images)
                if engine.verdict_of(above).level > engine.verdict_of(cmd).level:
                    cmd = above
            where = (f" (for every file find finds under {found_file.rsplit('/', 1)[0] or '/'})"
                     if found_file is not None
                     else f" (for the names the stage before prints: {', '.join(fed_names[:3])})" if fed_names
                     else f" (in {here})" if here != ctx.cwd and here != UNKNOWN
                     else " (in a directory known only at run time)" if here != ctx.cwd
                     else " (with the line's own variables)" if uses_vars
                     else " (its image built by the line before it)")
            again = engine.verdict_of(cmd)
            again = Verdict(again.level, tuple(Finding(f.level, f.rule, f.reason + where, f.kind)
                                                for f in again.findings), again.effects)
            # the cd and variables' certainty (the images' is the `&&` chain, above)
            sure = found_file is None and not fed_names and not (cd_may_fail and here != ctx.cwd) and (
                not (here != ctx.cwd or uses_vars) or certain and "||" not in line[last_mover_end:part.span[0]])
            verdict = again if sure or again.level > alone.verdict.level else alone.verdict
            item = Judged(part, key, verdict, cmd.facts.summary())
        if functions and key is not None and functions.get(key.program, len(line)) < part.span[0]:
            body = bodies.get(key.program)
            if body is None:        # once per function: its body is the same for every call
                body = bodies[key.program] = [judged[k].facts for k in _function_body(
                    parts, functions[key.program], index, function_starts)]
            if moved:
                item = _function_call(item, seen, key, ctx, here, line_vars, body)
            else:       # the same call again: judged the same
                called = same.get((signature, "call"))
                if called is None:
                    called = same[(signature, "call")] = _function_call(item, seen, key, ctx, here, line_vars, body)
                item = Judged(part, key, called.verdict, called.facts)
        judged[index] = item
        if part.pipeline is not None:
            text = printed_text(part, key)
            if text is not None and len(text) <= MAX_PIPED_TEXT:
                printed[part.pipeline] = (part.stage, text)
            names = _printed_names(part, key, item.facts, text, named.get(part.pipeline))
            if names:
                named[part.pipeline] = (part.stage, names)
        facts = item.facts
        changes = facts.cd_to is not None or bool(facts.assigns)
        if changes:
            certain = certain and _for_certain(part, line)
            last_mover_end = part.span[1]
        if facts.cd_to is not None:
            # A cd may fail (no such directory) and the line go on where it was: the parts it reaches by `&&`
            # alone run where it went; any other part runs there or where the line was before it (the worse
            # of the two readings after one cd; after more, a directory known only at run time). `cd "$D"`,
            # `cd -`, `popd` and a $CDPATH lookup go where only the run knows (engine._cd_target).
            redefined = functions and key is not None and functions.get(key.program, len(line)) < part.span[0]
            cwd = UNKNOWN if cd_may_fail or redefined else facts.cd_to      # (`cd() { :; }; cd /tmp && …`)
            if part.parent is None:
                cds += 1
                chain_end, chain_pipeline = part.span[1], part.pipeline
        line_vars.update(facts.assigns)
        for loop in part.loops:         # after its loop a loop variable keeps the last word it took
            line_vars[loop.var] = UNKNOWN
        if facts.namerefs or tied:      # a name tied by `declare -n`: what it or its target reads, only the run knows
            tied.update(facts.namerefs)
            for name in (line_vars if "*" in tied else tied):
                line_vars[name] = UNKNOWN
        if images:
            built_end = part.span[1]
        if built and part.assignments and any(a.name in IMAGE_STORE_VARIABLES for a in part.assignments):
            built = NO_IMAGES       # `export DOCKER_HOST=…`: later commands talk to another daemon
        if facts.images:
            built = _images_after(built, facts.images, _status_tested(part, line))
            if part.parent is None:
                built_end = part.span[1]
    return tuple(judged)


def _images_after(built: frozenset, changes, builds: bool) -> frozenset:
    """The line's own images after a part's changes (Facts.images, in order): a name built from the project,
    or tagged from one of the line's own, joins when the part's success is what a later `&&` tests (`builds`);
    a name that now stands for anything else leaves; "*" empties the set."""
    names = set(built)
    for name, source in changes:
        if name == "*":
            names.clear()
        elif builds and (source == "" or source in names):
            names.add(name)
        else:
            names.discard(name)
    return frozenset(names)


NOT_IN_A_NAME = frozenset(" \t\n;&|(){}<>'\"$`\\=")


def _line_functions(parts, line: str, starts: dict) -> dict:
    """The functions the line itself defines: name -> where the body of its first definition starts. A body's
    commands are parts of their own (origin "function", or "subshell" for `f() (…)`), judged where they stand;
    the head just before the first of them names it (`f() {`, `function f {`, `function f() (`)."""
    found: dict = {}
    for index, part in enumerate(parts):
        if part.parent is None and part.origin in ("function", "subshell"):
            start = part.span[0]
            name = _function_head(line[max(0, start - 256):start])
            if name:
                found.setdefault(name, start)
                starts.setdefault(start, index)
    return found


def _function_head(before: str) -> str:
    """The name a function head at the end of `before` defines, else ""."""
    text = before.rstrip()
    if not text.endswith(("{", "(")):
        return ""
    text = text[:-1].rstrip()
    parens = text.endswith(")")
    if parens:
        text = text[:-1].rstrip()
        if not text.endswith("("):
            return ""
        text = text[:-1].rstrip()
    cut = len(text)
    while cut and text[cut - 1] not in NOT_IN_A_NAME:
        cut -= 1
    name = text[cut:]
    keyword = text[:cut].rstrip()
    if not name or name == "function":
        return ""
    if keyword.endswith("function") and (len(keyword) == 8 or keyword[-9] in NOT_IN_A_NAME):
        return name
    return name if parens and (not keyword or keyword[-1] in NOT_IN_A_NAME) else ""


MAX_BODY_PARTS = 256


def _function_body(parts, start: int, before: int, starts: dict) -> list[int]:
    """The parts of a function's body that starts at `start` (their indices, before the call at `before`): the
    run of function parts from its first (`starts`: where each body starts -> its first part), with what they
    hold."""
    first = starts.get(start)
    if first is None or first >= before:
        return []
    body: list[int] = []
    inside: set = set()
    for k in range(first, before):
        part = parts[k]
        if part.parent is None and part.origin not in ("function", "subshell") or len(body) >= MAX_BODY_PARTS:
            break
        if part.parent is None or part.parent in inside:
            body.append(k)
            inside.add(k)
    return body


def _found_dirs(found_file, ctx, cwd: str) -> tuple[str, str | None]:
    """Where find's -execdir runs its command: in the directory of each match, so the start path and what is
    under it, and, for the start path itself, the directory above it (`find ~/.ssh -maxdepth 0 -execdir touch
    .ssh/rc \\;` runs in ~). (where, the directory above or None); several start paths, or one known only at
    run time: a directory known only at run time."""
    if found_file is None or UNKNOWN in found_file or UNKNOWN in cwd:
        return UNKNOWN, None
    start = found_file.rsplit("/", 1)[0] or "/"
    where = places.place(start, ctx, cwd).path
    if start in (".", "./") or where == "/":
        return where, None
    return where, posixpath.dirname(where)


def _function_call(item: Judged, seen, key, ctx, cwd, line_vars, body=()) -> Judged:
    """A call of a function the line defined before it (`f() { echo "hello $1"; }; f world`): its body is
    judged as the parts it is, so the call is no unknown program (its redirects and assignments still count);
    what the body does flows through the call (`f() { curl "$@"; }; f URL | sh` pipes what curl fetched)."""
    if not any(f.rule == "program.unknown" for f in item.verdict.findings):
        return item
    cmd = engine.analyse(seen, key, ctx, cwd=cwd, line_vars=line_vars)
    for facts in body:
        engine.merge_facts(cmd.facts, facts)
    cmd.found = [f for f in cmd.found if f.rule != "program.unknown"]
    cmd.does("nothing", "program.line-function", f"calls {key.program}, a function this line defines (its body "
                                                  "is judged as the commands it holds)")
    return Judged(item.part, key, engine.verdict_of(cmd), cmd.facts.summary())


# Stages that pass the names they are given on (perhaps fewer, sorted or re-delimited): `ls … | sort | xargs`.
NAME_FILTERS = frozenset({"sort", "uniq", "tr", "head", "tail", "grep", "egrep", "fgrep", "rg", "tac", "shuf",
                          "cat", "cut", "column", "nl", "tee"})
PRINTERS = frozenset({"echo", "printf", "print"})
MAX_NAMES = 16


def _printed_names(part, key, facts, text, before) -> tuple:
    """The path names a pipeline stage prints, for an `xargs` after it: a lister's or finder's (facts.names), the
    path words echo/printf print (or the loop range a printed loop variable walks), `git ls-files`' pathspecs;
    a filter (sort, tr, grep) passes on the names of the stage before."""
    program = key.program if key is not None else None
    if program is None:
        return ()
    if program in NAME_FILTERS and before is not None and before[0] == part.stage - 1 and (
            program != "cat" or len(key.command) == 1):
        return before[1]
    if not facts.names and program not in PRINTERS and program != "git":
        return ()           # most stages print no path names
    names = list(facts.names)
    if program in PRINTERS:
        if text is not None:
            names += [t.strip("'\"") for t in text.split()[:MAX_NAMES * 4]
                      if t.strip("'\"").startswith(("/", "~", "./", "../")) or "/" in t]
        for loop in part.loops:
            if any(w and ("$" + loop.var in w or "${" + loop.var in w) for w in part.words[1:]):
                names += [w for w in loop.words if w is not None]
    elif program == "git" and key.command[1:2] == ("ls-files",) or program == "git" and \
            tuple(key.command[1:2]) == ("ls-files",):
        given = [w for w in key.command[2:] if w is not None and not w.startswith("-") and w != "--"]
        names += given or ["*"]
    return tuple(dict.fromkeys(n for n in names if n and UNKNOWN not in n))[:MAX_NAMES]


_JUDGED_FIELDS = attrgetter(*(name for name in Part.FIELDS if name not in ("span", "pipeline")))


def _signature(part) -> tuple:
    """Everything of a part that its judgment alone reads: all but where it stands in the line (its span, its
    pipeline's id; whether it is piped, and its stage, count)."""
    return _JUDGED_FIELDS(part), part.pipeline is None


def _uses_variables(part) -> bool:
    """Whether any word of the part expands a variable (its redirects may sit outside its text)."""
    return "$" in part.text or any("$" in r.target_text for r in part.redirects) or any(
        "$" in w for w in part.words)


def _status_tested(part, line: str) -> bool:
    """A top-level statement whose own exit status the `&&` after it tests: not piped, negated or in the
    background, and not the right side of `||` (`false || docker build … && docker run …` runs the second
    without the first)."""
    if part.parent is not None or part.origin != "top" or part.pipeline is not None or part.background:
        return False
    end = part.span[0]
    while end and line[end - 1] in " \t\n":     # back over the blanks only: linear on a line of 20,000 builds
        end -= 1
    return line[end - 1:end] not in ("|", "!")


def _for_certain(part, line: str) -> bool:
    """A statement that runs whenever the line gets this far: top level, not piped, not in the background, and
    not the right side of `&&` or `||` (`false && t=$(mktemp)` leaves $t as the environment had it)."""
    before = line[:part.span[0]].rstrip()
    return (part.parent is None and part.origin == "top" and part.pipeline is None and not part.background
            and not before.endswith(("&&", "||", "|", "&", "!")))
