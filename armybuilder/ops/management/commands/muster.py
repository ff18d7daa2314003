"""``python manage.py muster <subcommand>``: the command-line face of the engine.

Exit codes: 0 valid (or done), 1 invalid army, 2 malformed input or usage; messages go
to stderr and never as a traceback. It lives in ops, the top app, because its
subcommands reach the apps below it (catalog's lists and checks, printing's PDFs).
"""

import json
import secrets
import sys
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

import rules
from armybuilder.catalog import selectors, services
from armybuilder.catalog.models import ArmyList
from rules.document import load_json
from rules.list_document import ListDocument, load_list_text

EXIT_VALID, EXIT_INVALID, EXIT_MALFORMED = 0, 1, 2


class Malformed(Exception):
    """Input the command cannot use: message for stderr, exit 2."""


def read_document(path: str) -> Any:
    """The JSON document in ``path`` ('-' for standard input)."""
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise Malformed(f"cannot read {path}: {exc}") from exc
    try:
        return load_json(text)
    except rules.MalformedDocument as exc:
        raise Malformed(f"{path} is {exc.message}") from None


def read_list(path: str) -> ListDocument:
    """The army list in a ``muster.list/1`` file: size limit, strict JSON, its rule set's
    own validator; a refusal names the file and the path at fault."""
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise Malformed(f"cannot read {path}: {exc}") from exc
    try:
        return load_list_text(data, settings.MUSTER_MAX_DOCUMENT_BYTES)
    except rules.MalformedDocument as exc:
        where = f" at {exc.path}" if exc.path else ""
        raise Malformed(f"{path}{where}: {exc.message}") from None


def _revision_data(army_list: ArmyList, number: int) -> Any:
    """The data of one revision of a list (an event's pinned one: its rolls reproduce)."""
    from armybuilder.catalog.models import ArmyListRevision

    found = ArmyListRevision.objects.filter(army_list=army_list, number=number).first()
    if found is None:
        raise Malformed(f"{army_list.name} has no revision {number}")
    return found.data


