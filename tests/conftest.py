"""The whole suite runs with a wisp home and runtime dir of its own: no test reads or writes the real
user's ~/.wisp (approvals, audit log) or runtime grants, whatever a test forgets to set.

With WISP_CHECK_SKIPS=1 (set by .ci/run), every skip reason is printed at the end and the run fails when a
test skipped for a reason that `skip-allowlist.txt` does not allow (only what the machine lacks)."""
from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path

import pytest

_ROOT = tempfile.mkdtemp(prefix="wispsh-tests-")
for _name, _sub in (("WISP_HOME", "wisp-home"), ("XDG_RUNTIME_DIR", "runtime")):
    _path = os.path.join(_ROOT, _sub)
    os.mkdir(_path, 0o700)
    os.environ[_name] = _path
os.environ.pop("WISP_SESSION", None)     # tests that need a session name set their own
# The plain mode's warm judges (one per runtime dir a test makes, started by the compiled client) end soon after
# their test instead of after the default idle time.
os.environ.setdefault("WISP_JUDGE_IDLE", "5")

ALLOWLIST = Path(__file__).with_name("skip-allowlist.txt")

# The system tier (marker `system`): what runs whole systems - real bubblewrap, ptys and tmux, installs and
# wheels, process storms, fuzzing and generated sweeps, real shells as oracles over corpora. The edit-test loop
# is `pytest -m "not system"` (under a minute); CI and `scripts/test.sh` run everything.
SYSTEM_FILES = frozenset({
    "test_agents_sim.py", "test_approvals_cli.py", "test_ask_e2e.py", "test_bash_differential.py",
    "test_client_probes.py", "test_doctor.py", "test_native_client.py",
    "test_exact.py", "test_exec_parity.py", "test_faults.py", "test_gated_shell.py",
    "test_hotload.py", "test_install.py", "test_installed_scripts.py", "test_packaging.py", "test_split_fuzz.py",
    "test_split_oracles.py", "test_split_properties.py", "test_startup_files.py", "test_startup_imports.py",
    "test_watch.py", "test_wisp_run.py", "test_wisp_run_parity.py", "test_wisp_run_redteam.py",
    "test_wisp_run_sessions.py", "test_wisp_run_terminal.py", "test_wisp_run_unprivileged.py",
    "test_wisp_run_walls.py", "test_wisp_run_undo.py", "test_wisp_run_contained_corpus.py", "test_wisp_run_net.py",
})
# Single tests of otherwise fast files: a wheel built, thousands of generated cases, a person's terminal
# through pexpect, process storms, the real bash as an oracle, the corpora swept.
SYSTEM_TESTS = frozenset({
    *(f"test_ask.py::{name}" for name in (
        "test_pty_held_by_a_python_process_gets_no_dialog",
                                          "test_the_plan_comes_first_then_each_question_answered_with_enter",
        "test_anything_but_an_answer_asks_again", "test_an_empty_line_is_no_and_backspace_edits",
        "test_keys_typed_before_the_question_answer_nothing",
                                          "test_a_no_stops_at_once_and_says_the_earlier_answers_are_not_kept",
        "test_question_mark_shows_the_reasons_with_their_rule_ids", "test_dangerous_offers_and_accepts_only_once_or_no",
        "test_ctrl_c_and_ctrl_d_mean_no_and_restore_the_terminal", "test_a_killed_asker_leaves_the_terminal_sane",
        "test_prompt_timeout_means_no")),
    "test_store.py::test_fifty_processes_granting_and_revoking_lose_nothing",
    "test_store.py::test_kill_9_during_writes_leaves_the_old_or_the_new_file",
    "test_audit.py::test_concurrent_appends_keep_whole_lines",
    "test_split_nothing_hides.py::test_bash_runs_the_code_of_those_operands",
    "test_split_nothing_hides.py::test_red_team_lines_hide_nothing",
    "test_split_nothing_hides.py::test_the_crash_reproducers_never_crash",
    "test_redteam_split.py::test_recording_oracle",
    "test_redteam_gate.py::test_a_fifo_in_place_of_a_store_file_neither_hangs_nor_runs_unasked",
    "test_rule_ids_everywhere.py::test_every_reason_on_every_corpus_line_has_a_rule_id",
    "test_output.py::test_every_explain_output_and_audit_event_is_valid_utf8_on_random_lines",
    "test_output.py::test_a_sample_through_the_real_commands_is_valid_utf8",
    "test_fast_paths.py::test_one_quoted_word_reads_as_the_decoder_reads_it",
    "test_fast_paths.py::test_a_plain_relative_name_lands_where_normpath_says",
    "test_fast_paths.py::test_a_command_with_no_wrapper_is_its_own_argv",
    "test_fast_paths.py::test_a_name_in_the_projects_config_is_found_as_the_pattern_found_it",
    "test_text_json.py::test_dumps_line_is_json_dumps_byte_for_byte",
})


