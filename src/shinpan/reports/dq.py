"""The disqualification report: one section per disqualification, ready to send (D14).

For each ruling that needs an investigation (:func:`is_disqualification`: what its
penalties, or the guideline's penalties for it, do holds a disqualification; a voided ruling
is none): the ledger entries that concern it in order, the statements of the people
involved, any appeals, the player's rulings in the event, and the head judge's decision.
The head judge's desk lists the same rulings (:func:`disqualifications`).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from datetime import datetime
from typing import Any, ClassVar

from shinpan.engine.event_rules import RulingState, needs_investigation, status_once_confirmed
from shinpan.engine.explain import penalty_text
from shinpan.entries import (
    AppealDecided,
    AppealFiled,
    DeadlineDone,
    DuelResult,
    LossCarried,
    LossSettled,
    MatchExtended,
    MatchResult,
    ResultReported,
    RulingDeviated,
    RulingsConfirmed,
    RulingsRecorded,
    RulingsVoided,
    StatementTaken,
    StatusChanged,
)
from shinpan.errors import NotFound
from shinpan.guideline import Rulebook
from shinpan.guideline.model import Meaning
from shinpan.ledger_head import LedgerHead
from shinpan.reports.common import (
    OUTCOMES,
    STATUS_WORDS,
    EventHeader,
    EventReport,
    Person,
    event_header,
    people,
)
from shinpan.reports.rulings import ReportedRuling, read_rulings
from shinpan.services.context import stamp
from shinpan.services.heads import read_heads
from shinpan.store import reports as store
from shinpan.store.connection import Connection
from shinpan.store.db import Database
from shinpan.store.ledger import Entry, read_entries

ROLES = {"player": ("選手", "player"), "opponent": ("対戦相手", "opponent"),
         "witness": ("目撃者", "witness"), "judge": ("ジャッジ", "judge")}  # fmt: skip
STATUS = STATUS_WORDS


@dataclass(frozen=True)
class TimelineEntry:
    seq: int
    kind: str
    actor: str
    at: str
    summary_ja: str
    summary_en: str

    def summary(self, lang: str) -> str:
        return self.summary_en if lang == "en" else self.summary_ja


@dataclass(frozen=True)
class Statement:
    seq: int
    at: str
    recorded_by: str
    author: str
    role: str
    text: str

    def role_label(self, lang: str) -> str:
        ja, en = ROLES.get(self.role, (self.role, self.role))
        return en if lang == "en" else ja


@dataclass(frozen=True)
class Appeal:
    seq: int
    at: str
    by: str
    reason: str
    outcome: str | None = None
    decision_reason: str = ""
    decided_by: str = ""
    decided_at: str = ""


@dataclass(frozen=True)
class Decision:
    """The head judge's word on the disqualification, as it stands."""

    outcome: str  # pending | confirmed | deviated | voided | upheld | overturned | changed
    judge: str
    at: str
    reason: str
    summary_ja: str
    summary_en: str

    def summary(self, lang: str) -> str:
        return self.summary_en if lang == "en" else self.summary_ja


@dataclass(frozen=True)
class Disqualification:
    ruling: ReportedRuling
    note: str  # what the recording judge wrote
    opponent: Person | None
    player_status: str
    decision: Decision
    timeline: tuple[TimelineEntry, ...]
    statements: tuple[Statement, ...]
    appeals: tuple[Appeal, ...]
    player_rulings: tuple[ReportedRuling, ...]

    def as_json(self) -> dict[str, Any]:
        out = asdict(self)
        out["ruling"] = self.ruling.as_json()
        out["player_rulings"] = [r.as_json() for r in self.player_rulings]
        return out


@dataclass(frozen=True)
class DisqualificationReport(EventReport):
    kind: ClassVar[str] = "dq"
    stem: ClassVar[str] = "dq"
    event: EventHeader
    cases: tuple[Disqualification, ...]
    generated_at: str
    only: int | None = None
    heads: tuple[LedgerHead, ...] = ()  # the ledger's head as it was (shinpan.services.heads)

    @property
    def file_tail(self) -> str:
        return f"-ruling-{self.only}" if self.only is not None else ""

    def as_json(self) -> dict[str, Any]:
        return {
            "report": self.kind,
            "event": self.event.as_json(),
            "generated_at": self.generated_at,
            "disqualifications": [c.as_json() for c in self.cases],
        }

    def csv_table(self) -> None:
        return None


