"""The HTTP API: one NinjaAPI, one router per app, OpenAPI docs at /api/docs."""
from ninja import NinjaAPI

from chat.api import router as chat_router
from memcenter.api_auth import ApiKeyAuth
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
