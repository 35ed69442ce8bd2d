#!/usr/bin/env python
import os
import sys


def main():
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "memcenter.settings")
    from django.core.exceptions import ImproperlyConfigured
    from django.core.management import execute_from_command_line
    from django.db.utils import OperationalError, ProgrammingError

    try:
        execute_from_command_line(sys.argv)
    except ProgrammingError as error:
        # A database with no memcenter tables yet: one readable line, not a traceback.
        if "does not exist" not in str(error) or "--traceback" in sys.argv:
            raise
        sys.exit(f"error: the database has no memcenter tables yet ({str(error).splitlines()[0]}); "
                 "run `python manage.py migrate` first (`make run` does it)")
    except ImproperlyConfigured as error:
        # A setting missing or malformed in the environment (DJANGO_SECRET_KEY, MEMCENTER_…): the message names it.
        if "--traceback" in sys.argv:
            raise
        sys.exit(f"error: {str(error).strip().splitlines()[0]}")
    except OperationalError as error:
        if "--traceback" in sys.argv:
            raise
        sys.exit(f"error: cannot use the database: {str(error).strip().splitlines()[0]}")


if __name__ == "__main__":
    main()
