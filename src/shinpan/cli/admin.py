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
        db: DbOption = None,
        as_json: JsonOption = False,
    ) -> None:
        """Load an exported event; its chain is verified before anything is kept."""
        from shinpan.services import transfer

        data = _read_export(file)
        database = open_db(db)
        with handled():
            event_id = transfer.import_event(database, data)
        print_json({"event": event_id}) if as_json else say(f"imported as event {event_id}")

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
