"""Reading an entry's JSON body: each field checked for what it must be, a malformed body
refused with :class:`MalformedBody` naming the kind and the field, never a KeyError."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, ClassVar, Self, TypeVar

T = TypeVar("T")


class MalformedBody(ValueError):
    """A body that is not what shinpan writes for its kind; says which field is wrong."""


class Fields:
    """One JSON object being read, with where it sits (for the error's words)."""

    def __init__(self, value: object, where: str) -> None:
        if not isinstance(value, dict):
            raise MalformedBody(f"{where} is not an object")
        self.value: dict[str, Any] = value
        self.where = where

    def has(self, key: str) -> bool:
        return key in self.value

    def _get(self, key: str, optional: bool) -> Any:
        if key not in self.value:
            if optional:
                return None
            raise MalformedBody(f"{self.where}: {key} is missing")
        return self.value[key]

    def _typed(self, key: str, kind: type | tuple[type, ...], what: str, optional: bool) -> Any:
        v = self._get(key, optional)
        if v is None and optional:
            return None
        if not isinstance(v, kind) or (isinstance(v, bool) and kind is int):
            raise MalformedBody(f"{self.where}: {key} is not {what}")
        return v

    def whole(self, key: str) -> int:
        return int(self._typed(key, int, "a whole number", False))

    def opt_whole(self, key: str) -> int | None:
        return self._typed(key, int, "a whole number", True)  # type: ignore[no-any-return]

    def text(self, key: str) -> str:
        return str(self._typed(key, str, "text", False))

    def opt_text(self, key: str) -> str | None:
        return self._typed(key, str, "text", True)  # type: ignore[no-any-return]

    def flag(self, key: str, default: bool | None = None) -> bool:
        if default is not None and key not in self.value:
            return default
        return bool(self._typed(key, bool, "true or false", False))

    def texts(self, key: str) -> tuple[str, ...]:
        items = self._typed(key, list, "a list", False)
        if not all(isinstance(i, str) for i in items):
            raise MalformedBody(f"{self.where}: {key} is not a list of texts")
        return tuple(items)

    def wholes(self, key: str) -> tuple[int, ...]:
        items = self._typed(key, list, "a list", False)
        if not all(type(i) is int for i in items):
            raise MalformedBody(f"{self.where}: {key} is not a list of whole numbers")
        return tuple(items)

    def mapping(self, key: str) -> Mapping[str, Any]:
        return dict(self._typed(key, dict, "an object", False))

    def part(self, key: str, read: Callable[[Fields], T], optional: bool = False) -> T | None:
        v = self._get(key, optional)
        return None if v is None and optional else read(Fields(v, f"{self.where}: {key}"))

    def parts(self, key: str, read: Callable[[Fields], T], optional: bool = False) -> tuple[T, ...]:
        if optional and key not in self.value:
            return ()
        items = self._typed(key, list, "a list", False)
        return tuple(read(Fields(v, f"{self.where}: {key}[{n}]")) for n, v in enumerate(items))


def unless_none(**values: Any) -> dict[str, Any]:
    """The keys an entry writes only when they say something."""
    return {k: v for k, v in values.items() if v is not None}


class Kind:
    """What every entry type has: its kind, its body, and its reading from a body."""

    kind: ClassVar[str]

    def body(self) -> dict[str, Any]:
        raise NotImplementedError

    @classmethod
    def read(cls, f: Fields) -> Self:
        raise NotImplementedError

    @classmethod
    def from_body(cls, body: object) -> Self:
        """The entry a body says; :class:`MalformedBody` naming the kind and field if it is not
        what shinpan writes."""
        return cls.read(Fields(body, cls.kind))


# The event and its people.
