"""The HTTP API: one NinjaAPI, one router per app, OpenAPI docs at /api/docs."""
import logging
from datetime import datetime
from typing import Annotated

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.urls import reverse
from ninja import NinjaAPI, Path, Router, Schema
from ninja.errors import AuthenticationError

from chat.api import client_user_or_404, errors
from chat.api import router as chat_router
from memcenter.api_auth import ApiKeyAuth, RateLimited
from memcenter.context_api import router as context_router
from memcenter.login_links import login_link_create

logger = logging.getLogger("memcenter.api")

api = NinjaAPI(
    title="memcenter API",
    version="1",
    description="Ingest conversations; read MEMORY.md and recall memories. Authenticate with `Authorization: Bearer <api key>`.",
    auth=ApiKeyAuth(),
    urls_namespace="api",
)
links_router = Router(tags=["login links"])


class LoginLinkOut(Schema):
    url: str
    expires_at: datetime


@links_router.post("/users/{username}/login-link", response={200: LoginLinkOut, **errors(404)},
                   summary="A one-time link that signs this user in to the memory center")
def login_link(request, username: Annotated[str, Path(min_length=1, max_length=150, pattern=r"^[\w.@+-]+$")]):
    """Open it in the user's browser: it works once, within LOGIN_LINK_SECONDS, and lands on the
    memory center. A newer sign-in of the same user makes it stale."""
    link = login_link_create(user=client_user_or_404(request, username))
    path = reverse("memcenter:login_link", args=[link.token])
    url = settings.MEMCENTER_PUBLIC_URL.rstrip("/") + path if settings.MEMCENTER_PUBLIC_URL else request.build_absolute_uri(path)
    return {"url": url, "expires_at": link.expires_at}


api.add_router("/v1/", chat_router)
api.add_router("/v1/", context_router)
api.add_router("/v1/", links_router)


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


@api.exception_handler(Exception)
def _server_error(request, exc):
    # ninja's default re-raises with debug off, and Django answers with its HTML 500 page.
    if settings.DEBUG:
        raise exc
    logger.exception("API error on %s %s", request.method, request.path)
    return api.create_response(request, {"detail": "internal server error; it was logged"}, status=500)