def is_disqualification(
    book: Rulebook, penalties: tuple[str, ...], given: tuple[str, ...], *, voided: bool
) -> bool:
    """D14: whether a ruling needs a disqualification report, asked of what its codes do in
    the event's guideline (a file may call its disqualification anything); a voided ruling
    never does. The report, the desk and nothing else ask it, here."""
    return needs_investigation(book.acts(penalties), book.acts(given), voided=voided)


@dataclass(frozen=True)
class Investigation:
    """A ruling on the head judge's desk that needs a disqualification report."""

    number: int
    player: str
    player_name: str
    rule: str
    penalties: tuple[str, ...]
    state: RulingState
    awaiting_status: str | None  # D17: "disqualified" or "ejected" once the head judge confirms


def disqualifications(db: Database, event_id: int) -> list[Investigation]:
    """The rulings that need a disqualification report (waiting for the head judge too, D17),
    newest first, for the desk, where the statements are taken."""
    with db.read() as conn:
        book = event_header(conn, event_id).book
        code = book.code_for.get(Meaning.disqualification)
        found = [
            r
            for r in (store.rulings_naming(conn, event_id, code) if code else [])
            if is_disqualification(
                book, r.penalties, r.guideline_penalties, voided=r.state == RulingState.voided
            )
        ]
        names = people(conn, event_id, {r.player for r in found}) if found else {}
    return [
        Investigation(
            r.number,
            r.player,
            names[r.player].name if r.player in names else "",
            r.rule,
            r.penalties,
            r.state,
            _awaiting(book, (*r.penalties, *r.effects), r.state),
        )
        for r in found
    ]


def _awaiting(book: Rulebook, codes: tuple[str, ...], state: RulingState) -> str | None:
    """D17: the status a ruling waiting for the head judge gives once confirmed."""
    status = status_once_confirmed(book.acts(codes), state)
    return None if status is None else status.value


def dq_report(
    db: Database, event_id: int, ruling: int | None = None, *, now: datetime | None = None
) -> DisqualificationReport:
    """Every disqualification of the event (or the one ruling), with its investigation."""
    with db.read() as conn:
        event = event_header(conn, event_id)
        everything = read_rulings(conn, event)
        book = event.book
        cases = [
            r
            for r in everything
            if ruling in (None, r.number)
            and is_disqualification(book, r.penalties, r.guideline_penalties, voided=r.voided)
        ]
        if ruling is not None and not cases:
            if any(r.number == ruling for r in everything):
                raise NotFound(
                    "ruling {number} of event {event} is not a disqualification",
                    number=ruling,
                    event=event_id,
                )
            raise NotFound("no ruling {number} in event {event}", number=ruling, event=event_id)
        names = people(conn, event.id) if cases else {}
        ledger = list(read_entries(conn, event.id)) if cases else []
        made = tuple(_case(conn, event, r, everything, names, ledger) for r in cases)
        heads = read_heads(conn, [event_id])
    return DisqualificationReport(event, made, stamp(now), ruling, heads)


def _case(
    conn: Connection,
    event: EventHeader,
    r: ReportedRuling,
    everything: list[ReportedRuling],
    names: dict[str, Person],
    ledger: list[Entry],
) -> Disqualification:
    book = event.book
    trail = concerning(ledger, r.number, r.entry)
    recorded = next((e for e in trail if e.seq == r.entry), None)
    said = [
        Statement(e.seq, e.recorded_at, e.actor, b.author, b.author_role, b.text)
        for e in trail
        if isinstance(b := e.body, StatementTaken)
    ]
    order = list(ROLES)
    said.sort(key=lambda s: (order.index(s.role) if s.role in order else len(order), s.seq))
    person = names.get(r.player)
    appeals = _appeals(trail)
    return Disqualification(
        ruling=r,
        note=_note(recorded),
        opponent=_opponent(conn, event.id, r, names),
        player_status=person.status if person else "",
        decision=decision(r, appeals),
        timeline=tuple(_timeline_entry(book, e, r.number, names) for e in trail),
        statements=tuple(said),
        appeals=appeals,
        player_rulings=tuple(x for x in everything if x.player == r.player),
    )


