"""Small pieces of request handling the project adds to Django's own."""
from django.conf import settings
from django.utils.cache import patch_cache_control


def private_pages_not_stored(get_response):
    """A page made for a signed-in person is stored by no cache, shared or the browser's own:
    Cache-Control: private, no-store (unless the view chose its own caching)."""

    def middleware(request):
        response = get_response(request)
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated and not response.has_header("Cache-Control"):
            patch_cache_control(response, private=True, no_store=True)
        return response

    return middleware


def client_ip(request) -> str | None:
    """The address login throttling counts by. Behind the TLS proxy (SECURE_PROXY_SSL_HEADER set),
    the last X-Forwarded-For entry is the one the proxy added; earlier ones are the client's to forge."""
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
    if getattr(settings, "SECURE_PROXY_SSL_HEADER", None) and forwarded.strip():
        return forwarded.split(",")[-1].strip()
    return request.META.get("REMOTE_ADDR")