# The sweeps that run a sample in the unit suite and their full counts with WISP_LONG=1 (tests/tiers.py; marker
# `long`: .ci/run's long stage runs `WISP_LONG=1 pytest -m long` after the unit suite).
LONG_TESTS = frozenset({
    "test_split_fuzz.py::test_every_command_bash_runs_is_a_part",
    "test_split_fuzz.py::test_the_invariant_on_generated_lines",
    *(f"test_split_properties.py::{name}" for name in (
        "test_generated_lines", "test_random_bytes_never_raise", "test_shell_shaped_noise_never_raises")),
    *(f"test_fast_paths.py::{name}" for name in (
        "test_one_quoted_word_reads_as_the_decoder_reads_it", "test_a_plain_relative_name_lands_where_normpath_says",
        "test_a_command_with_no_wrapper_is_its_own_argv",
        "test_a_name_in_the_projects_config_is_found_as_the_pattern_found_it")),
    "test_text_json.py::test_dumps_line_is_json_dumps_byte_for_byte",
    "test_wisp_run_parity.py::test_the_supervisor_and_in_process_judge_the_corpus_alike",
    "test_split_nothing_hides.py::test_the_crash_reproducers_never_crash",
    "test_output.py::test_every_explain_output_and_audit_event_is_valid_utf8_on_random_lines",
    "test_faults.py::test_concurrent_adds_with_revokes_all_succeed",
})


# Run alone after the parallel pass (marker `serial`, scripts/test.sh): the warm judge's tests start and kill
# judges on deadlines. (The `wisp watch` pty tests ran here too until their cause was found: the socket path
# under xdist's tmp_path was over the unix limit; see pytest_configure.)
SERIAL_FILES = frozenset({"test_native_client.py"})


_SHORT_BASETEMP: list[str] = []


@pytest.hookimpl(tryfirst=True)         # before the tmp_path plugin reads the option
def pytest_configure(config):
    config.addinivalue_line("markers", "system: a whole-system test (left out of the fast tier: -m 'not system')")
    # A short base for tmp_path unless one is given: a watcher's socket is <tmp_path>/…/wisp/watch/watch-PID.sock
    # and a unix socket's path holds at most 104 bytes. Under xdist the default base
    # (/tmp/pytest-of-USER/pytest-N/popen-gwN/) left too few: `wisp watch` refused to start ("socket path too
    # long"), which failed every watch test of a parallel run. Workers get <this>/popen-gwN from xdist.
    if config.option.basetemp is None and not os.environ.get("PYTEST_XDIST_WORKER"):
        config.option.basetemp = tempfile.mkdtemp(prefix="wt-")
        _SHORT_BASETEMP.append(config.option.basetemp)


def pytest_unconfigure(config):
    import shutil

    if _SHORT_BASETEMP and getattr(config, "_wisp_passed", False):    # kept when a test failed: its files
        shutil.rmtree(_SHORT_BASETEMP[0], ignore_errors=True)


def pytest_collection_modifyitems(config, items):
    for item in items:
        path = Path(str(item.fspath))
        test = f"{path.name}::{getattr(item, 'originalname', item.name)}"
        if path.name in SYSTEM_FILES or test in SYSTEM_TESTS or AGENT_STAGE in path.parents:
            item.add_marker(pytest.mark.system)
        if path.name in SERIAL_FILES:
            item.add_marker(pytest.mark.serial)
        if test in LONG_TESTS:
            item.add_marker(pytest.mark.long)
AGENT_STAGE = Path(__file__).resolve().parent / "agents"


def pytest_ignore_collect(collection_path, config):
    """tests/agents (real clients, minutes, the registries) runs only when named on the command line."""
    path = Path(collection_path).resolve()
    if path != AGENT_STAGE and AGENT_STAGE not in path.parents:
        return None
    named = [Path(arg.split("::")[0]).resolve() for arg in config.args]
    if any(n == AGENT_STAGE or AGENT_STAGE in n.parents or n in path.parents or n == path for n in named
           if n != AGENT_STAGE.parent):
        return None
    return True
_skips: list[tuple[str, str]] = []


def allowed_skip_reasons() -> list[re.Pattern]:
    lines = ALLOWLIST.read_text().splitlines()
    return [re.compile(line) for line in lines if line.strip() and not line.startswith("#")]


def skip_reason(report) -> str:
    longrepr = report.longrepr
    reason = longrepr[2] if isinstance(longrepr, tuple) else str(longrepr)
    return reason.removeprefix("Skipped: ")


def pytest_runtest_logreport(report):
    if report.skipped and not hasattr(report, "wasxfail"):
        _skips.append((report.nodeid, skip_reason(report)))


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    if os.environ.get("WISP_CHECK_SKIPS") != "1":
        return
    allowed = allowed_skip_reasons()
    bad = [(node, why) for node, why in _skips if not any(p.fullmatch(why) for p in allowed)]
    terminalreporter.section(f"skips: {len(_skips)}, not allowlisted: {len(bad)}")
    for node, why in _skips:
        mark = "NOT ALLOWED " if (node, why) in bad else ""
        terminalreporter.write_line(f"{mark}{node}: {why}")
    if bad:
        terminalreporter.write_line(f"ci: {len(bad)} test(s) skipped for a reason not in {ALLOWLIST.name}")


def pytest_sessionfinish(session, exitstatus):
    session.config._wisp_passed = exitstatus == 0
    if os.environ.get("WISP_CHECK_SKIPS") != "1":
        return
    allowed = allowed_skip_reasons()
    if any(not any(p.fullmatch(why) for p in allowed) for _, why in _skips) and session.exitstatus == 0:
        session.exitstatus = 1
