"""API for chat products: read MEMORY.md (every turn, cached) and recall the long tail (on demand)."""
from typing import Literal

from django.conf import settings
from django.contrib.auth import get_user_model
from django.http import HttpRequest, HttpResponse
from ninja import Query, Router, Schema
from ninja.errors import HttpError
from pydantic import Field

from chat.models import Persona
from dreaming.memory.context import memory_md_get, memory_md_render
from dreaming.memory.recall import recall
from dreaming.protocol import RECALL_MAX_K

router = Router(tags=["context"])


def _user_or_404(username: str):
    user = get_user_model().objects.filter(username=username).first()
    if user is None:
        raise HttpError(404, f"Unknown user {username!r}.")
    return user


def _persona_or_404(slug: str | None) -> Persona | None:
    if not slug:
        return None
    persona = Persona.objects.filter(slug=slug).first()
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


@router.get("/users/{username}/memory.md", summary="The user's MEMORY.md (text/markdown); version in X-Memory-Version and ETag")
def memory_md(request: HttpRequest, username: str, persona: str | None = None):
    user = _user_or_404(username)
    scope = _persona_or_404(persona)
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


@router.get("/users/{username}/recall", response=RecallOut, summary="Recall memories beyond MEMORY.md and excerpts of the user's own past messages")
def recall_endpoint(request: HttpRequest, username: str, params: Query[RecallIn]):
    user = _user_or_404(username)
    scope = _persona_or_404(params.persona)
    query = params.q.strip()
    if not query:
        raise HttpError(422, "q must not be blank.")
    results = recall(user=user, query=query, k=params.k, persona=scope)
    return {"query": query, "persona": params.persona, "results": [result.as_dict() for result in results]}
