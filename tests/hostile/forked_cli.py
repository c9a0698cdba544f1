"""Start ``rulecraft`` commands as child processes quickly: forked from a process that has already imported it.

Starting ``python -c "from cli.main import main; main()"`` costs about half a second of processor time (the
interpreter and the engine's imports) before the command does anything; the hostile tests start about a hundred
such commands.  A *starter* process imports the command once, then forks a child for each command: the child is
a process of its own (its own pid, memory, exit status and signals; killed on a hang; its processor time counted
from zero by the fork), run as ``python -c`` would run it, in a state no earlier command touched (each child is
forked from the starter, which only imported).  What the fork does not give, a fresh interpreter's start-up and
imports, ``fresh=True`` of :func:`run` keeps tested.

Example::

    ended = run(["validate", "tutorial-tiles"], env=dict(os.environ), timeout=30)
    assert ended.code == 0 and "ok" in ended.out
"""

from __future__ import annotations

import atexit
import json
import os
import select
import signal
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PRELUDE = """
import atexit, os, resource, signal, sys
# Ctrl-C as a command started from a terminal has it: a test worker of pytest-xdist ignores SIGINT, and a process
# inherits that, so a command run from one would never see a Ctrl-C sent to it.
signal.signal(signal.SIGINT, signal.default_int_handler)
def _limit(megabytes, report):
    # Cap this process's address space, and write its peak memory and processor time to REPORT as it exits.
    if megabytes:
        cap = megabytes * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
    if not report:
        return
    def peak():
        # The high-water mark of this process's own memory.  Not ru_maxrss: Linux
        # carries that across exec, so a child started from a large test process
        # would report its parent's size.
        try:
            for line in open("/proc/self/status"):
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
        except OSError:
            pass
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    def done():
        used = resource.getrusage(resource.RUSAGE_SELF)
        open(report, "w").write(f"{peak()} {used.ru_utime + used.ru_stime}")
    atexit.register(done)
"""
"""What both ways of starting a child run first: the memory cap and the report of what the child used."""

PRELOADED = ("engine", "engine.compiling.loading", "engine.runner.validate", "engine.runner.simulate",
             "engine.runner.scenario", "engine.runner.bench", "engine.runner.agents.registry", "cli.render",
             "cli.report_tables", "cli.balance")
"""What the starter imports besides the command: what the commands import as they run (validate, simulate,
check, bench), so that no child imports it again.  Importing runs no rule and reads no ruleset."""

_FRESH = PRELUDE + """
_limit(int(sys.argv[1]), sys.argv[2])
prog = sys.argv[3]
sys.argv[1:4] = []
from cli.main import main
main(*([sys.argv[1:], prog] if prog else []))
"""

_STARTER = PRELUDE + """
import importlib, json
from cli.main import main
for module in sys.argv[1:]:
    importlib.import_module(module)
while True:
    line = b""
    while not line.endswith(b"\\n"):
        part = os.read(0, 1 << 16)
        if not part:
            sys.exit(0)  # the test process is gone
        line += part
    ask = json.loads(line)
    pid = os.fork()
    if pid:
        os.write(1, f"{pid}\\n".encode())
        os.write(1, f"{os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])}\\n".encode())
        continue
    # The child: the command's own input and output, folder and environment, then the command as python -c runs it.
    os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
    for fd, path in ((1, ask["out"]), (2, ask["err"])):
        os.dup2(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC), fd)
    os.chdir(ask["cwd"])
    os.environ.clear()
    os.environ.update(ask["env"])
    try:
        with open("/proc/self/clear_refs", "w") as refs:
            refs.write("5")  # the memory high-water mark starts from what the child holds, as a fresh process's
    except OSError:
        pass
    _limit(ask["megabytes"], ask["report"])
    sys.argv = ["-c", *ask["args"]]
    main(*([sys.argv[1:], ask["prog"]] if ask["prog"] else []))
    break
"""


@dataclass(frozen=True)
class Ended:
    """How a child ended: exit status (a signal's as negative, as subprocess gives it) and its output."""

    code: int
    out: str
    err: str


class Starter:
    """The process children are forked from, one per test process, started at its first command."""

    def __init__(self) -> None:
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        env.pop("PYTHONDONTWRITEBYTECODE", None)  # the children may keep the engine's bytecode, as before
        self.process = subprocess.Popen([sys.executable, "-c", _STARTER, *PRELOADED], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, env=env, cwd=ROOT)
        self.answers = self.process.stdout

    def _answer(self, timeout: float | None) -> str | None:
        """The starter's next line, or None when it did not come within ``timeout`` seconds."""
        assert self.answers is not None
        if timeout is not None and not select.select([self.answers], [], [], timeout)[0]:
            return None
        line = self.answers.readline().decode()
        if not line:
            raise RuntimeError("the process that starts the commands ended")
        return line

    def run(self, ask: dict[str, object], timeout: float) -> int | None:
        """Fork a child for ``ask``; its exit status, or None when it ran for ``timeout`` s (it is killed)."""
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps(ask).encode() + b"\n")
        self.process.stdin.flush()
        pid = int(self._answer(None) or 0)
        status = self._answer(timeout)
        if status is not None:
            return int(status)
        os.kill(pid, signal.SIGKILL)
        self._answer(None)
        return None

    def close(self) -> None:
        """End the starter (it ends by itself when its input closes)."""
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait()


_starter: Starter | None = None


def _the_starter() -> Starter:
    global _starter
    if _starter is None or _starter.process.poll() is not None:
        _starter = Starter()
        atexit.register(_starter.close)
    return _starter


def run(args: list[str], env: dict[str, str], cwd: Path | None = None, timeout: float = 60, megabytes: int = 0,
        report: str = "", prog_name: bool = False, fresh: bool = False) -> Ended | None:
    """``rulecraft ARGS`` in a child process with environment ``env``: None when it ran for ``timeout`` s.

    ``megabytes``: cap its address space; ``report``: a file it writes its peak memory (KB) and processor time
    to as it exits; ``prog_name``: it calls itself ``rulecraft`` in messages (else as ``python -c`` names it);
    ``fresh``: a new interpreter started for it, not a fork.
    """
    prog = "rulecraft" if prog_name else ""
    if fresh:
        child = subprocess.Popen([sys.executable, "-c", _FRESH, str(megabytes), report, prog, *args], stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, cwd=cwd, env=env)
        try:
            out, err = child.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            child.kill()
            child.communicate()
            return None
        return Ended(child.returncode, out.decode("utf-8", "replace"), err.decode("utf-8", "replace"))
    with tempfile.TemporaryDirectory(prefix="forked-") as folder:
        out, err = Path(folder, "out"), Path(folder, "err")
        ask = {"args": list(args), "prog": prog, "env": env, "cwd": str(cwd or os.getcwd()), "out": str(out), "err": str(err),
               "megabytes": megabytes, "report": report}
        code = _the_starter().run(ask, timeout)
        if code is None:
            return None
        return Ended(code, out.read_bytes().decode("utf-8", "replace"), err.read_bytes().decode("utf-8", "replace"))
