"""Guideline files, at the edge that owns files and environment: the one place that reads them.

Here a guideline file's text is read (the shipped one from the package's data, an
organiser's from a path), the checked guidelines are cached, and the guidelines the
installation holds are listed and added to. The guideline package turns a text into a
checked :class:`Guideline` (:func:`shinpan.guideline.load.parse_guideline`) and does nothing
else; the core takes the values made here.

**The guidelines an installation holds, and the one each event runs under (D15).** The
shipped guideline (REL 3) is always held. The operator adds others with
``shinpan guideline add FILE`` (or ``shinpan event create --guideline FILE``): each is
checked whole, then copied into the installation's guideline directory
(``SHINPAN_GUIDELINES``, else ``guidelines`` in the user's data directory) under its id and
version. A published guideline never changes: a file with the id and version of one held
but other content is refused (give it a new version). Every command and the web app look an
event's guideline up here by the id and version the ledger keeps, and check its content hash
when the ledger has one. A held file is read once per process until it changes (its size,
its modification time or the file itself): listing the held guidelines on every page asks
the directory, not each file again.

**The cache of checked guidelines.** A guideline file is read and checked once per version
of its text (and of the code that checks it): the checked guideline is kept in the user's
cache directory under the hash of what made it (the text, its format, the code that reads
and checks it, the versions of pydantic and PyYAML), and a command that starts later takes
it from there (about 2 ms instead of 40, and without loading the YAML parser or pydantic).
So is the JSON Schema of a file, under the hash of the code. Only what passed is kept: a
broken file is checked, and its problems told, every time. A cache that cannot be had, read
or written is passed over: the file is read and checked as it always was.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Callable, Mapping
from contextlib import suppress
from dataclasses import dataclass
from functools import cache
from importlib.util import find_spec
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from shinpan.errors import InvalidInput, Refused

if TYPE_CHECKING:  # the guideline package loads when a file is checked, not with this module
    from shinpan.guideline import Guideline, Rulebook

T = TypeVar("T")

SUFFIXES = (".yaml", ".yml", ".json", ".toml")
# The guideline package's code, read (not imported) for the cache's key.
_GUIDELINE_CODE = Path(__file__).resolve().parents[1] / "guideline"
# What a checked guideline depends on besides its file: the code that reads it (its classes,
# its schema and checks, and this cache), and the libraries it uses, by the file that holds
# their version.
_SHAPED_BY = (
    _GUIDELINE_CODE / "model.py",
    _GUIDELINE_CODE / "schema.py",
    _GUIDELINE_CODE / "check.py",
    _GUIDELINE_CODE / "declared.py",
    _GUIDELINE_CODE / "load.py",
    Path(__file__),
)
_LIBRARIES = (("pydantic", "version.py"), ("yaml", "__init__.py"))
# The guideline shipped with shinpan (REL 3), in the guideline package's data.
DEFAULT_FILE = "rel3-ja-1998.yaml"


# --- Reading a guideline file -------------------------------------------------------------


def load_guideline(path: str | Path) -> Guideline:
    """Read and check the guideline file at ``path``."""
    from shinpan.guideline.problems import GuidelineError, Problem  # start-up

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
    return (_GUIDELINE_CODE / "data" / DEFAULT_FILE).read_text("utf-8")


@cache
def default_guideline() -> Guideline:
    """The guideline shipped with shinpan (REL 3), checked once per version (see above)."""
    return _checked(default_guideline_text(), DEFAULT_FILE)


def guideline_schema() -> Mapping[str, object]:
    """The JSON Schema of a guideline file (a JSON document), for editors and organisers
    (made once per version of the classes, see above)."""
    from shinpan.guideline.load import schema_document  # start-up

    schema: dict[str, object] = _kept("schema", (), dict, schema_document)
    return schema


def _checked(text: str, file: str) -> Guideline:
    """``parse_guideline(text, file)``, from the cache when this text was checked before."""
    from shinpan.guideline.model import Guideline  # start-up

    def parse() -> Guideline:
        from shinpan.guideline.load import parse_guideline  # start-up: the checks load only when not cached

        return parse_guideline(text, file)

    form = Path(file).suffix.lower().encode()  # the same text may be YAML or JSON
    return _kept("guideline", (form, text.encode("utf-8")), Guideline, parse)


# --- The cache of checked guidelines -------------------------------------------------------


def _kept(kind: str, made_of: tuple[bytes, ...], shape: type[T], make: Callable[[], T]) -> T:
    """What ``make`` makes of ``made_of`` and the code that checks guidelines, kept in the
    cache under the hash of both; ``make`` runs only when it is not there (or unreadable)."""
    import pickle  # start-up: only where a guideline is checked or taken from the cache

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
    with suppress(OSError):  # a disk full or a limit reached: nothing is left half-written
        _write_whole(path, data)


def _write_whole(path: Path, data: bytes) -> None:
    """``data`` into ``path`` whole or not at all (written beside it, then put in its place);
    an :class:`OSError` is raised once the half-written file is gone."""
    import tempfile  # start-up: only when a file is written

    written: str | None = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=path.parent, prefix=".tmp-", delete=False) as f:
            written = f.name
            f.write(data)
        os.replace(written, path)
    except OSError:
        if written is not None:
            with suppress(OSError):
                os.unlink(written)
        raise


# --- The guidelines the installation holds -------------------------------------------------


@dataclass(frozen=True)
class HeldGuideline:
    """A guideline the installation holds: what an event names, and what people read."""

    id: str
    version: str
    sha256: str  # of the file's text, as the ledger keeps it
    title_ja: str
    title_en: str
    rel: int
    shipped: bool

    @property
    def key(self) -> str:
        """How a form or a script names it: ``id@version``."""
        return f"{self.id}@{self.version}"


@dataclass(frozen=True)
class _Read:
    """A guideline file read and checked: the guideline and the hash of its text."""

    guideline: Guideline
    sha256: str

    def held(self, shipped: bool) -> HeldGuideline:
        g = self.guideline
        return HeldGuideline(g.id, g.version, self.sha256, g.title.ja, g.title.en, g.rel, shipped)

    def names(self, guideline_id: str, version: str) -> bool:
        return (self.guideline.id, self.guideline.version) == (guideline_id, version)


def content_hash(text: str) -> str:
    """The content hash of a guideline file's text (SHA-256 of its UTF-8 bytes)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def guidelines_dir() -> Path:
    """Where the installation keeps the guideline files the operator added."""
    base = os.environ.get("SHINPAN_GUIDELINES")
    if base:
        return Path(base)
    data = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(data) / "shinpan" / "guidelines"