class Command(BaseCommand):
    help = "Muster's rules engine: check an army document, work out hits, load army lists."

    def add_arguments(self, parser: CommandParser) -> None:
        sub = parser.add_subparsers(dest="subcommand", required=True)
        check = sub.add_parser("check", help="Print the check report of an army document.")
        check.add_argument("file", help="army document (muster.army/1 JSON), or - for stdin")
        check.add_argument(
            "--list",
            dest="list_file",
            help="check against this army list (a muster.list/1 file) instead of the stored one",
        )
        check.add_argument(
            "--event",
            dest="event_file",
            help="check against a club event's rules file (muster.event/1), offline",
        )
        hits = sub.add_parser(
            "hits", help="Work out one combat's hits (JSON: rule set, phase, units, die)."
        )
        hits.add_argument("file", help="the combat as JSON, or - for stdin")
        sub.add_parser("load-lists", help="Load the army lists in fixtures/ (idempotent).")
        roll = sub.add_parser("roll", help="Roll a force on a rule set's force matrix.")
        roll.add_argument("ruleset", help="rule set slug, e.g. feudal-2017")
        roll.add_argument(
            "--list", dest="list_slug", help="army list slug (default: the default list)"
        )
        roll.add_argument("--seed", type=int, help="seed for the dice (default: a random one)")
        roll.add_argument(
            "--revision", type=int, help="the list's revision to roll on (default: the latest)"
        )
        pdf = sub.add_parser("pdf", help="Write an army's roster or quick-reference sheet PDF.")
        pdf.add_argument("file", help="army document (muster.army/1 JSON), or - for stdin")
        pdf.add_argument("--sheet", choices=("roster", "qrs"), required=True)
        pdf.add_argument("--output", required=True, help="where to write the PDF")
        pdf.add_argument("--paper", choices=("a4", "letter"), default="a4")
        pdf.add_argument(
            "--include", action="append", default=[], help="optional QRS section, e.g. siege"
        )
        backup = sub.add_parser(
            "backup", help="Back the database up to a new file while the site serves."
        )
        backup.add_argument("file", help="the backup to write (never overwritten)")
        restore = sub.add_parser(
            "restore", help="Load a backup into the configured database, which must be empty."
        )
        restore.add_argument("file", help="a backup written by muster backup")

    def handle(self, *args: Any, **options: Any) -> None:
        handler = getattr(self, "do_" + options["subcommand"].replace("-", "_"))
        try:
            code = handler(**options)
        except Malformed as exc:
            self.stderr.write(f"error: {exc}")
            code = EXIT_MALFORMED
        except rules.MalformedDocument as exc:
            self.stderr.write(f"error: {exc.message}")
            code = EXIT_MALFORMED
        except services.ListFileError as exc:
            raise CommandError(str(exc), returncode=EXIT_MALFORMED) from exc
        if code:
            sys.exit(code)

    def do_check(
        self, file: str, list_file: str | None = None, event_file: str | None = None, **_: Any
    ) -> int:
        document = read_document(file)
        if event_file is not None:
            return self._check_event(document, event_file)
        if list_file is None:
            _, report = services.check_document(document)
        else:
            _, report = services.check_with_list_document(document, listed=read_list(list_file))
        self.stdout.write(json.dumps(report.to_json(), indent=2, ensure_ascii=False))
        return EXIT_VALID if report.valid else EXIT_INVALID

    def _check_event(self, document: Any, event_file: str) -> int:
        """The report with the event's issues added, each citing the event's rule."""
        from rules.restrictions import check_with_event

        _, report, issues = check_with_event(document, read_document(event_file))
        answer = report.to_json()
        answer["issues"] += [issue.to_json() for issue in issues]
        answer["valid"] = report.valid and not any(i.severity == "error" for i in issues)
        self.stdout.write(json.dumps(answer, indent=2, ensure_ascii=False))
        return EXIT_VALID if answer["valid"] else EXIT_INVALID

    def do_hits(self, file: str, **_: Any) -> int:
        """Print one combat worked out step by step (the engine the API and pages use)."""
        from rules.combat_request import answer, work_out

        ruleset, result = work_out(read_document(file))
        self.stdout.write(json.dumps(answer(ruleset, result), indent=2, ensure_ascii=False))
        return EXIT_VALID

    def do_load_lists(self, **_: Any) -> int:
        count = services.load_lists()
        self.stdout.write(f"Loaded {count} army lists.")
        return EXIT_VALID

    def do_roll(
        self,
        ruleset: str,
        list_slug: str | None,
        seed: int | None,
        revision: int | None = None,
        **_: Any,
    ) -> int:
        """Print a legal army document rolled on the force matrix (seeded: reproducible)."""
        try:
            found = rules.get_ruleset(ruleset)
        except KeyError:
            known = ", ".join(r.slug for r in rules.all_rulesets() if r.can_roll)
            raise Malformed(
                f"{ruleset!r} is not a rule set with a force matrix; try one of: {known}"
            ) from None
        if not found.can_roll:
            raise Malformed(f"{ruleset} has no force matrix to roll on")
        slug = list_slug or getattr(found, "default_list", None)
        data, name = None, None
        if slug is not None:
            army_list = selectors.get_list(ruleset, slug=slug)
            if army_list is not None and army_list.is_public:
                data, name = army_list.data, army_list.name
                if revision is not None:
                    data = _revision_data(army_list, revision)
            elif list_slug is not None:
                known = selectors.lists_for(ruleset)
                names = "; ".join(f"{a.name} (--list {a.slug})" for a in known) or "none yet"
                raise Malformed(
                    f"{list_slug!r} is not an army list of {found.title}; known lists: {names}"
                )
            else:
                slug = None  # default list not loaded: the engine's built-in copy
        if seed is None:
            seed = secrets.randbelow(1_000_000)
        document = found.roll_force(slug, data, seed, list_name=name)
        self.stdout.write(json.dumps(document, indent=2, ensure_ascii=False))
        return EXIT_VALID

    def do_pdf(
        self, file: str, sheet: str, output: str, paper: str, include: list[str], **_: Any
    ) -> int:
        """Write the roster or QRS of an army document (the same PDF as the web and API)."""
        from armybuilder.printing import services as printing

        try:
            printed = printing.army_sheet_pdf(
                read_document(file), sheet=sheet, paper=paper, extras=include
            )
        except printing.PrintError as exc:
            raise Malformed(exc.message) from exc
        try:
            Path(output).write_bytes(printed.pdf)
        except OSError as exc:
            raise Malformed(f"cannot write {output}: {exc}") from exc
        self.stdout.write(f"Wrote {output} ({printing.SHEETS[sheet].lower()}, {paper}).")
        return EXIT_VALID

    def do_backup(self, file: str, **_: Any) -> int:
        from armybuilder.ops import backup

        try:
            self.stdout.write(backup.backup(Path(file)))
        except backup.BackupError as exc:
            raise Malformed(str(exc)) from exc
        return EXIT_VALID

    def do_restore(self, file: str, **_: Any) -> int:
        from armybuilder.ops import backup

        try:
            self.stdout.write(backup.restore(Path(file)))
        except backup.BackupError as exc:
            raise Malformed(str(exc)) from exc
        return EXIT_VALID
