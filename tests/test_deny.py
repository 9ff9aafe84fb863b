"""Deny patterns: built-in defaults for the catastrophic, config patterns on line/part/second spelling, and a
bad regex as a clear ConfigError (and exit 126 through the real wispsh where that is wired)."""
from __future__ import annotations

import json
import os

import pytest

from wispsh.policy import deny
from wispsh import keys
from wispsh.parse import split
from wispsh.config import Config, ConfigError, load_config
from wispsh.model import Judged, Level, Verdict
from test_rules_support import make_place, judge


def check(line: str, patterns: tuple[str, ...] = ()):
    parsed = split.split_line(line)
    judged = tuple(Judged(p, keys.key_for(p), Verdict(Level.SAFE)) for p in parsed.parts)
    return deny.check(parsed, judged, Config(path=None, deny=patterns))


CATASTROPHIC = [
    "rm -rf /", "rm -rf /*", "rm -rf ~", "rm -rf ~/", "rm -rf $HOME", 'rm -rf "$HOME"', "rm -rf ${HOME}",
    "rm -fr /", "rm -r -f /", "rm --recursive --force /", "rm -rf --no-preserve-root /", "sudo rm -rf /",
    "/bin/rm -rf /", "ls; rm -rf ~", "true && rm -rf /", "echo $(rm -rf ~)", "bash -c 'rm -rf /'",
    "r\\m -rf /", '"r"m -rf /', "rm${IFS}-rf${IFS}/", "r\\\nm -rf ~",
    ":(){ :|:& };:", "bomb(){ bomb|bomb& };bomb",
    "mkfs.ext4 /dev/sda1", "mkfs -t xfs /dev/nvme0n1", "dd if=/dev/zero of=/dev/sda bs=1M",
                "sudo dd if=x of=/dev/nvme0n1",
    "chmod -R 777 /", "chmod 777 -R /",
]


# Spellings a text regex missed; the parts' words (keys unwrapped, options read, targets normalised) show them.
CATASTROPHIC_BY_WORDS = [
    "rm -rf ~/.", "rm -rf ~//", "rm -rf //", "rm -rf /.", "rm -rf /./", "rm -rf /..", "rm -rf $HOME/.",
    'rm -rf "${HOME:?}"', 'rm -rf "${HOME:?}/"', "rm -rf /tmp/x /", "sudo -u root rm -rf /", "strace rm -rf ~",
    "chroot / rm -rf /", "flock /tmp/l rm -rf ~", "setsid rm -rf ~", "find / -delete", "find ~ -delete",
    "rm -rf /*/", "rm -rf ~/{.,}*", "chmod -R a+rwx /", "cat /dev/zero > /dev/sda", "wipefs -a /dev/sda",
    "shred -n1 /dev/nvme0n1",
]
CATASTROPHIC += CATASTROPHIC_BY_WORDS
NOT_DENIED_BY_WORDS = [
    "echo '> /dev/sda'", "git log --grep='> /dev/sda'", "cat /dev/sda > disk.img", "find . -delete",
    "find ~ -name '*.pyc' -delete", "rm -rf ~/.cache", "rm -rf /*.log", 'rm -rf "$HOME/project/build"',
    "rm -rf $HOME_DIR", "rm -f /", "rm -rf ~/.cache/*", "echo 'wipefs -a /dev/sda' >> notes.md",
    "chmod -R a+rx /srv", "lsblk /dev/sda",
]


@pytest.mark.parametrize("line", NOT_DENIED_BY_WORDS)
def test_look_alikes_of_the_word_checks_are_not_denied(line):
    assert check(line) is None, line


@pytest.mark.parametrize("line", CATASTROPHIC)
def test_builtin_defaults_refuse(line):
    hit = check(line)
    assert hit is not None, line
    assert hit.pattern in deny.DEFAULT_PATTERNS and hit.matched


NOT_DENIED = [
    "echo 'rm -rf /'", "echo a \\; rm -rf ~", "printf '%s\\n' \"; rm -rf /\"", "grep -r 'rm -rf /' .",
    "cat <<'EOF'\n$(rm -rf ~)\nEOF", "cat <<'EOF' > doc.md\nrm -rf ~ is not a cleanup step\nEOF",
    "echo ':(){ :|:& };:' > docs/forkbomb.txt", 'rm -rf "~"', "rm -rf ./build", "rm -rf /tmp/build",
    "rm -rf ~/project/build", "dd if=/dev/zero of=disk.img bs=1M count=1", "chmod -R 755 ./dist",
    "git commit -m 'rm -rf / was a bad idea'", "mkfs.ext4 disk.img",
]


@pytest.mark.parametrize("line", NOT_DENIED)
def test_look_alikes_are_not_denied(line):
    assert check(line) is None, line


def test_config_patterns_run_on_line_part_and_second_spelling():
    assert check("git push origin main", (r"git\s+push",)).matched == "git push"
    # only the second spelling shows the words together
    assert check('g"i"t pu\\sh', (r"git\s+push",)) is not None
    # a nested part's own text
    assert check("bash -c 'terraform destroy'", (r"^terraform destroy",)) is not None
    assert check("ls -la", (r"git\s+push",)) is None


def test_a_bad_regex_is_a_config_error_naming_it():
    with pytest.raises(ConfigError) as raised:
        deny.compile_patterns(Config(path=None, deny=("ok", "rm (-rf",)))
    assert "rm (-rf" in str(raised.value)
    with pytest.raises(ConfigError):
        check("ls", ("[unclosed",))


def test_a_bad_regex_from_the_real_config_file(tmp_path):
    home = tmp_path / "wisp"
    home.mkdir(mode=0o700)
    (home / "config.json").write_text(json.dumps({"deny": ["git push", "(("]}))
    os.chmod(home / "config.json", 0o600)
    config = load_config(home)
    with pytest.raises(ConfigError) as raised:
        deny.compile_patterns(config)
    assert "((" in str(raised.value)


def test_a_deny_reaches_dangerous_in_the_measure(tmp_path):
    place = make_place(tmp_path)
    outcome = judge("rm${IFS}-rf${IFS}/", place)
    assert outcome.denied is not None and outcome.reached == Level.DANGEROUS


def test_the_cheap_pretests_cover_the_patterns():
    """The needles and the disk heads are what a match cannot do without: derived here from the regexes, so a
    new alternative in one cannot slip past its pretest."""
    import re

    from wispsh.policy import deny

    alternatives = deny._DISK[len("/dev/(?:"):-1].split("|")
    for alternative in alternatives:
        head = "/dev/" + re.split(r"\[|\\d", alternative)[0]
        assert head in deny._DISK_HEADS, alternative
    for device in ("/dev/sda", "/dev/nvme0n1", "/dev/hdb", "/dev/vda", "/dev/xvdf", "/dev/mmcblk0", "/dev/disk2",
                   "/dev/rdisk3", "/dev/mapper/root", "/dev/md0", "/dev/dm-1"):
        assert re.match(deny._DISK, device) and device.startswith(deny._DISK_HEADS), device
    wipe = deny.DEFAULTS[deny.DISK_WRITE]
    programs = re.search(r"\(\?:((?:\w+\|)+\w+)\)\\b\[", wipe).group(1).split("|")
    assert deny._NEEDLES[list(deny.DEFAULTS).index(deny.DISK_WRITE)] == ("/dev/", *programs)
