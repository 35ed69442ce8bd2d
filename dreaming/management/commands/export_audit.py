"""Export audited candidates as JSONL: labelled examples for improving prompts and rules."""
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from dreaming.staff.audit import audit_examples, audit_jsonl


class Command(BaseCommand):
    help = (
        "Write candidates with an audit label as JSONL ({statement, quote, message, category, status, "
        "audit, audit_note, triage_kind} per line) to --output, or to stdout."
    )

    def add_arguments(self, parser):
        parser.add_argument("--output", "-o", help="File to write (default: stdout).")
        parser.add_argument("--all", action="store_true", help="Include candidates nobody has labelled yet.")

    def handle(self, *args, output: str | None, all: bool, **options):
        candidates = audit_examples(labelled_only=not all).iterator(chunk_size=500)
        if not output:
            count = _write_lines(audit_jsonl(candidates), write=lambda line: self.stdout.write(line, ending=""))
            self.stderr.write(f"Exported {count} candidate(s).")
            return
        path = Path(output)
        if not path.parent.is_dir():
            raise CommandError(f"Cannot write {output}: the folder {path.parent} does not exist.")
        try:
            with path.open("w", encoding="utf-8") as handle:
                count = _write_lines(audit_jsonl(candidates), write=handle.write)
        except OSError as exc:
            raise CommandError(f"Cannot write {output}: {exc.strerror or exc}.") from None
        self.stdout.write(f"Exported {count} candidate(s) to {path}.")


def _write_lines(lines, *, write) -> int:
    count = 0
    for line in lines:
        write(line)
        count += 1
    return count
