"""Guideline files on disk: the shipped one, an organiser's, and the cache of checked ones.

The guideline package turns a file's text into a checked :class:`Guideline`
(:func:`shinpan.guideline.load.parse_guideline`) and does nothing else; here the text is
read (from the package's data or from a path) and what checking it made is kept.

A guideline file is read and checked once per version of its text (and of the code that
checks it): the checked guideline is kept in the user's cache directory under the hash of
what made it (the text, its format, the code that reads and checks it, the versions of
pydantic and PyYAML), and a command that starts later takes it from there (about 2 ms
instead of 40, and without loading the YAML parser or pydantic). So is the JSON Schema of a
file, under the hash of the code. Only what passed is kept: a broken file is checked, and
its problems told, every time. A cache that cannot be had, read or written is passed over:
the file is read and checked as it always was.
"""

from __future__ import annotations

import hashlib
import os
import pickle
from collections.abc import Callable, Mapping
from contextlib import suppress
from functools import cache
from importlib import resources
from importlib.util import find_spec
from pathlib import Path
from typing import TypeVar

from shinpan.guideline import load, model
from shinpan.guideline.check import Problem
from shinpan.guideline.load import DEFAULT_FILE, GuidelineError, parse_guideline
from shinpan.guideline.model import Guideline

T = TypeVar("T")

# What a checked guideline depends on besides its file: the code that reads it (its classes,
# its schema and checks, and this cache), and the libraries it uses, by the file that holds
# their version.
_SHAPED_BY = (
    Path(model.__file__).with_name("model.py"),
    Path(model.__file__).with_name("schema.py"),
    Path(model.__file__).with_name("check.py"),
    Path(load.__file__),
    Path(__file__),
)
_LIBRARIES = (("pydantic", "version.py"), ("yaml", "__init__.py"))


def load_guideline(path: str | Path) -> Guideline:
    """Read and check the guideline file at ``path``."""
    file = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise GuidelineError([Problem(file, "", "no such file")]) from None
    except UnicodeDecodeError:
        raise GuidelineError([Problem(file, "", "not UTF-8 text")]) from None
    except OSError as e:
        raise GuidelineError([Problem(file, "", e.strerror or str(e))]) from None
    return _checked(text, file)


def default_guideline_text() -> str:
    """The text of the guideline file shipped with shinpan."""
    return resources.files("shinpan.guideline").joinpath("data", DEFAULT_FILE).read_text("utf-8")


@cache
def default_guideline() -> Guideline:
    """The guideline shipped with shinpan (REL 3), checked once per version (see above)."""
    return _checked(default_guideline_text(), DEFAULT_FILE)


def guideline_schema() -> Mapping[str, object]:
    """The JSON Schema of a guideline file (a JSON document), for editors and organisers
    (made once per version of the classes, see above)."""
    schema: dict[str, object] = _kept("schema", (), dict, load.schema_document)
    return schema


def _checked(text: str, file: str) -> Guideline:
    """``parse_guideline(text, file)``, from the cache when this text was checked before."""
    form = Path(file).suffix.lower().encode()  # the same text may be YAML or JSON
    return _kept("guideline", (form, text.encode("utf-8")), Guideline, lambda: parse_guideline(text, file))


def _kept(kind: str, made_of: tuple[bytes, ...], shape: type[T], make: Callable[[], T]) -> T:
    """What ``make`` makes of ``made_of`` and the code that checks guidelines, kept in the
    cache under the hash of both; ``make`` runs only when it is not there (or unreadable)."""
    try:
        cached: Path | None = cache_dir() / f"{kind}-{_key(made_of)}.pickle"
    except Exception:  # no cache to be had here (no home directory, a file missing): make it
        cached = None
    if cached is not None:
        try:
            kept = pickle.loads(cached.read_bytes())  # written by this user, named by its content's hash
            if isinstance(kept, shape):
                return kept
        except Exception:  # none yet, unreadable, or from other code: make it
            pass
    made = make()  # what raises (a broken file) is not kept
    if cached is not None:
        _keep(cached, pickle.dumps(made, protocol=pickle.HIGHEST_PROTOCOL))
    return made


def _key(made_of: tuple[bytes, ...]) -> str:
    """The hash of ``made_of``, of the code that reads and checks a guideline, and of the
    versions of the libraries it uses (read from their files, without importing them)."""
    code = [path.read_bytes() for path in _SHAPED_BY]
    for package, file in _LIBRARIES:
        spec = find_spec(package)
        code.append(Path(spec.origin).with_name(file).read_bytes() if spec and spec.origin else b"-")
    key = hashlib.sha256()
    for part in (*made_of, *code):
        key.update(part + b"\0")
    return key.hexdigest()[:32]


def cache_dir() -> Path:
    """Where shinpan keeps what it can make again: ``SHINPAN_CACHE``, or the user's cache."""
    base = os.environ.get("SHINPAN_CACHE")
    if base:
        return Path(base)
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "shinpan"


def _keep(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` whole or not at all; a cache that cannot be written is skipped."""
    import tempfile  # start-up: only when the cache is filled

    written: str | None = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=path.parent, prefix=".tmp-", delete=False) as f:
            written = f.name
            f.write(data)
        os.replace(written, path)
    except OSError:
        if written is not None:  # a disk full or a limit reached: leave nothing half-written
            with suppress(OSError):
                os.unlink(written)
