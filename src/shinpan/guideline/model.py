"""The shape of a guideline file.

A guideline file is the penalty guideline of one Rules Enforcement Level as data: its
penalty components, categories, infractions with their ladders (1st, 2nd, 3rd offence),
remedies and deadlines, and the general rules. These classes are its schema;
``shinpan guideline schema`` prints them as JSON Schema. Meaning beyond shape (codes that
exist, references that resolve) is checked in :mod:`shinpan.guideline.check`.

They are plain frozen dataclasses: a command that reads the checked guideline (from the
cache, see :mod:`shinpan.files.guidelines`) never loads pydantic, which costs
more than the rest of ``shinpan replay``'s imports together. Their annotations name pydantic's
constraints (``Code``, ``Field(ge=1, description=…)``); :mod:`shinpan.guideline.schema`
has those names in scope and validates a file into these classes with them.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Annotated, Any, Literal, TypeVar, dataclass_transform

from shinpan.guideline.terms import Clock as Clock  # re-exported: the file declares them
from shinpan.guideline.terms import When as When

if TYPE_CHECKING:
    from pydantic import Field, StringConstraints

    from shinpan.guideline.schema import Code, Kind, NonEmpty, RuleId

T = TypeVar("T")
FORBID_EXTRA = {"extra": "forbid"}  # pydantic's config: every field is known


@dataclass_transform(frozen_default=True, kw_only_default=True)
def shape(cls: type[T]) -> type[T]:
    """A part of a guideline file: immutable, its fields by name, unknown fields refused
    (a typo is an error, not a silence)."""
    cls.__pydantic_config__ = FORBID_EXTRA  # type: ignore[attr-defined]
    return dataclass(frozen=True, slots=True, kw_only=True)(cls)


def empty() -> Any:
    """The default of a list field: an empty list of its own."""
    return field(default_factory=list)


def as_data(part: object) -> dict[str, Any]:
    """A part of a guideline as the file writes it (JSON's types: a StrEnum is a str)."""
    data: dict[str, Any] = asdict(part)  # type: ignore[call-overload]  # (a dataclass: any part)
    return data


@shape
class Text:
    """A text in Japanese and English."""

    ja: NonEmpty
    en: NonEmpty

    def get(self, lang: str) -> str:
        return self.en if lang == "en" else self.ja


@shape
class Source:
    """Where the guideline comes from."""

    file: NonEmpty
    heading: Annotated[NonEmpty, Field(description="The source's first line, verbatim.")]


class Meaning(StrEnum):
    """What a component or an effect does to the event, whatever the file calls it: the
    engine acts on these, never on a component's code."""

    duel_loss = "duel_loss"  # the opponent wins a duel (D10)
    match_loss = "match_loss"  # the opponent wins the match (D10)
    match_draw = "match_draw"  # the match is a draw
    time_extension = "time_extension"  # the match may be given more time (D12)
    ejection = "ejection"  # out for the rest of the event, once confirmed (D14, D17)
    disqualification = "disqualification"  # out, prizes forfeited, once confirmed (D14, D17)
    withdrawn = "withdrawn"  # treated as dropping from the tournament (D9, D14, D22)
    draft_exclusion = "draft_exclusion"  # triggers the draft exclusion infraction (D6)
    venue_removal = "venue_removal"  # a non-participant advisor leaves the venue (D8)


# What every guideline must say which of its components or effects does.
REQUIRED_MEANINGS = (
    Meaning.duel_loss,
    Meaning.match_loss,
    Meaning.ejection,
    Meaning.disqualification,
    Meaning.withdrawn,
)


@shape
class Component:
    """A penalty component (注, 警1, デ敗…) or an effect (match_draw, withdrawn…)."""

    code: Code
    abbr: Annotated[str, Field(description="The source's abbreviation, e.g. 警1; empty if none.")] = ""
    name: Text
    severity: Annotated[
        int | None,
        Field(ge=1, description="Rank in the source's ascending order; null for components outside it."),
    ] = None
    reported: Annotated[bool, Field(description="Whether the official penalty report lists it.")] = True
    discretionary: Annotated[bool, Field(description="Left to the judge's call (D12).")] = False
    acts_as: Annotated[
        Meaning | None,
        Field(
            description="What it does to the event (a duel loss, an ejection…); null: nothing the engine applies."
        ),
    ] = None
    note: Text | None = None


@shape
class Abbreviation:
    """Any other abbreviation of the source's legend (次, 現, レ, ドラ…)."""

    abbr: NonEmpty
    name: Text


@shape
class Category:
    """A ● heading of the source."""

    id: Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9-]*$")]
    name: Text
    source: Annotated[NonEmpty, Field(description="The heading as the source writes it.")]


# The clocks each kind of deadline may declare; the first is what it runs on when it declares none.
CLOCKS: dict[When, tuple[Clock, ...]] = {
    When.minutes: (Clock.given, Clock.round_start),
    When.end_of_match: (Clock.match_result, Clock.table_time),
    When.end_of_round: (),
    When.before_next_match: (),
}


@shape
class Consequence:
    """What a missed deadline brings: a follow-up ruling on the same offence (D7)."""

    penalties: list[Code] = empty()
    effects: list[Code] = empty()


