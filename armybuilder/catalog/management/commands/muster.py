"""``python manage.py muster <subcommand>``: the command-line face of the engine.

Exit codes: 0 valid (or done), 1 invalid army, 2 malformed input or usage; messages go
to stderr and never as a traceback.
"""

import json
import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

import rules
from armybuilder.catalog import services

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
        return json.loads(text, parse_constant=_refuse_constant)
    except (ValueError, RecursionError) as exc:
        raise Malformed(f"{path} is not valid JSON: {exc}") from exc


def _refuse_constant(name: str) -> None:
    raise ValueError(f"{name} is not a JSON number")


class Command(BaseCommand):
    help = "Muster's rules engine: check an army document, load army lists."

    def add_arguments(self, parser: CommandParser) -> None:
        sub = parser.add_subparsers(dest="subcommand", required=True)
        check = sub.add_parser("check", help="Print the check report of an army document.")
        check.add_argument("file", help="army document (muster.army/1 JSON), or - for stdin")
        sub.add_parser("load-lists", help="Load the army lists in fixtures/ (idempotent).")

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

    def do_check(self, file: str, **_: Any) -> int:
        _, report = services.check_document(read_document(file))
        self.stdout.write(json.dumps(report.to_json(), indent=2, ensure_ascii=False))
        return EXIT_VALID if report.valid else EXIT_INVALID

    def do_load_lists(self, **_: Any) -> int:
        count = services.load_lists()
        self.stdout.write(f"Loaded {count} army lists.")
        return EXIT_VALID
