"""``shinpan verify|rebuild|export|import|backup``: the ledger's integrity and copies."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from shinpan.cli.common import handled, name_value, open_db, say_claim_code
from shinpan.cli.guideline import Lang, LangOption
from shinpan.cli.options import DbOption, EventOption, JsonOption, OnlyEventOption
from shinpan.cli.output import both, fail, print_json, say, tell

if TYPE_CHECKING:
    from shinpan.store.db import Database


def _read_export(file: Path) -> Any:
    """The JSON of a file written by ``shinpan export``, or a one-line reason to stop."""
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
        # A lone surrogate ("\\udc80") is valid JSON but no text: nothing could store it.
        json.dumps(data, ensure_ascii=False).encode("utf-8")
    except OSError as e:
        fail(both(f"{file} を読めません: {e.strerror or e}", f"cannot read {file}: {e.strerror or e}"), 1)
    except RecursionError:
        fail(
            both(
                f"{file} を読めません: JSONの入れ子が深すぎて、エクスポートではありません",
                f"cannot read {file}: its JSON is nested too deeply to be an export",
            ),
            1,
        )
    except UnicodeEncodeError:
        fail(
            both(
                f"{file} を読めません: JSONに文字ではない孤立サロゲートのエスケープ(\\udc80 など)があります",
                f"cannot read {file}: its JSON has a lone surrogate escape (like \\udc80), not a character",
            ),
            1,
        )
    except (UnicodeDecodeError, ValueError) as e:
        fail(both(f"{file} をJSONとして読めません: {e}", f"cannot read {file}: {e}"), 1)
    return data


def _mapping(pairs: list[str]) -> dict[str, str]:
    """``--map-account SEAT=ACCOUNT`` options as seat → account name."""
    out: dict[str, str] = {}
    for pair in pairs:
        seat, account = name_value(
            pair,
            f"--map-account は 席=アカウント(ファイルの席の名前=ここのアカウント)と書きます。{pair!r} は使えません",
            f"--map-account takes SEAT=ACCOUNT (the seat's name in the file = an account here), not {pair!r}",
        )
        if seat.strip() in out:
            fail(
                both(
                    f"--map-account が席 {seat.strip()!r} を二回指定しています",
                    f"--map-account names the seat {seat.strip()!r} twice",
                ),
                2,
            )
        out[seat.strip()] = account.strip()
    return out


def _verify_head(database: Database, head: str, event: int | None, lang: str, as_json: bool) -> None:
    """``verify --head``: the printed head against the ledger; exit 1 unless it holds."""
    from shinpan.services.heads import MalformedHead, check_head  # start-up

    try:
        with handled():
            found = check_head(database, head, event)
    except MalformedHead as e:
        fail(f"not a head: {e}" if lang == "en" else f"ヘッドの形ではありません: {e.ja}", 2)
    if as_json:
        print_json(
            {
                "state": found.state,
                "holds": found.holds,
                "event": found.event_id,
                "position": found.position,
                "message": found.text(lang),
            }
        )
    else:
        say(found.text(lang), markup=False, style=None if found.holds else "bold red")
    if not found.holds:
        raise SystemExit(1)


def verify(
    event: OnlyEventOption = None,
    head: Annotated[
        str | None,
        typer.Option(
            "--head", help="A head printed on a report (3-128-XXXX-XXXX-XXXX-XXXX, or its full form)."
        ),
    ] = None,
    lang: LangOption = Lang.ja,
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Walk every hash chain, check every seal and compare the tables with the ledger:
    exit 0 when it holds. With --head: whether the ledger still holds a printed head."""
    from shinpan.services import integrity  # start-up

    database = open_db(db)
    if head is not None:
        _verify_head(database, head, event, lang.value, as_json)
        return
    with handled():
        result = integrity.verify(database, event)
    if as_json:
        print_json(
            {
                "ok": result.ok,
                "events": result.events,
                "entries": result.entries,
                "breaks": [str(b) for b in result.breaks],
                "differences": [str(d) for d in result.differences],
                "heads": {str(k): v for k, v in result.heads.items()},
                "missing_guards": result.missing_guards,
                "seals": [p.text(lang.value) for p in result.seals],
                "sealed": {str(k): v for k, v in result.sealed.items()},
                "reopened": {str(k): v for k, v in result.reopened.items()},
            }
        )
    elif result.ok:
        tell(
            f"正常: 大会 {result.events}件、記録 {result.entries}項、すべての台帳の連鎖が保たれています",
            f"ok: {result.events} event(s), {result.entries} entries, every chain holds",
        )
        for event_id, digest in result.heads.items():
            tell(f"  大会 {event_id} の台帳ヘッド", f"event {event_id} head {digest}")
            sealed = result.sealed.get(event_id)
            if sealed is not None:
                en = lang is Lang.en
                again = result.reopened.get(event_id)
                say(
                    (
                        f"  event {event_id} sealed at entry {sealed}"
                        if en
                        else f"  大会 {event_id} は第{sealed}項で封印済み"
                    )
                    + (
                        ""
                        if again is None
                        else (f", reopened at entry {again}" if en else f"(第{again}項で封印を解除)")
                    ),
                    markup=False,
                )
    else:
        for guard in result.missing_guards:
            tell(
                "台帳の保護が外れています: 台帳を守るトリガーがないか無効で、記録が気づかれずに変えられます。"
                "バックアップから、または表の所有者として戻してください",
                f"UNGUARDED the ledger's trigger {guard} is missing or switched off: "
                "entries could be changed unseen; restore it from a backup or as the tables' owner",
                style="bold red",
            )
        for b in result.breaks:
            tell("台帳の連鎖が切れています", f"BROKEN {b}", style="bold red")
        for problem in result.seals:
            say(f"SEAL {problem.text(lang.value)}", markup=False, style="bold red")
        for d in result.differences[:50]:
            tell("表が台帳と食い違っています", f"DIFFERS {d}", style="bold red")
    if not result.ok:
        raise SystemExit(1)