@shape
class Deadline:
    """A remedy's deadline. ``on_miss`` is the source's {…} or its 'if not done' clause."""

    when: When
    minutes: Annotated[int | None, Field(ge=1, description="For when = minutes.")] = None
    text: Annotated[
        Text, Field(description="When it falls due and what missing it brings, as a judge says it.")
    ]
    on_miss: Consequence | None = None
    source: Annotated[
        str | None, Field(description="The deadline's clause as the source writes it, if any.")
    ] = None
    clock: Annotated[
        Clock | None,
        Field(
            description="What its moment is measured by: for minutes, from the ruling's time at the "
            "table (given, the default) or from the start of the player's round (round_start, D21); "
            "for end_of_match, when the match's result is in (match_result, the default) or when the "
            "table's time ends (table_time, D23)."
        ),
    ] = None

    @property
    def runs_on(self) -> Clock | None:
        """The clock it runs on: the one it declares, else its kind's default (None: its kind has none)."""
        if self.clock is not None:
            return self.clock
        allowed = CLOCKS[self.when]
        return allowed[0] if allowed else None


@shape
class Remedy:
    """What the judge carries out (→ in the source)."""

    text: Annotated[Text, Field(description="The remedy as a judge says it at the table: whole sentences.")]
    deadline: Deadline | None = None
    source: Annotated[str | None, Field(description="The remedy as the source writes it (→…).")] = None


@shape
class Step:
    """One rung of a ladder: the penalty for one offence number."""

    penalties: list[Code]
    effects: list[Code] = empty()
    remedies: list[Remedy] = empty()
    discretion: Annotated[bool, Field(description="The source leaves this step to the judge (D12).")] = False
    if_same_as_previous: Annotated[
        list[Code], Field(description="Added when the violation is the same kind as before (D5).")
    ] = empty()
    source: Annotated[NonEmpty, Field(description="This step as the source writes it, e.g. 2)警1+デ敗.")]


class Role(StrEnum):
    """What the engine does with an infraction besides its ladder, declared by the file (never
    read from its id)."""

    draft_exclusion = "draft_exclusion"  # the ruling a draft_exclusion component triggers (D6)


class Counting(StrEnum):
    """How offences of an infraction are counted (D1, D4, D5)."""

    event = "event"
    draft = "draft"
    none = "none"


class Subject(StrEnum):
    """Who besides the recorded player an infraction can name (D8)."""

    mixed_into = "mixed_into"
    recorded_by = "recorded_by"
    advisor = "advisor"


class Question(StrEnum):
    """The facts a judge may be asked when recording (the replay contract's facts)."""

    kind = "kind"
    same_as_previous = "same_as_previous"
    mixed_into = "mixed_into"
    recorded_by = "recorded_by"
    advisor = "advisor"
    advisor_only = "advisor_only"
    intentional = "intentional"
    facts_determined = "facts_determined"


@shape
class Infraction:
    """A ○ item of the source under its catalog id."""

    id: RuleId
    category: str
    name: Annotated[Text, Field(description="Japanese exactly as the source writes it.")]
    display: Annotated[
        Text | None,
        Field(
            description="The name shown to people when the source's name does not stand alone, "
            "e.g. マークドカード(規則性のないとき) for 規則性のないとき."
        ),
    ] = None
    reading: Annotated[str, Field(description="The Japanese name in hiragana, for kana search.")] = ""
    notes: Annotated[list[Text], Field(description="Qualifying notes: intent not certain, …")] = empty()
    ladder: Annotated[list[Step], Field(description="1st, 2nd, 3rd… offence; the last repeats (D2).")]
    all_offenses: Annotated[bool, Field(description="One penalty for every offence (D2).")] = False
    effects: Annotated[list[Code], Field(description="Effects of every offence.")] = empty()
    remedies: Annotated[list[Remedy], Field(description="Remedies of every offence.")] = empty()
    counting: Counting = Counting.event
    subjects: Annotated[list[Subject], Field(description="Second participants it can name (D8).")] = empty()
    questions: list[Question] = empty()
    kinds: Annotated[list[Kind], Field(description="Kinds of a draft violation (D5).")] = empty()
    intent_becomes: Annotated[
        RuleId | None, Field(description="Recorded as this rule when intent is established (D13).")
    ] = None
    no_offense_when: Annotated[
        Question | None, Field(description="A fact that, when true, means no penalty and no offence (D13).")
    ] = None
    role: Annotated[
        Role | None,
        Field(
            description="What the engine does with it besides its ladder: draft_exclusion, the ruling "
            "every component acting as draft_exclusion triggers (D6); null: nothing more."
        ),
    ] = None
    source: Annotated[NonEmpty, Field(description="The whole item as the source writes it.")]


@shape
class GeneralRule:
    """A ● general rule: uncategorized violations (D4), unrelated warnings (D3)."""

    id: RuleId
    name: Text
    display: Annotated[Text | None, Field(description="The name shown to people, if not the source's.")] = (
        None
    )
    reading: str = ""
    kind: Literal["uncategorized", "unrelated_warnings"]
    penalties: list[Code] = empty()
    threshold: Annotated[int | None, Field(ge=2, description="Distinct warnings that trigger it.")] = None
    counted_component: Code | None = None
    source: NonEmpty


@shape
class Guideline:
    """A whole guideline file."""

    schema_version: Literal[1] = 1
    id: Annotated[str, StringConstraints(pattern=r"^[a-z0-9][a-z0-9-]*$")]
    version: NonEmpty
    title: Text
    rel: Annotated[int, Field(ge=1, le=3, description="Rules Enforcement Level.")]
    min_head_judge_level: Annotated[int, Field(ge=1, description="Head judge certification (D15).")]
    language: Literal["ja", "en"]
    source: Source
    confirmation_threshold: Annotated[
        Code, Field(description="The lightest component that waits for the head judge (D11).")
    ]
    components: list[Component]
    effects: list[Component]
    abbreviations: list[Abbreviation] = empty()
    categories: list[Category]
    general_rules: list[GeneralRule]
    infractions: list[Infraction]
