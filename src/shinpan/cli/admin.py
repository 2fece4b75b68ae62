"""``shinpan verify|rebuild|export|import|backup``: the ledger's integrity and copies."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from shinpan.cli.common import DbOption, EventOption, JsonOption, OnlyEventOption, handled, open_db
from shinpan.cli.output import fail, print_json, say


def _read_export(file: Path) -> Any:
    """The JSON of a file written by ``shinpan export``, or a one-line reason to stop."""
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
        # A lone surrogate ("\\udc80") is valid JSON but no text: nothing could store it.
        json.dumps(data, ensure_ascii=False).encode("utf-8")
    except OSError as e:
        fail(f"cannot read {file}: {e.strerror or e}", 1)
    except RecursionError:
        fail(f"cannot read {file}: its JSON is nested too deeply to be an export", 1)
    except UnicodeEncodeError:
        fail(f"cannot read {file}: its JSON has a lone surrogate escape (like \\udc80), not a character", 1)
    except (UnicodeDecodeError, ValueError) as e:
        fail(f"cannot read {file}: {e}", 1)
    return data


def _mapping(pairs: list[str]) -> dict[str, str]:
    """``--map-account SEAT=ACCOUNT`` options as seat → account name."""
    out: dict[str, str] = {}
    for pair in pairs:
        seat, sep, account = pair.partition("=")
        if not sep or not seat.strip() or not account.strip():
            fail(
                f"--map-account takes SEAT=ACCOUNT (the seat's name in the file = an account here), not {pair!r}",
                2,
            )
        if seat.strip() in out:
            fail(f"--map-account names the seat {seat.strip()!r} twice", 2)
        out[seat.strip()] = account.strip()
    return out


def register(app: typer.Typer) -> None:
    @app.command("verify")
    def verify(
        event: OnlyEventOption = None,
        db: DbOption = None,
        as_json: JsonOption = False,
    ) -> None:
        """Walk every hash chain and compare the tables with the ledger: exit 0 when it holds."""
        from shinpan.services import integrity

        database = open_db(db)
        with handled():
            result = integrity.verify(database, event)
        if as_json:
            print_json({
                "ok": result.ok, "events": result.events, "entries": result.entries,
                "breaks": [str(b) for b in result.breaks],
                "differences": [str(d) for d in result.differences],
                "heads": {str(k): v for k, v in result.heads.items()},
                "missing_guards": result.missing_guards,
            })  # fmt: skip
        elif result.ok:
            say(f"ok: {result.events} event(s), {result.entries} entries, every chain holds", markup=False)
            for event_id, head in result.heads.items():
                say(f"  event {event_id} head {head}", markup=False)
        else:
            for guard in result.missing_guards:
                say(
                    f"UNGUARDED the ledger's trigger {guard} is missing or switched off: "
                    "entries could be changed unseen; restore it from a backup or as the tables' owner",
                    markup=False, style="bold red",
                )  # fmt: skip
            for b in result.breaks:
                say(f"BROKEN {b}", markup=False, style="bold red")
            for d in result.differences[:50]:
                say(f"DIFFERS {d}", markup=False, style="bold red")
        if not result.ok:
            raise SystemExit(1)

    @app.command("rebuild")
    def rebuild(
        event: OnlyEventOption = None,
        check: Annotated[bool, typer.Option("--check", help="Compare only; change nothing.")] = False,
        db: DbOption = None,
    ) -> None:
        """Derive players, matches, rulings and deadlines again from the ledger."""
        from shinpan.services import integrity

        database = open_db(db)
        with handled():
            differences = integrity.rebuild(database, event, check_only=check)
        for d in differences[:50]:
            say(("DIFFERS " if check else "fixed ") + str(d), markup=False)
        if not differences:
            say("the tables match the ledger")
        if check and differences:
            raise SystemExit(1)

    @app.command("export")
    def export(
        event: EventOption,
        output: Annotated[
            Path | None, typer.Option("--output", "-o", help="File (default: standard output).")
        ] = None,
        db: DbOption = None,
    ) -> None:
        """The whole event as JSON: every ledger entry with its hash."""
        from shinpan.services import transfer

        database = open_db(db)
        with handled():
            data = transfer.export_event(database, event)
        text = json.dumps(data, ensure_ascii=False, indent=1)
        if output:
            try:
                output.write_text(text + "\n", encoding="utf-8")
            except OSError as e:
                fail(f"cannot write {output}: {e.strerror or e}", 1)
            say(f"wrote {output} ({len(data['entries'])} entries)", markup=False)
        else:
            sys.stdout.write(text + "\n")

    @app.command("import")
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
        db: DbOption = None,
        as_json: JsonOption = False,
    ) -> None:
        """Load an exported event: its chain is verified, and every command in it is decided
        again and must give the same entries, before anything is kept. No account named in
        the file gets a seat: seats go to the accounts given with --map-account, the others
        wait for the claim codes printed here (shown once)."""
        from shinpan.services import transfer

        accounts = _mapping(map_account or [])
        data = _read_export(file)
        database = open_db(db)
        with handled():
            imported = transfer.import_event(database, data, accounts=accounts)
        if as_json:
            print_json({"event": imported.event_id, "claim_codes": imported.claim_codes})
            return
        say(f"imported as event {imported.event_id}")
        for seat, code in imported.claim_codes.items():
            say(
                f"claim code for {seat}'s seat (shown once; valid 7 days): {code}\n"
                f"  the judge opens /join/{code} on the server and sets a PIN, or signs in first to use their account",
                markup=False,
            )

    @app.command("backup")
    def backup(
        file: Annotated[Path, typer.Argument(help="The new file to write.")],
        db: DbOption = None,
    ) -> None:
        """A consistent copy of the live SQLite database."""
        from shinpan.services import transfer

        database = open_db(db)
        with handled():
            target = transfer.backup(database, file)
        say(f"backed up to {target}", markup=False)
