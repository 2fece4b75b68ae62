"""scripts/check-lock: the committed locks agree with pyproject.toml, and the check catches drift."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CHECK = ROOT / "scripts" / "check-lock"
HASH = "--hash=sha256:" + "0" * 64

PYPROJECT = """\
[build-system]
requires = ["setuptools>=69,<85"]

[project]
name = "x"
version = "0"
dependencies = ["typer>=0.12,<1", "psycopg[binary]>=3.1,<4", "pywin32>=300; sys_platform == 'win32'"]

[project.optional-dependencies]
dev = ["pytest>=8,<10"]
"""


def run(root: Path | None = None) -> subprocess.CompletedProcess[str]:
    args = [sys.executable, str(CHECK)] + ([str(root)] if root else [])
    return subprocess.run(args, capture_output=True, text=True, timeout=60, check=False)


def pins(*lines: str) -> str:
    return "".join(f"{line} \\\n    {HASH}\n    # via x\n" for line in lines)


def project(tmp_path: Path, app: str, dev: str) -> Path:
    (tmp_path / "pyproject.toml").write_text(PYPROJECT, encoding="utf-8")
    (tmp_path / "requirements-app.lock").write_text("# header\n" + app, encoding="utf-8")
    (tmp_path / "requirements.lock").write_text("# header\n" + dev, encoding="utf-8")
    return tmp_path


APP = ("typer==0.29.2", "psycopg==3.3.9", "psycopg-binary==3.3.9", "setuptools==84.2.1")


def test_the_committed_locks_agree_with_pyproject() -> None:
    done = run()
    assert done.returncode == 0, done.stderr
    assert "agree with pyproject.toml" in done.stdout


def test_a_consistent_lock_passes(tmp_path: Path) -> None:
    done = run(project(tmp_path, pins(*APP), pins(*APP, "pytest==9.2.0")))
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize(
    ("app", "dev", "message"),
    [
        (pins(*APP), pins(*APP), "pytest (the dev extra) is not pinned"),
        (pins(*APP[1:]), pins(*APP, "pytest==9.2.0"), "typer (dependencies) is not pinned"),
        (pins(*APP), pins(*APP[:3], "pytest==9.2.0"), "setuptools (build-system.requires) is not pinned"),
        (pins(*APP), pins("typer==1.0.0", *APP[1:], "pytest==9.2.0"), "typer==1.0.0 is outside"),
        (pins(*APP), pins(*APP, "pytest>=9"), "pytest is not pinned with =="),
        (pins(*APP), pins(*APP) + "pytest==9.2.0\n", "pytest has no --hash"),
        (pins("typer==0.20.0", *APP[1:]), pins(*APP, "pytest==9.2.0"), "but requirements.lock has 0.29.2"),
        (pins(*APP), "--find-links /opt/wheels\n" + pins(*APP, "pytest==9.2.0"), "an option in a lock"),
        (pins(*APP), pins(*APP, "pytest @ file:///tmp/pytest-9.2.0.whl"), "comes from a URL or a path"),
    ],
)
def test_drift_is_reported(tmp_path: Path, app: str, dev: str, message: str) -> None:
    done = run(project(tmp_path, app, dev))
    assert done.returncode == 1
    assert message in done.stderr


def test_a_missing_lock_is_reported(tmp_path: Path) -> None:
    root = project(tmp_path, pins(*APP), pins(*APP, "pytest==9.2.0"))
    (root / "requirements-app.lock").unlink()
    done = run(root)
    assert done.returncode == 1
    assert "requirements-app.lock: missing" in done.stderr


def test_the_locks_name_no_local_index() -> None:
    for name in ("requirements.lock", "requirements-app.lock"):
        text = (ROOT / name).read_text(encoding="utf-8")
        assert "file://" not in text and "/opt/" not in text, name
        assert "--index-url" not in text and "--find-links" not in text, name
