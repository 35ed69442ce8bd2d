import pytest


def pytest_collection_modifyitems(items):
    # Everything under tests/stress is a heavy attack: marked, so `make test` (-m "not stress") skips
    # it and `make stress` (-m stress) runs it.
    for item in items:
        if "tests/stress/" in str(item.fspath).replace("\\", "/"):
            item.add_marker(pytest.mark.stress)
