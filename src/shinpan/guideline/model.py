"""The shape of a guideline file.

A guideline file is the penalty guideline of one Rules Enforcement Level as data: its
penalty components, categories, infractions with their ladders (1st, 2nd, 3rd offence),
remedies and deadlines, and the general rules. These pydantic models are its schema;
``shinpan guideline schema`` prints them as JSON Schema. Meaning beyond shape (codes that
exist, references that resolve) is checked in :mod:`shinpan.guideline.check`.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

Code = Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_]*$")]
RuleId = Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9-]*\.[a-z0-9][a-z0-9-]*$")]
NonEmpty = Annotated[str, StringConstraints(min_length=1)]
Kind = Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_-]*$")]


class Strict(BaseModel):
    """Every guideline model refuses unknown fields: a typo is an error, not a silence."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


class Text(Strict):
    """A text in Japanese and English."""

    ja: NonEmpty
    en: NonEmpty

    def get(self, lang: str) -> str:
        return self.en if lang == "en" else self.ja


class Source(Strict):
    """Where the guideline comes from."""

    file: NonEmpty
    heading: NonEmpty = Field(description="The source's first line, verbatim.")


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


class Component(Strict):
    """A penalty component (注, 警1, デ敗…) or an effect (match_draw, withdrawn…)."""

    code: Code
    abbr: str = Field("", description="The source's abbreviation, e.g. 警1; empty if none.")
    name: Text
    severity: int | None = Field(
        None,
        ge=1,
        description="Rank in the source's ascending order; null for components outside it.",
    )
    reported: bool = Field(True, description="Whether the official penalty report lists it.")
    discretionary: bool = Field(False, description="Left to the judge's call (D12).")
    acts_as: Meaning | None = Field(
        None,
        description="What it does to the event (a duel loss, an ejection…); null: nothing the engine applies.",
    )
    note: Text | None = None


class Abbreviation(Strict):
    """Any other abbreviation of the source's legend (次, 現, レ, ドラ…)."""

    abbr: NonEmpty
    name: Text


class Category(Strict):
    """A ● heading of the source."""

    id: Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9-]*$")]
    name: Text
    source: NonEmpty = Field(description="The heading as the source writes it.")


class When(StrEnum):
    """The moments a deadline can fall on."""

    minutes = "minutes"
    end_of_match = "end_of_match"
    end_of_round = "end_of_round"
    before_next_match = "before_next_match"


class Consequence(Strict):
    """What a missed deadline brings: a follow-up ruling on the same offence (D7)."""

    penalties: list[Code] = []
    effects: list[Code] = []


class Deadline(Strict):
    """A remedy's deadline. ``on_miss`` is the source's {…} or its 'if not done' clause."""

    when: When
    minutes: int | None = Field(None, ge=1, description="For when = minutes.")
    text: Text = Field(description="When it falls due and what missing it brings, as a judge says it.")
    on_miss: Consequence | None = None
    source: str | None = Field(None, description="The deadline's clause as the source writes it, if any.")


class Remedy(Strict):
    """What the judge carries out (→ in the source)."""

    text: Text = Field(description="The remedy as a judge says it at the table: whole sentences.")
    deadline: Deadline | None = None
    source: str | None = Field(None, description="The remedy as the source writes it (→…).")


class Step(Strict):
    """One rung of a ladder: the penalty for one offence number."""

    penalties: list[Code]
    effects: list[Code] = []
    remedies: list[Remedy] = []
    discretion: bool = Field(False, description="The source leaves this step to the judge (D12).")
    if_same_as_previous: list[Code] = Field(
        [], description="Added when the violation is the same kind as before (D5)."
    )
    source: NonEmpty = Field(description="This step as the source writes it, e.g. 2)警1+デ敗.")


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


class Infraction(Strict):
    """A ○ item of the source under its catalog id."""

    id: RuleId
    category: str
    name: Text = Field(description="Japanese exactly as the source writes it.")
    display: Text | None = Field(
        None,
        description="The name shown to people when the source's name does not stand alone, "
        "e.g. マークドカード(規則性のないとき) for 規則性のないとき.",
    )
    reading: str = Field("", description="The Japanese name in hiragana, for kana search.")
    notes: list[Text] = Field([], description="Qualifying notes: intent not certain, …")
    ladder: list[Step] = Field(description="1st, 2nd, 3rd… offence; the last repeats (D2).")
    all_offenses: bool = Field(False, description="One penalty for every offence (D2).")
    effects: list[Code] = Field([], description="Effects of every offence.")
    remedies: list[Remedy] = Field([], description="Remedies of every offence.")
    counting: Counting = Counting.event
    subjects: list[Subject] = Field([], description="Second participants it can name (D8).")
    questions: list[Question] = []
    kinds: list[Kind] = Field([], description="Kinds of a draft violation (D5).")
    intent_becomes: RuleId | None = Field(
        None, description="Recorded as this rule when intent is established (D13)."
    )
    no_offense_when: Question | None = Field(
        None, description="A fact that, when true, means no penalty and no offence (D13)."
    )
    source: NonEmpty = Field(description="The whole item as the source writes it.")


class GeneralRule(Strict):
    """A ● general rule: uncategorized violations (D4), unrelated warnings (D3)."""

    id: RuleId
    name: Text
    display: Text | None = Field(None, description="The name shown to people, if not the source's.")
    reading: str = ""
    kind: Literal["uncategorized", "unrelated_warnings"]
    penalties: list[Code] = []
    threshold: int | None = Field(None, ge=2, description="Distinct warnings that trigger it.")
    counted_component: Code | None = None
    source: NonEmpty


class Guideline(Strict):
    """A whole guideline file."""

    schema_version: Literal[1] = 1
    id: Annotated[str, StringConstraints(pattern=r"^[a-z0-9][a-z0-9-]*$")]
    version: NonEmpty
    title: Text
    rel: int = Field(ge=1, le=3, description="Rules Enforcement Level.")
    min_head_judge_level: int = Field(ge=1, description="Head judge certification (D15).")
    language: Literal["ja", "en"]
    source: Source
    confirmation_threshold: Code = Field(
        description="The lightest component that waits for the head judge (D11)."
    )
    components: list[Component]
    effects: list[Component]
    abbreviations: list[Abbreviation] = []
    categories: list[Category]
    general_rules: list[GeneralRule]
    infractions: list[Infraction]
