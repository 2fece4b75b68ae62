"""A guideline indexed for looking things up: infractions by id, components by code."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from shinpan.guideline.model import Component, GeneralRule, Guideline, Infraction, Meaning, Remedy, Role, Step
from shinpan.guideline.terms import NO_ACT, Act, ComponentCode


@dataclass(frozen=True)
class Rulebook:
    """The guideline with its lookups built once."""

    guideline: Guideline
    infractions: dict[str, Infraction] = field(init=False)
    components: dict[str, Component] = field(init=False)
    effects: dict[str, Component] = field(init=False)
    general: dict[str, GeneralRule] = field(init=False)
    confirmed: frozenset[str] = field(init=False, repr=False)  # D11, the default threshold
    meaning: dict[str, Act] = field(init=False, repr=False)  # code → what it does (Meaning)
    code_for: dict[Meaning, ComponentCode] = field(init=False, repr=False)  # what it does → code
    # What users of the rulebook derive once per infraction or step (e.g. the engine's plans).
    memo: dict[object, object] = field(init=False, repr=False, compare=False, default_factory=dict)

    def __post_init__(self) -> None:
        g = self.guideline
        set_ = object.__setattr__
        set_(self, "infractions", {i.id: i for i in g.infractions})
        set_(self, "components", {c.code: c for c in g.components})
        set_(self, "effects", {e.code: e for e in g.effects})
        set_(self, "general", {r.kind: r for r in g.general_rules})
        set_(self, "confirmed", self._at_or_above(g.confirmation_threshold))
        declared = [c for c in (*g.components, *g.effects) if c.acts_as is not None]
        set_(self, "meaning", {c.code: Act(c.acts_as.value) for c in declared if c.acts_as})
        set_(self, "code_for", {c.acts_as: ComponentCode(c.code) for c in declared if c.acts_as})

    @property
    def uncategorized(self) -> GeneralRule:
        return self.general["uncategorized"]

    @property
    def unrelated_warnings(self) -> GeneralRule:
        return self.general["unrelated_warnings"]

    def deadline_clock(self, rule: str, when: str, remedy_ja: str) -> str:
        """What a deadline of ``rule`` (of kind ``when``, for the remedy worded ``remedy_ja``)
        is measured by, as the file declares it (:class:`~shinpan.guideline.model.Clock`'s
        value; "" for a kind that has none, or a rule the file does not have)."""
        key = ("deadline_clock", rule, when, remedy_ja)
        found = self.memo.get(key)
        if not isinstance(found, str):
            found = self.memo[key] = self._deadline_clock(rule, when, remedy_ja)
        return found

    def _deadline_clock(self, rule: str, when: str, remedy_ja: str) -> str:
        inf = self.infractions.get(rule)
        if inf is None:
            return ""
        remedies = [*inf.remedies, *(r for step in inf.ladder for r in step.remedies)]
        deadlines = [(r, r.deadline) for r in remedies if r.deadline is not None and r.deadline.when == when]
        chosen = next((d for r, d in deadlines if r.text.ja == remedy_ja), None)
        if chosen is None and deadlines:
            chosen = deadlines[0][1]
        clock = chosen.runs_on if chosen is not None else None
        return clock.value if clock is not None else ""

    @property
    def draft_exclusion(self) -> Infraction | None:
        """The infraction a draft exclusion triggers (D6), as the file declares it (``role``)."""
        return next((i for i in self.guideline.infractions if i.role is Role.draft_exclusion), None)

    def acts(self, codes: Iterable[str]) -> tuple[Act, ...]:
        """What each of these codes does to the event (a Meaning's value), in their order;
        "" for a code that does nothing the engine applies (a warning, no_mulligan…)."""
        return tuple(self.meaning.get(code, NO_ACT) for code in codes)

    def codes_acting_as(self, meaning: Meaning) -> frozenset[ComponentCode]:
        """The codes of the components and effects that do ``meaning`` (one, or none)."""
        return frozenset(
            ComponentCode(code) for code, acts in self.meaning.items() if acts == Act(meaning.value)
        )

    def rule_name(self, rule_id: str, lang: str = "ja") -> str:
        """The name people read: the display name where the source's name does not stand
        alone (マークドカード(規則性のないとき)), else the source's name."""
        key = ("rule_name", rule_id, lang)
        found = self.memo.get(key)
        if not isinstance(found, str):
            found = self.memo[key] = self._rule_name(rule_id, lang)
        return found

    def _rule_name(self, rule_id: str, lang: str) -> str:
        rule: Infraction | GeneralRule | None = self.infractions.get(rule_id)
        if rule is None:
            rule = next((r for r in self.guideline.general_rules if r.id == rule_id), None)
        if rule is None:
            return rule_id
        return (rule.display or rule.name).get(lang)

    def rule_ids(self) -> list[str]:
        return [r.id for r in self.guideline.general_rules] + list(self.infractions)

    def severity(self, code: str) -> int | None:
        c = self.components.get(code)
        return c.severity if c is not None else None

    def _at_or_above(self, threshold: str) -> frozenset[str]:
        limit = self.severity(threshold)
        if limit is None:
            return frozenset()
        return frozenset(c.code for c in self.guideline.components if (c.severity or 0) >= limit)

    def needs_head_judge(self, penalties: tuple[str, ...], threshold: str | None = None) -> bool:
        """D11: a ruling at or above the threshold (default warning1) waits for confirmation."""
        at_or_above = self._at_or_above(threshold) if threshold else self.confirmed
        return not at_or_above.isdisjoint(penalties)

    def step(self, infraction: Infraction, offense: int) -> Step:
        """D2: the step of this offence number; past the last step, the last one."""
        return infraction.ladder[min(offense, len(infraction.ladder)) - 1]

    def remedies(self, infraction: Infraction, step: Step) -> list[Remedy]:
        """The remedies of an offence: those of every offence, then the step's own."""
        return [*infraction.remedies, *step.remedies]

    def label(self, code: str, lang: str = "ja") -> str:
        """A component or effect as a judge reads it: abbreviation and full name."""
        key = ("label", code, lang)
        found = self.memo.get(key)
        if not isinstance(found, str):
            found = self.memo[key] = self._label(code, lang)
        return found

    def _label(self, code: str, lang: str) -> str:
        c = self.components.get(code) or self.effects.get(code)
        if c is None:
            return code
        name = c.name.get(lang)
        if lang == "ja" and c.abbr and c.abbr != name:
            return f"{c.abbr}({name})"
        return name
