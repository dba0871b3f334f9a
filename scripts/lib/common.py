"""Helpers shared by the benchmark scripts in scripts/ (imported, not run).

A script finds this module with

    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
    import common
"""

import importlib.machinery
import importlib.util
import os
import platform
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def output_of(cmd):
    """A command's output, or "unknown" where it fails or is missing."""
    try:
        r = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    except OSError:
        return "unknown"
    return r.stdout.strip() if r.returncode == 0 else "unknown"


def git(*args):
    """git's output in the repository, or "unknown" (no git, no history)."""
    return output_of(["git", *args])


def cpu_model(default=None):
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or default or "unknown"


def mem_total():
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemTotal:"):
                    return f"{int(line.split()[1]) / (1 << 20):.1f} GiB"
    except OSError:
        pass
    return "unknown"


def fmt_load(avg):
    return ", ".join(f"{x:.2f}" for x in avg)


def fmt_rate(x, small=".0f"):
    if x >= 1e6:
        return f"{x / 1e6:.2f} M/s"
    if x >= 1e3:
        return f"{x / 1e3:.1f} K/s"
    return f"{x:{small}} /s"


def datasets_base():
    """The shared datasets: $ROBOTS_BATCH_DATASETS, else ../shared/datasets
    next to the repository (whether or not it is there)."""
    return (os.environ.get("ROBOTS_BATCH_DATASETS")
            or os.path.join(ROOT, "..", "shared", "datasets"))


def datasets_or_exit(script):
    """The shared datasets, or a message and exit 0 where they are absent."""
    d = datasets_base()
    if not os.path.isdir(d):
        print(f"{script}: {d} is absent: nothing to measure", file=sys.stderr)
        sys.exit(0)
    return d


def load_script(name, module):
    """scripts/<name> (no .py suffix) imported as `module`."""
    path = os.path.join(ROOT, "scripts", name)
    loader = importlib.machinery.SourceFileLoader(module, path)
    spec = importlib.util.spec_from_loader(module, loader)
    mod = importlib.util.module_from_spec(spec)
    sys.dont_write_bytecode = True
    loader.exec_module(mod)
    return mod


def run(cmd, **kw):
    """subprocess.run from the repository root."""
    return subprocess.run(cmd, cwd=ROOT, **kw)
