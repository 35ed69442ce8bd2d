import os

import pytest

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # Playwright's sync API runs an event loop


@pytest.fixture
def user(db):
    from tests.factories import UserFactory

    return UserFactory()


@pytest.fixture
def other_user(db):
    from tests.factories import UserFactory

    return UserFactory()

pytest_plugins = ["tests.support.fake_openai"]
