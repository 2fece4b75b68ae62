"""What a guideline file means, checked after its shape.

Each check is a plain function from a :class:`Guideline` to the problems it finds; they are
listed in :data:`CHECKS` and all run, so a file's author sees every problem at once.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator

from shinpan.guideline.model import (
    CLOCKS,
    REQUIRED_MEANINGS,
    Guideline,
    Meaning,
    Question,
    Remedy,
    Role,
    Subject,
)
from shinpan.guideline.problems import Problem

Finding = tuple[str, str]  # (field path, message)
Check = Callable[[Guideline], Iterator[Finding]]


def _duplicates(values: list[str]) -> set[str]:
    return {v for v, n in Counter(values).items() if n > 1}


def unique_ids(g: Guideline) -> Iterator[Finding]:
    for kind, places in (
        ("component code", [(f"components[{n}].code", c.code) for n, c in enumerate(g.components)]),
        ("effect code", [(f"effects[{n}].code", e.code) for n, e in enumerate(g.effects)]),
        ("category id", [(f"categories[{n}].id", c.id) for n, c in enumerate(g.categories)]),
        (
            "rule id",
            [(f"general_rules[{n}].id", r.id) for n, r in enumerate(g.general_rules)]
            + [(f"infractions[{n}].id", i.id) for n, i in enumerate(g.infractions)],
        ),
    ):
        first: dict[str, str] = {}
        for path, value in places:
            if value in first:
                yield path, f"duplicate {kind} {value!r} (first at {first[value]})"
            else:
                first[value] = path
    shared = {c.code for c in g.components} & {e.code for e in g.effects}
    for code in sorted(shared):
        yield "effects", f"{code!r} is both a penalty component and an effect"


def severity_order(g: Guideline) -> Iterator[Finding]:
    ranks = [c.severity for c in g.components if c.severity is not None]
    for dup in sorted(_duplicates([str(r) for r in ranks])):
        yield "components", f"two components share severity {dup}"
    codes = {c.code: c for c in g.components}
    threshold = codes.get(g.confirmation_threshold)
    if threshold is None:
        yield "confirmation_threshold", f"unknown component code {g.confirmation_threshold!r}"
    elif threshold.severity is None:
        yield "confirmation_threshold", f"{threshold.code!r} has no severity to compare with"


def known_codes(g: Guideline) -> Iterator[Finding]:
    components = {c.code for c in g.components}
    effects = {e.code for e in g.effects}

    def penalties(path: str, codes: list[str]) -> Iterator[Finding]:
        for n, code in enumerate(codes):
            if code not in components:
                yield f"{path}[{n}]", f"unknown penalty component {code!r}"

    def effect_codes(path: str, codes: list[str]) -> Iterator[Finding]:
        for n, code in enumerate(codes):
            if code not in effects:
                yield f"{path}[{n}]", f"unknown effect {code!r}"

    def remedies(path: str, items: list[Remedy]) -> Iterator[Finding]:
        for n, remedy in enumerate(items):
            if remedy.deadline and remedy.deadline.on_miss:
                miss = remedy.deadline.on_miss
                at = f"{path}[{n}].deadline.on_miss"
                yield from penalties(f"{at}.penalties", miss.penalties)
                yield from effect_codes(f"{at}.effects", miss.effects)

    for n, rule in enumerate(g.general_rules):
        yield from penalties(f"general_rules[{n}].penalties", rule.penalties)
        if rule.counted_component and rule.counted_component not in components:
            yield (
                f"general_rules[{n}].counted_component",
                (f"unknown penalty component {rule.counted_component!r}"),
            )
        if rule.kind == "unrelated_warnings" and not rule.counted_component:
            yield (
                f"general_rules[{n}].counted_component",
                "the additional penalty for unrelated warnings (D3) must name the component it counts",
            )
    for n, inf in enumerate(g.infractions):
        at = f"infractions[{n}]"
        yield from effect_codes(f"{at}.effects", inf.effects)
        yield from remedies(f"{at}.remedies", inf.remedies)
        for s, step in enumerate(inf.ladder):
            yield from penalties(f"{at}.ladder[{s}].penalties", step.penalties)
            yield from penalties(f"{at}.ladder[{s}].if_same_as_previous", step.if_same_as_previous)
            yield from effect_codes(f"{at}.ladder[{s}].effects", step.effects)
            yield from remedies(f"{at}.ladder[{s}].remedies", step.remedies)


def references(g: Guideline) -> Iterator[Finding]:
    categories = {c.id for c in g.categories}
    rules = {i.id for i in g.infractions}
    for n, inf in enumerate(g.infractions):
        at = f"infractions[{n}]"
        if inf.category not in categories:
            yield f"{at}.category", f"unknown category {inf.category!r}"
        elif not inf.id.startswith(inf.category + "."):
            yield f"{at}.id", f"id {inf.id!r} should start with its category {inf.category!r}"
        if inf.intent_becomes is not None and inf.intent_becomes not in rules:
            yield f"{at}.intent_becomes", f"no infraction {inf.intent_becomes!r}"
        if inf.intent_becomes == inf.id:
            yield f"{at}.intent_becomes", "an infraction cannot become itself"
    kinds = {r.kind for r in g.general_rules}
    for needed in ("uncategorized", "unrelated_warnings"):
        if needed not in kinds:
            yield "general_rules", f"no general rule of kind {needed!r}"
    exclusion = [c.code for c in g.components if c.acts_as is Meaning.draft_exclusion]
    declared = [n for n, inf in enumerate(g.infractions) if inf.role is Role.draft_exclusion]
    if exclusion and not declared:
        yield (
            "infractions",
            f"{exclusion[0]!r} acts as draft_exclusion: one infraction must declare role draft_exclusion (D6)",
        )
    for n in declared[1:]:
        yield f"infractions[{n}].role", "another infraction already declares role draft_exclusion (D6)"


def meanings(g: Guideline) -> Iterator[Finding]:
    """What the engine applies is declared, once: a duel loss, a match loss, an ejection…"""
    declared: dict[Meaning, str] = {}
    seen: set[str] = set()
    for place, items in (("components", g.components), ("effects", g.effects)):
        for n, c in enumerate(items):
            if c.acts_as is None or c.code in seen:  # a duplicate code is reported by unique_ids
                continue
            seen.add(c.code)
            if c.acts_as in declared:
                yield (
                    f"{place}[{n}].acts_as",
                    f"{c.acts_as.value!r} is already what {declared[c.acts_as]!r} does",
                )
            declared.setdefault(c.acts_as, c.code)
    for needed in REQUIRED_MEANINGS:
        if needed not in declared:
            yield "components", f"no component or effect acts as {needed.value!r}"


def ladders(g: Guideline) -> Iterator[Finding]:
    for n, inf in enumerate(g.infractions):
        at = f"infractions[{n}]"
        if not inf.ladder:
            yield f"{at}.ladder", "empty ladder: give at least the 1st offence"
        if inf.all_offenses and len(inf.ladder) > 1:
            yield f"{at}.ladder", "all_offenses takes exactly one step"
        for s, step in enumerate(inf.ladder):
            if step.if_same_as_previous and Question.kind not in inf.questions:
                yield f"{at}.ladder[{s}].if_same_as_previous", "needs the question 'kind'"


def deadlines(g: Guideline) -> Iterator[Finding]:
    for n, inf in enumerate(g.infractions):
        places = [(f"infractions[{n}].remedies", inf.remedies)]
        places += [(f"infractions[{n}].ladder[{s}].remedies", st.remedies) for s, st in enumerate(inf.ladder)]
        for path, items in places:
            for r, remedy in enumerate(items):
                d = remedy.deadline
                if d is None:
                    continue
                if (d.when.value == "minutes") != (d.minutes is not None):
                    yield f"{path}[{r}].deadline.minutes", "give minutes exactly when 'when' is minutes"
                if d.clock is not None and d.clock not in CLOCKS[d.when]:
                    allowed = ", ".join(c.value for c in CLOCKS[d.when]) or "none"
                    yield (
                        f"{path}[{r}].deadline.clock",
                        f"a deadline of when {d.when.value} runs on {allowed}, not {d.clock.value}",
                    )


def questions(g: Guideline) -> Iterator[Finding]:
    for n, inf in enumerate(g.infractions):
        at = f"infractions[{n}]"
        asked = set(inf.questions)
        for subject in inf.subjects:
            if Question(subject.value) not in asked:
                yield f"{at}.questions", f"subject {subject.value!r} needs its question"
        if inf.intent_becomes and Question.intentional not in asked:
            yield f"{at}.questions", "intent_becomes needs the question 'intentional'"
        if inf.no_offense_when and inf.no_offense_when not in asked:
            yield f"{at}.questions", f"no_offense_when needs the question {inf.no_offense_when.value!r}"
        if Question.kind in asked and not inf.kinds:
            yield f"{at}.kinds", "the question 'kind' needs a list of kinds"
        if Question.advisor_only in asked and Subject.advisor not in inf.subjects:
            yield f"{at}.questions", "advisor_only needs the subject 'advisor'"


CHECKS: tuple[Check, ...] = (
    unique_ids,
    severity_order,
    known_codes,
    references,
    meanings,
    ladders,
    deadlines,
    questions,
)


def check_meaning(g: Guideline, file: str) -> list[Problem]:
    """Run every check; return all problems found (empty when the file is sound)."""
    return [Problem(file, path, msg) for check in CHECKS for path, msg in check(g)]