def rebuild(
    event: OnlyEventOption = None,
    check: Annotated[bool, typer.Option("--check", help="Compare only; change nothing.")] = False,
    db: DbOption = None,
) -> None:
    """Derive players, matches, rulings and deadlines again from the ledger."""
    from shinpan.services import integrity  # start-up

    database = open_db(db)
    with handled():
        differences = integrity.rebuild(database, event, check_only=check)
    for d in differences[:50]:
        if check:
            tell("表が台帳と食い違っています", f"DIFFERS {d}")
        else:
            tell("台帳に合わせて直しました", f"fixed {d}")
    if not differences:
        tell("表は台帳と一致しています", "the tables match the ledger")
    if check and differences:
        raise SystemExit(1)


def export(
    event: EventOption,
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="File (default: standard output).")
    ] = None,
    db: DbOption = None,
) -> None:
    """The whole event as JSON: every ledger entry with its hash."""
    from shinpan.files import transfer  # start-up

    database = open_db(db)
    with handled():
        data = transfer.export_event(database, event)
    text = json.dumps(data, ensure_ascii=False, indent=1)
    if output:
        try:
            output.write_text(text + "\n", encoding="utf-8")
        except OSError as e:
            fail(
                both(
                    f"{output} に書き込めません: {e.strerror or e}",
                    f"cannot write {output}: {e.strerror or e}",
                ),
                1,
            )
        entries = len(data["entries"])
        tell(f"{output} に書き出しました(記録 {entries}項)", f"wrote {output} ({entries} entries)")
    else:
        sys.stdout.write(text + "\n")


def import_(
    file: Annotated[Path, typer.Argument(help="A file written by `shinpan export`.")],
    map_account: Annotated[
        list[str] | None,
        typer.Option(
            "--map-account",
            help="SEAT=ACCOUNT: the judge's seat named SEAT in the file goes to the account ACCOUNT "
            "(its sign-in name) here. Repeat for each seat; every other seat gets a claim code.",
        ),
    ] = None,
    trust_key: Annotated[
        list[str] | None,
        typer.Option(
            "--trust-key",
            help="Accept seals of the key with this fingerprint (as printed on the event's final report).",
        ),
    ] = None,
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Load an exported event: its chain and its seals are verified, and every command in
    it is decided again and must give the same entries, before anything is kept. No account
    named in the file gets a seat: seats go to the accounts given with --map-account, the
    others wait for the claim codes printed here (shown once)."""
    from shinpan.files import seals, transfer  # start-up
    from shinpan.services import seal  # start-up

    accounts = _mapping(map_account or [])
    data = _read_export(file)
    database = open_db(db)
    with handled():
        unmatched = seals.trust_export_keys(database, data, trust_key or [])
        if unmatched:
            keys = ", ".join(unmatched)
            fail(
                both(
                    f"{file} には鍵 {keys} で作った封印がありません",
                    f"no seal in {file} was made with the key {keys}",
                ),
                1,
            )
        try:
            imported = transfer.import_event(database, data, accounts=accounts)
        except seals.SealBroken as e:
            hint = hint_ja = ""
            if e.problem.problem == "unknown_key":
                fp = seal.fingerprint(e.problem.key)
                hint = (
                    f" (if the event's final report shows the key {fp}: import again with --trust-key {fp})"
                )
                hint_ja = f"(大会の最終報告書に鍵 {fp} が載っていれば、--trust-key {fp} を付けてもう一度取り込んでください)"
            fail(
                both(
                    f"{e.problem.text('ja')}。何も取り込んでいません{hint_ja}",
                    f"{e.problem.text('en')}; nothing was imported{hint}",
                ),
                1,
            )
    if as_json:
        print_json(
            {
                "event": imported.event_id,
                "claim_codes": imported.claim_codes,
                "file": transfer.source_json(imported),
            }
        )
        return
    tell(f"大会 {imported.event_id} として取り込みました", f"imported as event {imported.event_id}")
    for seat, code in imported.claim_codes.items():
        say_claim_code(seat, code)
    source = transfer.source_json(imported)
    if imported.sealed:
        tell(
            f"ファイルは封印されていました(全{source['entries']}項、鍵 {source['key']})",
            f"the file was sealed (all {source['entries']} entries, key {source['key']})",
        )
    elif source["sealed_entries"]:
        tell(
            f"注意: ファイルの後半{source['unsealed_entries']}項は封印されていません"
            f"(第{source['sealed_entries']}項まで鍵 {source['key']} で封印)。大会は「封印のない取り込み」と表示されます",
            f"note: the last {source['unsealed_entries']} entries of the file were not sealed (sealed through entry "
            f"{source['sealed_entries']}, key {source['key']}); the event is shown as an unsealed import",
        )
    else:
        tell(
            "注意: ファイルは封印されていませんでした。大会は「封印のない取り込み」と表示されます",
            "note: the file was not sealed; the event is shown as an unsealed import",
        )


def backup(
    file: Annotated[Path, typer.Argument(help="The new file to write.")],
    db: DbOption = None,
) -> None:
    """A consistent copy of the live SQLite database."""
    from shinpan.files import transfer  # start-up

    database = open_db(db)
    with handled():
        target = transfer.backup(database, file)
    tell(f"{target} にバックアップしました", f"backed up to {target}")


def register(app: typer.Typer) -> None:
    app.command("verify")(verify)
    app.command("rebuild")(rebuild)
    app.command("export")(export)
    app.command("import")(import_)
    app.command("backup")(backup)
