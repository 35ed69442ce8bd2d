from django.utils import timezone
from ninja.security import HttpBearer

from chat.models import ApiKey


class ApiKeyAuth(HttpBearer):
    """Bearer API keys created with `manage.py create_api_key NAME` (stored hashed)."""

    def authenticate(self, request, token: str) -> ApiKey | None:
        key = ApiKey.objects.filter(hashed_key=ApiKey.hash(token), revoked_at__isnull=True).first()
        if key is None:
            return None
        ApiKey.objects.filter(pk=key.pk).update(last_used_at=timezone.now())
        return key
