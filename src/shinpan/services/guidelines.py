"""The guidelines an installation holds, and the one each event runs under (D15).

The shipped guideline (REL 3) is always held. The operator adds others with
``shinpan guideline add FILE`` (or ``shinpan event create --guideline FILE``): each is
checked whole, then copied into the installation's guideline directory (``SHINPAN_GUIDELINES``,
else ``guidelines`` in the user's data directory) under its id and version. A published
guideline never changes: a file with the id and version of one held but other content is
refused (give it a new version). Every command and the web app look an event's guideline
up here by the id and version the ledger keeps, and check its content hash when the
ledger has one.
"""

from __future__ import annotations

import hashlib
import os
import re
import tempfile
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from shinpan.errors import InvalidInput, Refused

if TYPE_CHECKING:
    from shinpan.guideline import Guideline, Rulebook

SUFFIXES = (".yaml", ".yml", ".json", ".toml")


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


def _held(g: Guideline, text: str, shipped: bool) -> HeldGuideline:
    return HeldGuideline(g.id, g.version, content_hash(text), g.title.ja, g.title.en, g.rel, shipped)


def _shipped() -> tuple[Guideline, str]:
    from shinpan.services.guideline_files import default_guideline, default_guideline_text  # start-up

    return default_guideline(), default_guideline_text()


def _files() -> list[Path]:
    try:
        return sorted(p for p in guidelines_dir().iterdir() if p.suffix.lower() in SUFFIXES)
    except OSError:  # no directory yet: only the shipped guideline is held
        return []


def _read(path: Path) -> tuple[Guideline, str] | None:
    """A held file, checked (None: unreadable or broken since it was added)."""
    from shinpan.guideline import GuidelineError  # start-up
    from shinpan.services.guideline_files import load_guideline  # start-up

    try:
        return load_guideline(path), path.read_text(encoding="utf-8")
    except (GuidelineError, OSError, UnicodeDecodeError):
        return None


def shipped_guideline() -> HeldGuideline:
    """The guideline shipped with shinpan: an event's when it names none."""
    g, text = _shipped()
    return _held(g, text, shipped=True)


def held_guidelines() -> list[HeldGuideline]:
    """Every guideline the installation holds: the shipped one first, then the added ones."""
    g, text = _shipped()
    out = [_held(g, text, shipped=True)]
    for path in _files():
        found = _read(path)
        if found is not None and (found[0].id, found[0].version) != (g.id, g.version):
            out.append(_held(found[0], found[1], shipped=False))
    return out


def _find(guideline_id: str, version: str) -> tuple[Guideline, str, bool] | None:
    g, text = _shipped()
    if (g.id, g.version) == (guideline_id, version):
        return g, text, True
    stem = _stem(guideline_id, version)
    for path in _files():
        if path.stem == stem:
            found = _read(path)
            if found is not None and (found[0].id, found[0].version) == (guideline_id, version):
                return found[0], found[1], False
    return None


def add_guideline(path: str | Path) -> HeldGuideline:
    """Check the guideline file at ``path`` and hold it (a file already held: nothing to do).
    A broken file raises :class:`GuidelineError` with every problem; a file with the id and
    version of a held one but other content is refused; nothing is written then."""
    from shinpan.services.guideline_files import load_guideline  # start-up

    source = Path(path)
    g = load_guideline(source)  # every problem at once, before anything is written
    text = source.read_text(encoding="utf-8")
    made = _held(g, text, shipped=False)
    there = _find(g.id, g.version)
    if there is not None:
        if content_hash(there[1]) != made.sha256:
            raise Refused(
                "guideline {gid} {version} is already held with other content: "
                "a published guideline never changes, give the new file a new version",
                field="guideline",
                gid=g.id,
                version=g.version,
            )
        return _held(there[0], there[1], shipped=there[2])
    directory = guidelines_dir()
    target = directory / (_stem(g.id, g.version) + source.suffix.lower())
    _write(directory, target, text)
    return made


def _write(directory: Path, target: Path, text: str) -> None:
    """``text`` into ``target``, whole or not at all."""
    written: str | None = None
    try:
        directory.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(
            "w", encoding="utf-8", dir=directory, prefix=".tmp-", delete=False
        ) as f:
            written = f.name
            f.write(text)
        os.replace(written, target)
    except OSError as e:
        if written is not None:
            with suppress(OSError):
                os.unlink(written)
        raise InvalidInput(
            "the guideline file cannot be kept in {where}: {reason}",
            field="guideline",
            where=str(directory),
            reason=e.strerror or str(e),
        ) from None


def held_guideline(guideline_id: str, version: str, sha256: str | None = None) -> HeldGuideline:
    """The held guideline ``guideline_id`` ``version`` (and of content ``sha256`` when given),
    or :class:`Refused` saying the installation does not hold it."""
    found = _find(guideline_id, version)
    if found is None or (sha256 is not None and content_hash(found[1]) != sha256):
        raise _not_held(guideline_id, version)
    return _held(found[0], found[1], shipped=found[2])


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
        book = _BOOKS[(guideline_id, version)] = Rulebook(found[0])
    return book


_BOOKS: dict[tuple[str, str], Rulebook] = {}