def _note(recorded: Entry | None) -> str:
    """The judge's note on the record the ruling came from."""
    b = recorded.body if recorded else None
    return b.record.note if isinstance(b, RulingsRecorded) and b.record else ""


def _named_rulings(e: Entry) -> set[int]:
    """The rulings an entry's body names."""
    match e.body:
        case RulingsRecorded() as b:
            of = {b.follow_up_of.ruling} if b.follow_up_of else set()
            return {r.number for r in b.rulings} | of
        case RulingsConfirmed(rulings=numbers) | RulingsVoided(rulings=numbers):
            return set(numbers)
        case (
            RulingDeviated(ruling=n)
            | DeadlineDone(ruling=n)
            | AppealFiled(ruling=n)
            | AppealDecided(ruling=n)
            | LossCarried(ruling=n)
            | LossSettled(ruling=n)
        ):
            return {n}
        case StatementTaken(ruling=n) | StatusChanged(cause_ruling=n) | DuelResult(cause_ruling=n):
            return {n} if n is not None else set()
        case MatchResult(cause_ruling=n) | MatchExtended(cause_ruling=n):
            return {n} if n is not None else set()
    return set()


def concerning(ledger: list[Entry], number: int, seq: int) -> list[Entry]:
    """The entries about one ruling: those whose body names it, and those whose refs point at
    an entry about it (the effects of its recording, of its void, of an appeal's decision)."""
    found: list[Entry] = []
    seqs: set[int] = set()
    for e in ledger:
        if e.seq < seq:
            continue
        named = _named_rulings(e)
        if (number in named) if named else any(ref in seqs for ref in e.refs):
            found.append(e)
            seqs.add(e.seq)
    return found


def _appeals(trail: list[Entry]) -> tuple[Appeal, ...]:
    filed = [(e, b) for e in trail if isinstance(b := e.body, AppealFiled)]
    decided = {b.appeal: (e, b) for e in trail if isinstance(b := e.body, AppealDecided)}
    out = []
    for e, b in filed:
        d, o = decided.get(e.seq, (None, None))
        out.append(
            Appeal(
                e.seq,
                e.recorded_at,
                b.by,
                b.reason,
                o.outcome if o else None,
                o.reason if o else "",
                d.actor if d else "",
                d.recorded_at if d else "",
            )
        )
    return tuple(out)


def decision(r: ReportedRuling, appeals: tuple[Appeal, ...]) -> Decision:
    """The last word: an appeal's decision, else a void, a deviation, a confirmation, or none yet."""
    final = [a for a in appeals if a.outcome]
    if final:
        a = final[-1]
        ja, en = OUTCOMES.get(a.outcome or "", (a.outcome or "", a.outcome or ""))
        return Decision(a.outcome or "", a.decided_by, a.decided_at, a.decision_reason, ja, en)
    if r.void is not None:
        return Decision(
            "voided", r.void.judge, r.void.at, r.void.reason, "裁定を取消", "the ruling was voided"
        )
    later = [d for d in r.deviations if d.at != r.recorded_at]
    if later:
        d = later[-1]
        return Decision(
            "deviated",
            d.judge,
            d.at,
            d.reason,
            f"罰則を{d.penalties_ja}に変更",
            f"the penalty was changed to {d.penalties_en}",
        )
    if r.confirmation is not None:
        c = r.confirmation
        return Decision(
            "confirmed",
            c.judge,
            c.at,
            "",
            "ヘッドジャッジが失格を確認",
            "the head judge confirmed the disqualification",
        )
    return Decision("pending", "", "", "", "ヘッドジャッジの確認待ち", "waiting for the head judge")


def _opponent(conn: Connection, event_id: int, r: ReportedRuling, names: dict[str, Person]) -> Person | None:
    if r.round is None or r.table is None:
        return None
    other = store.opponent_of(conn, event_id, r.player, r.round, r.table)
    return names.get(other) if other else None


