"""The API fuzzer at full strength: many more generated requests per operation than `make test` runs."""
import os

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from hypothesis import HealthCheck, settings as hypothesis_settings

from memcenter.wsgi import application
from tests.factories import api_key_create, client_user

pytestmark = pytest.mark.stress
schema = schemathesis.openapi.from_wsgi("/api/openapi.json", application)
EXAMPLES = int(os.environ.get("STRESS_FUZZ_EXAMPLES", "600"))


@pytest.fixture
def fuzz_key(db, settings):
    settings.API_RATE_LIMIT_PER_MINUTE = 1_000_000
    key, secret = api_key_create("stress-fuzzer")
    client_user(key.client, "alice")
    request_started.disconnect(close_old_connections)  # see tests/test_reliability_bad_input.py
    request_finished.disconnect(close_old_connections)
    yield secret
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@schema.parametrize()
@hypothesis_settings(max_examples=EXAMPLES, deadline=None, database=None, suppress_health_check=list(HealthCheck))
def test_the_api_never_answers_a_server_error_under_heavy_fuzzing(case, fuzz_key):
    response = case.call(headers={"Authorization": f"Bearer {fuzz_key}"})
    assert response.status_code < 500, f"{case.method} {case.formatted_path}: {response.status_code} {response.text[:300]}"
