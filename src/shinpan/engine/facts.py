"""What a record says, checked before anything is decided: the answers to an infraction's
questions (its facts), the people they name in one form (D18), who is penalised (D8), and
a head judge's deviation (D11). Pure: no I/O, no clock.
"""

from __future__ import annotations

from collections.abc import Container, Mapping, Sequence
from dataclasses import dataclass, replace

from shinpan.engine.participants import hidden_characters, normalize_id
from shinpan.engine.refusals import DeviationRefused, why_unchanged
from shinpan.engine.ruling import Deviation, Record
from shinpan.errors import InvalidInput
from shinpan.guideline.model import Infraction, Subject
from shinpan.guideline.rulebook import Rulebook


class RecordError(InvalidInput, ValueError):
    """A record the engine cannot decide: what is wrong, and in which field.

    ``template`` is an English message with named parameters (translated where a judge
    reads it, see :mod:`shinpan.errors`); ``message`` is it filled in."""

    def __init__(self, field: str, template: str, **params: object) -> None:
        super().__init__(template, field=field, **params)
        self.field: str = field
        self.message = self.render()
        self.args = (f"{field}: {self.message}" if field else self.message,)


@dataclass(frozen=True)
class Facts:
    """The answers to an infraction's questions, checked."""

    kind: str | None = None
    same_as_previous: bool | None = None
    mixed_into: str | None = None
    recorded_by: str | None = None
    advisor: str | None = None
    advisor_only: bool = False
    intentional: bool = False
    facts_determined: bool = False


NO_FACTS = Facts()
_BOOLS = {"same_as_previous", "advisor_only", "intentional", "facts_determined"}
_NAMES = {"kind", "mixed_into", "recorded_by", "advisor"}
PERSON_FACTS = ("mixed_into", "recorded_by", "advisor")  # facts that name someone (D8, D18)
NEVER_SAME_KIND = "other"  # D19: a draft.standard of kind `other` is never "the same as before" by kind


def normalized(record: Record) -> Record:
    """D18: the record with its participant ids (the player, the people its facts name) in
    the form every path compares."""
    facts = record.facts
    named = (
        {
            key: normalize_id(value)
            for key in PERSON_FACTS
            if isinstance(value := facts.get(key), str) and normalize_id(value) != value
        }
        if facts and not facts.keys().isdisjoint(PERSON_FACTS)
        else {}
    )
    player = normalize_id(record.player)
    if not named and player == record.player:
        return record  # already in that form: most records are
    return replace(record, player=player, facts={**facts, **named})


def _name(values: Mapping[str, object], key: str) -> str | None:
    """A fact that names someone or something, checked above to be text; None when not given."""
    value = values.get(key)
    return value if isinstance(value, str) else None


def _flag(values: Mapping[str, object], key: str) -> bool | None:
    """A yes-or-no fact, checked above to be a bool; None when not given."""
    value = values.get(key)
    return value if isinstance(value, bool) else None


def read_facts(inf: Infraction, facts: Mapping[str, object], participants: Container[str]) -> Facts:
    """Check the facts (of a record already :func:`normalized`) against the questions this
    infraction asks."""
    if not facts:
        return NO_FACTS
    asked = {str(q) for q in inf.questions}
    for key, value in facts.items():
        at = f"facts.{key}"
        if key not in asked:
            allowed = ", ".join(sorted(asked)) or "none"
            raise RecordError(
                at, "this infraction does not take this fact (it takes: {allowed})", allowed=allowed
            )
        if key in _BOOLS and not isinstance(value, bool):
            raise RecordError(at, "must be true or false")
        if key in _NAMES and (not isinstance(value, str) or not value.strip()):
            raise RecordError(at, "must be a non-empty name")
        if key in PERSON_FACTS and isinstance(value, str) and (chars := hidden_characters(value)):
            raise RecordError(
                at,
                "an id cannot hold invisible characters ({chars}); type it again without them",
                chars=chars,
            )
    got = Facts(
        kind=_name(facts, "kind"),
        same_as_previous=_flag(facts, "same_as_previous"),
        mixed_into=_name(facts, "mixed_into"),
        recorded_by=_name(facts, "recorded_by"),
        advisor=_name(facts, "advisor"),
        advisor_only=bool(_flag(facts, "advisor_only")),
        intentional=bool(_flag(facts, "intentional")),
        facts_determined=bool(_flag(facts, "facts_determined")),
    )
    if got.kind is not None and got.kind not in inf.kinds:
        raise RecordError(
            "facts.kind", "unknown kind {kind!r} (kinds: {kinds})", kind=got.kind, kinds=", ".join(inf.kinds)
        )
    if got.mixed_into is not None and got.mixed_into not in participants:
        raise RecordError("facts.mixed_into", "{name!r} is not a participant", name=got.mixed_into)
    if got.advisor_only and got.advisor is None:
        raise RecordError("facts.advisor_only", "name the advisor (facts.advisor)")
    return got


def check_codes(book: Rulebook, field: str, codes: Sequence[object]) -> tuple[str, ...]:
    for n, code in enumerate(codes):
        if not isinstance(code, str) or code not in book.components:
            raise RecordError(f"{field}[{n}]", "unknown penalty component {code!r}", code=code)
    return tuple(str(c) for c in codes)


def check_deviation(book: Rulebook, deviation: Deviation | None) -> None:
    if deviation is None:
        return
    check_codes(book, "deviation.penalties", deviation.penalties)
    if not deviation.reason.strip():
        raise RecordError("deviation.reason", "a deviation needs a written reason (D11)")


def subjects_of(
    inf: Infraction, record: Record, facts: Facts, participants: Container[str]
) -> tuple[list[str], bool]:
    """D8: who this record penalises, and whether a non-participant leaves the venue."""
    player = record.player
    if not inf.subjects:
        return [player], False
    if Subject.mixed_into in inf.subjects and facts.mixed_into is not None:
        if facts.mixed_into == player:
            raise RecordError("facts.mixed_into", "names the same player as the record")
        return [player, facts.mixed_into], False
    if Subject.recorded_by in inf.subjects and facts.recorded_by is not None:
        other = facts.recorded_by
        if other == player:  # D18
            raise RecordError("facts.recorded_by", "names the same player as the record")
        return ([player, other] if other in participants else [player]), False
    if Subject.advisor in inf.subjects and facts.advisor is not None:
        advisor = facts.advisor
        if advisor == player:
            raise RecordError("facts.advisor", "the advisor cannot be the player who received the advice")
        if advisor not in participants:
            return ([] if facts.advisor_only else [player]), True
        return ([advisor] if facts.advisor_only else [player, advisor]), False
    return [player], False


def check_deviation_changes(guideline: Sequence[str], current: Sequence[str], new: Sequence[str]) -> None:
    """D11, D16: a deviation departs from what the ruling gives
    (:func:`shinpan.engine.refusals.why_unchanged`); one that changes nothing is refused,
    saying which penalties it keeps."""
    why = why_unchanged(guideline, current, new)
    if why is DeviationRefused.guideline_own:
        raise RecordError(
            "deviation.penalties",
            "these are the guideline's own penalties: a deviation gives other penalties "
            "(to keep the guideline's, leave the ruling as it is)",
        )
    if why is DeviationRefused.unchanged:
        raise RecordError(
            "deviation.penalties", "the ruling has these penalties already: nothing would change"
        )