def _who(names: dict[str, Person], number: object) -> str:
    person = names.get(str(number))
    return f"{number} {person.name}" if person else str(number)


def _timeline_entry(book: Rulebook, e: Entry, number: int, names: dict[str, Person]) -> TimelineEntry:
    ja, en = describe(book, e, number, names)
    return TimelineEntry(e.seq, e.kind, e.actor, e.recorded_at, ja, en)


def describe(book: Rulebook, e: Entry, number: int, names: dict[str, Person]) -> tuple[str, str]:
    """One line on what an entry did, in Japanese and English."""
    match e.body:
        case RulingsRecorded(rulings=made_now):
            made = next((m for m in made_now if m.number == number), made_now[0])
            who, rule = _who(names, made.player), made.rule
            return (
                f"裁定 {made.number}を記録: {who}、{book.rule_name(rule, 'ja')}",
                f"ruling #{made.number} recorded: {who}, {book.rule_name(rule, 'en')}",
            )
        case RulingsConfirmed():
            return "ヘッドジャッジが確認", "confirmed by the head judge"
        case RulingDeviated(penalties=new, reason=reason):
            return (
                f"逸脱: {penalty_text(book, new, 'ja')}、理由「{reason}」",
                f"deviation: {penalty_text(book, new, 'en')}; reason: {reason}",
            )
        case RulingsVoided(reason=reason):
            return f"取消、理由「{reason}」", f"voided; reason: {reason}"
        case StatementTaken(author=author, author_role=role):
            ja, en = ROLES.get(role, (role, role))
            return f"陳述({ja}): {author}", f"statement ({en}): {author}"
        case AppealFiled(by=by, reason=reason):
            return f"上訴: {by}、理由「{reason}」", f"appeal by {by}; reason: {reason}"
        case AppealDecided(outcome=outcome, reason=reason):
            ja, en = OUTCOMES.get(outcome, (outcome, outcome))
            return f"上訴の裁定: {ja}、理由「{reason}」", f"appeal decided: {en}; reason: {reason}"
        case StatusChanged(player=player, status=status):
            ja, en = STATUS.get(status, (status, status))
            who = _who(names, player)
            return f"{who}の状態: {ja}", f"{who} is now {en}"
        case ResultReported() as b:
            fix_ja, fix_en = ("(訂正)", " (corrected)") if b.corrects is not None else ("", "")
            ja, en = _SEATS.get(b.shown or "", (b.shown or "—", b.shown or "—"))
            return (
                f"第{b.round}ラウンド {b.table}番卓の結果{fix_ja}: {ja}",
                f"round {b.round}, table {b.table}, the result{fix_en}: {en}",
            )
        case MatchResult(round=round_no, table=table, result=result):
            ja, en = _SEATS.get(result or "", ("—", "—"))
            return (
                f"第{round_no}ラウンド {table}番卓のマッチ: {ja}",
                f"round {round_no}, table {table}, the match: {en}",
            )
        case DuelResult(round=round_no, table=table, duel=duel, winner=winner):
            ja, en = (
                (f"{_who(names, winner)}の勝ち", f"won by {_who(names, winner)}")
                if winner
                else ("引き分け", "drawn")
            )
            return (
                f"第{round_no}ラウンド {table}番卓 第{duel}デュエル: {ja}",
                f"round {round_no}, table {table}, duel {duel}: {en}",
            )
    return _PLAIN.get(e.kind, ("台帳の記録", e.kind))


_SEATS = {"a": ("Aのプレイヤーの勝ち", "won by player A"), "b": ("Bのプレイヤーの勝ち", "won by player B"),
          "draw": ("引き分け", "drawn")}  # fmt: skip
_PLAIN = {
    "deadline.done": ("期限内に追加措置を実行", "the remedy was carried out in time"),
    "match.extended": ("時間延長", "the match was given extra time"),
    "loss.carried": ("敗北を次のマッチへ持ち越し", "the loss waits for the next match"),
    "loss.settled": ("持ち越した敗北を処理", "the waiting loss was settled"),
}
