"""API key authentication and the per-key rate limit for the ninja API."""
from django.conf import settings
from ninja.security import HttpBearer

from chat.models import ApiKey
from chat.services import api_key_use


class RateLimited(Exception):
    """Raised by the auth callback; memcenter/api.py turns it into 429 with Retry-After."""

    def __init__(self, retry_after: int, limit: int):
        super().__init__(f"rate limit of {limit} requests per minute for this API key exceeded; retry after {retry_after} s")
        self.retry_after = retry_after


class ApiKeyAuth(HttpBearer):
    """Bearer API keys created with `manage.py create_api_key NAME` (stored hashed).

    Authentication and rate limiting are one database statement (see chat.services.api_key_use).
    """

    def authenticate(self, request, token: str) -> ApiKey | None:
        use = api_key_use(secret=token)
        if use is None:
            return None
        if use.over_limit:
            raise RateLimited(use.retry_after, settings.API_RATE_LIMIT_PER_MINUTE)
        return use.key
