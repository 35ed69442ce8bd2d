"""API for chat products: read MEMORY.md (every turn, cached) and recall the long tail (on demand)."""
from typing import Annotated, Literal

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from ninja import Path, Query, Router, Schema
from ninja.errors import HttpError
from pydantic import Field

from chat.api import client_user_or_404, errors
from chat.models import Persona
from dreaming.memory.context import memory_md_get, memory_md_render
from dreaming.memory.recall import recall
from dreaming.memory.selectors import memory_scopes
from dreaming.protocol import RECALL_MAX_K

router = Router(tags=["context"])
Username = Annotated[str, Path(min_length=1, max_length=150, pattern=r"^[\w.@+-]+$")]


def _persona_or_404(user, slug: str | None) -> Persona | None:
    """One of the personas this user talks to or has memories with; any other slug is unknown."""
    if not slug:
        return None
    persona = next((p for p in memory_scopes(user=user) if p.slug == slug), None)
    if persona is None:
        raise HttpError(404, f"Unknown persona {slug!r}.")
    return persona


class RecallSource(Schema):
    session_external_id: str
    message_external_id: str
    quote: str
    said_at: str


class RecallItem(Schema):
    kind: Literal["memory", "excerpt"] = Field(description="A memory, or an excerpt of the user's own past message.")
    id: int = Field(description="The memory's id; for an excerpt, the message's.")
    statement: str = Field(description="Exactly what the chat model is shown for this result.")
    category: str
    score: float
    parts: dict[str, float] = Field(description="The ranking's inputs (memories: similarity, text_match, recency, "
                                                "importance, confidence; excerpts: text_rank and list positions).")
    sources: list[RecallSource]


class RecallOut(Schema):
    query: str
    persona: str | None
    results: list[RecallItem]


class RecallIn(Schema):
    q: str = Field(..., min_length=1, max_length=2000, description="What to look for.")
    k: int = Field(settings.RECALL_DEFAULT_K, ge=1, le=RECALL_MAX_K)
    persona: str | None = Field(None, description="Persona slug: adds that persona's memories to the profile.")


_MARKDOWN = {"description": "MEMORY.md", "content": {"text/markdown": {"schema": {"type": "string"}}}}


@router.get("/users/{username}/memory.md", response={304: None, **errors(404)},
            openapi_extra={"responses": {200: _MARKDOWN, 304: {"description": "Not modified (If-None-Match)"}}},
            summary="The user's MEMORY.md (text/markdown); version in X-Memory-Version and ETag")
def memory_md(request: HttpRequest, username: Username, persona: str | None = None):
    user = client_user_or_404(request, username)
    scope = _persona_or_404(user, persona)
    # Normally rendered by dreaming; the first request for a scope nobody rendered yet renders it.
    document = memory_md_get(user=user, persona=scope) or memory_md_render(user=user, persona=scope)
    etag = f'"memory-md-{document.user_id}-{document.persona_id or 0}-v{document.version}"'
    if request.headers.get("If-None-Match") == etag:
        response = HttpResponse(status=304)
    else:
        response = HttpResponse(document.content, content_type="text/markdown; charset=utf-8")
    response["X-Memory-Version"] = str(document.version)
    response["X-Memory-Tokens"] = str(document.token_count)
    response["ETag"] = etag
    return response


@router.get("/users/{username}/recall", response={200: RecallOut, **errors(404)}, summary="Recall memories beyond MEMORY.md and excerpts of the user's own past messages")
def recall_endpoint(request: HttpRequest, username: Username, params: Query[RecallIn]):
    user = client_user_or_404(request, username)
    scope = _persona_or_404(user, params.persona)
    query = params.q.strip()
    if not query:
        raise HttpError(422, "q must not be blank.")
    results = recall(user=user, query=query, k=params.k, persona=scope)
    return {"query": query, "persona": params.persona, "results": [result.as_dict() for result in results]}
