"""Japanese first, English too: gettext catalogs read with Babel, the choice in a cookie.

Templates and messages are written in English; ``locale/ja/LC_MESSAGES/messages.po`` holds
the Japanese. The language of a request is the ``lang`` cookie, else Japanese.
"""

from __future__ import annotations

from contextvars import ContextVar
from functools import cache
from importlib import resources

from babel.messages.pofile import read_po

LANGUAGES = ("ja", "en")
DEFAULT = "ja"
COOKIE = "lang"

current: ContextVar[str] = ContextVar("shinpan_lang", default=DEFAULT)


@cache
def catalog(lang: str) -> dict[str, str]:
    """msgid → translation for one language (English needs none)."""
    if lang == "en":
        return {}
    path = resources.files("shinpan.web") / "locale" / lang / "LC_MESSAGES" / "messages.po"
    with path.open("rb") as f:
        po = read_po(f, locale=lang)
    return {str(m.id): str(m.string) for m in po if m.id and m.string and not m.fuzzy}


def gettext(message: str) -> str:
    return catalog(current.get()).get(message, message)


def ngettext(singular: str, plural: str, n: int) -> str:
    return gettext(singular if n == 1 else plural)


def choose(cookie: str | None) -> str:
    return cookie if cookie in LANGUAGES else DEFAULT


def N_(message: str) -> str:
    """Marks a message for translation where it is used as a value (roles, states…)."""
    return message


# Values shown through ``_(value)`` in templates: listed here so extraction finds them.
DYNAMIC = (
    N_("head_judge"), N_("floor_judge"), N_("scorekeeper"), N_("viewer"),
    N_("active"), N_("withdrawn"), N_("ejected"), N_("disqualified"),
    N_("pending"), N_("confirmed"), N_("recorded"), N_("voided"),
    N_("talking"), N_("noise"), N_("too-fast"), N_("too-slow"), N_("other"),
    N_("upheld"), N_("overturned"), N_("changed"),
    N_("player"), N_("opponent"), N_("witness"), N_("judge"),
    N_("read"), N_("record"), N_("confirm"), N_("deviate"), N_("void"), N_("appeal"), N_("statement"),
    N_("manage"), N_("results"), N_("deadline"), N_("export"), N_("invite"), N_("report"),
    N_("a {role} may not {action}"),
    N_("end_sessions"),
)  # fmt: skip
