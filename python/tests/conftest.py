"""Shared fixtures of the Python tests: where the datasets and the command
are, and a local Spark session when Java and pyspark are there."""

import os
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def shared_dir():
    """../shared beside the repository (or $ROBOTS_BATCH_SHARED), or None."""
    path = os.environ.get("ROBOTS_BATCH_SHARED") or os.path.join(ROOT, "..", "shared")
    return path if os.path.isdir(os.path.join(path, "datasets")) else None


@pytest.fixture(scope="session")
def shared():
    path = shared_dir()
    if path is None:
        pytest.skip("../shared is absent: the real datasets and vectors are not here")
    return path


@pytest.fixture(scope="session")
def binary():
    """The release command, built by `cargo build --release`."""
    target = os.environ.get("CARGO_TARGET_DIR") or os.path.join(ROOT, "target")
    path = os.environ.get("ROBOTS_BATCH_BIN") or os.path.join(target, "release", "robots-batch")
    if not os.path.exists(path):
        pytest.skip(f"{path} is absent: run `cargo build --release` first")
    return path


def run(binary, *args, stdin=None):
    """Runs the command; returns its stdout as bytes, failing on exit != 0."""
    p = subprocess.run([binary, *args], input=stdin, capture_output=True)
    assert p.returncode == 0, p.stderr.decode(errors="replace")
    return p.stdout


@pytest.fixture(scope="session")
def spark():
    """A local[2] Spark session; skips where Java or pyspark is missing."""
    if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
        pytest.skip("Java is not installed: the Spark tests need Java 17")
    try:
        from pyspark.sql import SparkSession
    except ImportError:
        pytest.skip("pyspark is not installed (pip install '.[spark]')")
    # The workers must run this interpreter, which has robots_batch.
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    session = (
        SparkSession.builder.master("local[2]")
        .appName("robots-batch-tests")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "4")
        .config("spark.driver.memory", "2g")
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()
