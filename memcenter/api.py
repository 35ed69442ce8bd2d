"""The HTTP API: one NinjaAPI, one router per app, OpenAPI docs at /api/docs."""
from django.core.exceptions import RequestDataTooBig
from ninja import NinjaAPI
from ninja.errors import AuthenticationError

from chat.api import router as chat_router
from memcenter.api_auth import ApiKeyAuth, RateLimited
from memcenter.context_api import router as context_router

api = NinjaAPI(
    title="memcenter API",
    version="1",
    description="Ingest conversations; read MEMORY.md and recall memories. Authenticate with `Authorization: Bearer <api key>`.",
    auth=ApiKeyAuth(),
    urls_namespace="api",
)
api.add_router("/v1/", chat_router)
api.add_router("/v1/", context_router)


# [foundation] Errors a client can act on: which header to send, when to retry, what is too big.
@api.exception_handler(AuthenticationError)
def _unauthorized(request, exc):
    response = api.create_response(
        request,
        {"detail": "Missing, invalid or revoked API key: send 'Authorization: Bearer <key>' "
                   "(create one with `manage.py create_api_key NAME`)."},
        status=401,
    )
    response["WWW-Authenticate"] = "Bearer"
    return response


@api.exception_handler(RateLimited)
def _rate_limited(request, exc):
    response = api.create_response(request, {"detail": str(exc)}, status=429)
    response["Retry-After"] = str(exc.retry_after)
    return response


@api.exception_handler(RequestDataTooBig)
def _too_big(request, exc):
    return api.create_response(
        request, {"detail": "request body too large (DATA_UPLOAD_MAX_MEMORY_SIZE): send smaller batches"}, status=413
    )
