"""The package's extras install what their features import: `pip install
'.[spark]'` once failed in mapInArrow for want of pandas, and `'.[duckdb]'`
in the README's recipe for want of numpy. scripts/check-extras runs each
recipe in a fresh environment with only its extra."""

import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# What each feature imports, by the extra that is to provide it.
NEEDS = {
    "arrow": {"pyarrow"},
    # pyspark's mapInArrow imports pandas (2.2 or newer) besides pyarrow.
    "spark": {"pyarrow", "pyspark", "pandas"},
    # DuckDB's Arrow functions (create_function(type="arrow")) import numpy,
    # which neither duckdb nor pyarrow requires.
    "duckdb": {"pyarrow", "duckdb", "numpy"},
    "polars": {"pyarrow", "polars"},
    # The pipeline steps judge through _judge (pyarrow and numpy);
    # datatrove's filters package imports regex, which it does not require.
    "datatrove": {"pyarrow", "numpy", "datatrove", "regex"},
    "ray": {"pyarrow", "numpy", "ray"},
    "nemo": {"pyarrow", "numpy", "nemo-curator"},
}


def requirement_names(requirements):
    names = set()
    for req in requirements:
        name = req
        for stop in "<>=!~;[ ":
            name = name.split(stop)[0]
        names.add(name.strip().lower())
    return names


def test_extras_install_what_their_features_import():
    if sys.version_info < (3, 11):
        pytest.skip("tomllib needs Python 3.11")
    import tomllib

    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as f:
        extras = tomllib.load(f)["project"]["optional-dependencies"]
    for extra, modules in NEEDS.items():
        assert modules <= requirement_names(extras[extra]), extra
    # pyspark warns that it does not fully support pandas 3 yet.
    assert "pandas>=2.2,<3" in extras["spark"]


def third_party_imports(module):
    """The third-party modules a robots_batch module imports anywhere."""
    with open(os.path.join(ROOT, "python", "robots_batch", module + ".py")) as f:
        source = f.read()
    imported = set()
    for line in source.splitlines():
        words = line.split()
        if len(words) >= 2 and words[0] in ("import", "from") and not words[1].startswith("."):
            imported.add(words[1].split(".")[0])
    return imported - set(sys.stdlib_module_names) - {"robots_batch"}


def test_spark_module_imports_only_what_the_spark_extra_gives():
    # Every third-party module robots_batch.spark imports is in the extra.
    third_party = third_party_imports("spark")
    assert third_party <= NEEDS["spark"], third_party


@pytest.mark.parametrize("module", ["duckdb", "polars"])
def test_dataframe_recipes_import_only_what_their_extra_gives(module):
    # The recipes import their engine inside their functions (indented
    # lines count too), so that robots_batch itself never needs it.
    third_party = third_party_imports(module)
    assert module in third_party and third_party <= NEEDS[module], third_party


@pytest.mark.parametrize("extra", ["datatrove", "ray", "nemo"])
def test_pipeline_steps_import_only_what_their_extra_gives(extra):
    # A step imports its framework and, through _judge, pyarrow and numpy.
    third_party = third_party_imports(extra) | third_party_imports("_judge")
    packages = {"nemo_curator": "nemo-curator"}
    names = {packages.get(m, m) for m in third_party}
    assert names <= NEEDS[extra], names
    assert {"pyarrow", "numpy"} <= names