def _stem(guideline_id: str, version: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]", "_", f"{guideline_id}@{version}")


@cache
def _shipped() -> _Read:
    return _Read(default_guideline(), content_hash(default_guideline_text()))


def _files() -> list[Path]:
    try:
        return sorted(p for p in guidelines_dir().iterdir() if p.suffix.lower() in SUFFIXES)
    except OSError:  # no directory yet: only the shipped guideline is held
        return []


# The held files read in this process: by path, what the file was when read (its size, its
# modification time, the file itself) and what it held then (None: unreadable or broken).
_READ: dict[Path, tuple[tuple[int, int, int], _Read | None]] = {}


def _read(path: Path) -> _Read | None:
    """A held file, checked (None: unreadable or broken since it was added); read again only
    when the file changed since it was last read."""
    try:
        seen = path.stat()
    except OSError:
        return None
    stamp = (seen.st_size, seen.st_mtime_ns, seen.st_ino)
    known = _READ.get(path)
    if known is not None and known[0] == stamp:
        return known[1]
    found = _read_now(path)
    _READ[path] = (stamp, found)
    return found


def _read_now(path: Path) -> _Read | None:
    from shinpan.guideline import GuidelineError  # start-up

    try:
        return _Read(load_guideline(path), content_hash(path.read_text(encoding="utf-8")))
    except (GuidelineError, OSError, UnicodeDecodeError):
        return None


def shipped_guideline() -> HeldGuideline:
    """The guideline shipped with shinpan: an event's when it names none."""
    return _shipped().held(shipped=True)


def held_guidelines() -> list[HeldGuideline]:
    """Every guideline the installation holds: the shipped one first, then the added ones."""
    shipped = _shipped()
    out = [shipped.held(shipped=True)]
    for path in _files():
        found = _read(path)
        if found is not None and not found.names(shipped.guideline.id, shipped.guideline.version):
            out.append(found.held(shipped=False))
    return out


def _find(guideline_id: str, version: str) -> tuple[_Read, bool] | None:
    """The held guideline ``guideline_id`` ``version``, and whether it is the shipped one."""
    shipped = _shipped()
    if shipped.names(guideline_id, version):
        return shipped, True
    stem = _stem(guideline_id, version)
    for path in _files():
        if path.stem == stem:
            found = _read(path)
            if found is not None and found.names(guideline_id, version):
                return found, False
    return None


def add_guideline(path: str | Path) -> HeldGuideline:
    """Check the guideline file at ``path`` and hold it (a file already held: nothing to do).
    A broken file raises :class:`GuidelineError` with every problem; a file with the id and
    version of a held one but other content is refused; nothing is written then."""
    source = Path(path)
    g = load_guideline(source)  # every problem at once, before anything is written
    text = source.read_text(encoding="utf-8")
    made = _Read(g, content_hash(text))
    there = _find(g.id, g.version)
    if there is not None:
        if there[0].sha256 != made.sha256:
            raise Refused(
                "guideline {gid} {version} is already held with other content: "
                "a published guideline never changes, give the new file a new version",
                field="guideline",
                gid=g.id,
                version=g.version,
            )
        return there[0].held(shipped=there[1])
    directory = guidelines_dir()
    target = directory / (_stem(g.id, g.version) + source.suffix.lower())
    try:
        _write_whole(target, text.encode("utf-8"))
    except OSError as e:
        raise InvalidInput(
            "the guideline file cannot be kept in {where}: {reason}",
            field="guideline",
            where=str(directory),
            reason=e.strerror or str(e),
        ) from None
    return made.held(shipped=False)


def held_guideline(guideline_id: str, version: str, sha256: str | None = None) -> HeldGuideline:
    """The held guideline ``guideline_id`` ``version`` (and of content ``sha256`` when given),
    or :class:`Refused` saying the installation does not hold it."""
    found = _find(guideline_id, version)
    if found is None or (sha256 is not None and found[0].sha256 != sha256):
        raise _not_held(guideline_id, version)
    return found[0].held(shipped=found[1])


def _not_held(guideline_id: str, version: str) -> Refused:
    return Refused(
        "the event runs under guideline {gid} {version}, which this shinpan does not have "
        "(add its file with `shinpan guideline add FILE`)",
        field="guideline",
        gid=guideline_id,
        version=version,
    )


def rulebook_for(guideline_id: str, version: str) -> Rulebook:
    """The rulebook of guideline ``guideline_id`` ``version``, built once per process."""
    book = _BOOKS.get((guideline_id, version))
    if book is None:  # built once: its lookups and the engine's plans are kept on it
        from shinpan.guideline import Rulebook  # start-up

        found = _find(guideline_id, version)
        if found is None:
            raise _not_held(guideline_id, version)
        book = _BOOKS[(guideline_id, version)] = Rulebook(found[0].guideline)
    return book


_BOOKS: dict[tuple[str, str], Rulebook] = {}
