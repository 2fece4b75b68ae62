"""The one way a package loads its names late (:func:`shinpan.names_on_first_use`)."""

from __future__ import annotations

import json
import subprocess
import sys
import types

import pytest

from shinpan import names_on_first_use

PACKAGES = ("shinpan.engine", "shinpan.guideline", "shinpan.reports")


def test_a_name_loads_its_module_on_first_use_and_only_it() -> None:
    code = (
        "import json, sys\n"
        "import shinpan.reports as reports\n"
        "def loaded(): return sorted(m for m in sys.modules if m.startswith('shinpan.reports.'))\n"
        "before = loaded()\n"
        "found = reports.wall_standings\n"
        "print(json.dumps([before, loaded(), found.__module__, 'wall_standings' in vars(reports)]))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    before, after, module, kept = json.loads(done.stdout)
    assert before == []
    assert "shinpan.reports.wall" in after and "shinpan.reports.penalties_pdf" not in after
    assert module == "shinpan.reports.wall" and kept


@pytest.mark.parametrize("package", PACKAGES)
def test_every_name_of_a_package_is_given_and_listed(package: str) -> None:
    module = sys.modules.get(package) or __import__(package, fromlist=["_"])
    assert sorted(module.__all__) == sorted(module._where)
    for name in module.__all__:
        value = getattr(module, name)
        assert not isinstance(value, types.ModuleType), name
        assert name in dir(module)
    with pytest.raises(AttributeError, match=f"module '{package}' has no attribute 'nothing'"):
        module.nothing  # noqa: B018


def test_a_name_that_is_a_module_stays_the_function(monkeypatch: pytest.MonkeyPatch) -> None:
    """A package made here: its ``tool`` is the function, whether its module ``tool`` was
    loaded before the name was asked for or after; another submodule is set as usual."""
    package = types.ModuleType("fake_pkg")
    package.__path__ = []
    tool = types.ModuleType("fake_pkg.tool")
    exec("def tool():\n    return 'made'\n", tool.__dict__)
    monkeypatch.setitem(sys.modules, "fake_pkg", package)
    monkeypatch.setitem(sys.modules, "fake_pkg.tool", tool)
    names_on_first_use("fake_pkg", {"tool": "tool"})
    package.tool = tool  # as the import system does once the submodule is loaded
    assert package.tool() == "made"
    package.tool = tool  # loaded again after the name was given
    assert package.tool() == "made"
    other = types.ModuleType("fake_pkg.other")
    package.other = other
    assert package.other is other
    with pytest.raises(AttributeError):
        package.missing  # noqa: B018
