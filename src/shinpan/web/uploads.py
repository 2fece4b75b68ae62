"""CSV uploads: read whole or refused whole, and parsed in a worker thread.

One limit, :data:`shinpan.files.csvio.MAX_BYTES`, for every way a CSV file comes in. A multipart
request body may have :data:`UPLOAD_BODY_LIMIT` bytes (the file and the form around it;
:class:`shinpan.web.app.BodyLimit` refuses more); a file over MAX_BYTES is refused with 413
and nothing is imported, so a file is never cut short and imported in part. The routes that
take a file are plain ``def``: FastAPI runs them in its thread pool, so reading, parsing and
importing never hold up the event loop.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from fastapi import UploadFile

from shinpan.errors import InvalidInput, TooLarge
from shinpan.files.csvio import MAX_BYTES, CsvError, CsvTooLarge, check_size
from shinpan.web import i18n

T = TypeVar("T")

UPLOAD_BODY_LIMIT = MAX_BYTES + 64 * 1024  # the file, the form's other fields and the multipart framing


def parse_upload(file: UploadFile, parse: Callable[[bytes], T]) -> T:
    """The uploaded file's rows (``parse`` is :func:`shinpan.files.csvio.parse_players` or
    ``parse_pairings``). Raises TooLarge (413) or InvalidInput (422), every problem listed
    in the user's language. Call it from a ``def`` route (it reads the file blocking)."""
    lang = i18n.current.get()
    try:
        data = file.file.read(MAX_BYTES + 1)  # one byte over is enough to refuse it
        check_size(max(len(data), file.size or 0))
        return parse(data)
    except CsvError as e:
        refusal = TooLarge if isinstance(e, CsvTooLarge) else InvalidInput
        raise refusal(
            "{problems}", field="file", problems="\n".join(p.text(lang) for p in e.problems)
        ) from None
