"""The suite keeps to its own folders: shinpan's data, cache, keys and held guidelines are
looked for, in this process and in the processes it starts, only under the folder
tests/conftest.py made for the session, never in the user's own (~/.local/share/shinpan,
~/.cache/shinpan). conftest's session fixture ``hermetic`` fails the run if the user's own
folders changed while it ran."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from conftest import HERMETIC_ROOT, PYTHON, REAL_FOLDERS, Backend, folder_listing
from shinpan.files.guidelines import cache_dir, guidelines_dir
from shinpan.services import seal
from shinpan.store.db import Database, data_dir

WHERE = (
    "import json; from shinpan.files.guidelines import cache_dir, guidelines_dir; "
    "from shinpan.store.db import data_dir; "
    "print(json.dumps([str(data_dir()), str(cache_dir()), str(guidelines_dir())]))"
)


def inside(path: Path) -> bool:
    return path.resolve().is_relative_to(HERMETIC_ROOT.resolve())


def test_shinpan_looks_only_in_the_suites_own_folders(backend: Backend) -> None:
    assert all(inside(p) for p in (data_dir(), cache_dir(), guidelines_dir()))
    db = Database(backend.url)
    try:
        keys = seal.key_dir(db)  # PostgreSQL: the data folder; SQLite: beside the test's file
        assert inside(keys) or keys == Path(str(backend.path)).parent
    finally:
        db.close()
    assert not any(inside(real) for real in REAL_FOLDERS)


def test_a_process_the_suite_starts_looks_only_in_the_suites_own_folders() -> None:
    done = subprocess.run([str(PYTHON), "-c", WHERE], capture_output=True, text=True, check=True)
    assert all(inside(Path(p)) for p in json.loads(done.stdout))


def test_a_change_to_the_users_folders_is_seen(tmp_path: Path) -> None:
    """The session's check sees a file added to a watched folder (here a folder of the test's own)."""
    watched = (tmp_path / "shinpan",)
    (tmp_path / "shinpan").mkdir()
    before = folder_listing(watched)
    (tmp_path / "shinpan" / "guidelines").mkdir()
    assert folder_listing(watched) != before
