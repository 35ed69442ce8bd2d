import pytest


@pytest.fixture
def client_in(client, user):
    """The test client, logged in as the test user."""
    client.force_login(user)
    return client
