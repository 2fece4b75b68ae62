"""Reading a guideline file: parse, validate the shape, check the meaning.

Every problem comes back at once as a :class:`Problem` with the file, the path to the field
and what is wrong; nothing here raises anything but :class:`GuidelineError`.

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
import json
import os
import pickle
from collections.abc import Callable
from contextlib import suppress
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

from shinpan.errors import InvalidInput
from shinpan.guideline import model
from shinpan.guideline.check import Problem, check_meaning
from shinpan.guideline.model import Guideline

T = TypeVar("T")

DEFAULT_FILE = "rel3-ja-1998.yaml"
# What a checked guideline depends on besides its file: the code that reads it (its classes,
# its schema and checks), and the libraries it uses, by the file that holds their version.
_SHAPED_BY = ("model.py", "schema.py", "check.py", "load.py")
_LIBRARIES = (("pydantic", "version.py"), ("yaml", "__init__.py"))


class GuidelineError(InvalidInput):
    """A guideline file that cannot be used, with every problem found in it."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems).replace("{", "{{").replace("}", "}}"))


def _parse(text: str, file: str) -> object:
    import yaml  # only where a YAML file is read: the shipped guideline comes from the cache

    suffix = Path(file).suffix.lower()
    try:
        if suffix == ".json":
            return json.loads(text)
        if suffix == ".toml":
            import tomllib

            return tomllib.loads(text)
        return yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except RecursionError:
        raise GuidelineError([Problem(file, "", "cannot be read: nested too deeply")]) from None
    except (ValueError, yaml.YAMLError) as e:
        where = getattr(e, "problem_mark", None)
        at = f"line {where.line + 1}" if where is not None else ""
        reason = getattr(e, "problem", None) or str(e).splitlines()[0]
        raise GuidelineError([Problem(file, at, f"cannot be read: {reason}")]) from None


def _field_path(loc: tuple[int | str, ...]) -> str:
    path = ""
    for part in loc:
        path += f"[{part}]" if isinstance(part, int) else (f".{part}" if path else str(part))
    return path


def parse_guideline(text: str, file: str = "<guideline>") -> Guideline:
    """Turn a guideline file's text into a checked :class:`Guideline`."""
    raw = _parse(text, file)
    if not isinstance(raw, dict):
        raise GuidelineError([Problem(file, "", "a guideline file must be a mapping of fields")])
    from shinpan.guideline import schema  # pydantic: only where a file is validated

    try:
        guideline = schema.validate(raw)
    except schema.ValidationError as e:
        problems = [Problem(file, _field_path(loc), message) for loc, message in schema.problems_of(e)]
        raise GuidelineError(problems) from None
    problems = check_meaning(guideline, file)
    if problems:
        raise GuidelineError(problems)
    return guideline


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
    return resources.files("shinpan.guideline").joinpath("data", DEFAULT_FILE).read_text("utf-8")


@cache
def default_guideline() -> Guideline:
    """The guideline shipped with shinpan (REL 3), checked once per version (see above)."""
    return _checked(default_guideline_text(), DEFAULT_FILE)


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
    from importlib.util import find_spec

    here = Path(model.__file__)
    code = [here.with_name(m).read_bytes() for m in _SHAPED_BY]
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
    import tempfile  # only when the cache is filled

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


def guideline_schema() -> dict[str, Any]:
    """The JSON Schema of a guideline file, for editors and organisers (made once per
    version of the classes, see above)."""
    schema: dict[str, Any] = _kept("schema", (), dict, _json_schema)
    return schema


def _json_schema() -> dict[str, Any]:
    from shinpan.guideline.schema import json_schema

    schema = json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "shinpan guideline file"
    return schema
