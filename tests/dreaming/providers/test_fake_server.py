"""The fake OpenAI/Voyage server other areas' tests rely on: its defaults and scripting behave as documented."""
import pytest

from dreaming.models import LLMCall
from dreaming.providers import CallContext, MemoryRef, NightChanges, Turn, get_dreamer, get_embedder

pytestmark = pytest.mark.django_db

TURNS = [Turn(seq=1, role="user", content="I have a dog named Milo.")]


def test_the_default_responder_answers_every_task_with_a_valid_empty_result(openai_backend):
    ctx = CallContext()
    dreamer = get_dreamer()
    assert dreamer.read_session(turns=TURNS, ctx=ctx).kind == "normal"
    assert dreamer.read_session(turns=TURNS, ctx=ctx).candidates == []
    memories = [MemoryRef(id=1, statement="User has a cat.", category="relation")]
    assert [c.relation for c in dreamer.compare(statements=["a", "b"], memories=memories, ctx=ctx)] == ["new", "new"]
    assert dreamer.merge(statements=["User has a dog.", "User has a dog named Milo."], ctx=ctx) == "User has a dog."
    assert dreamer.narrate(changes=NightChanges(), ctx=ctx) == "A quiet night."
    assert dreamer.reply(turns=TURNS, memory_md="", recall=lambda q: [], ctx=ctx) == "OK."
    assert LLMCall.objects.filter(status="ok").count() == 6


def test_a_custom_responder_sees_the_parsed_request(openai_backend, settings):
    seen = []

    def responder(request):
        seen.append(request.body["model"])
        return {"kind": "roleplay", "reason": "custom"}

    openai_backend.set_chat_responder(responder)
    assert get_dreamer().read_session(turns=TURNS, ctx=CallContext()).kind == "roleplay"
    assert seen == [settings.LLM_MODEL]


def test_default_embeddings_follow_the_requested_dimensions_and_reset_clears_everything(openai_backend, settings):
    settings.EMBEDDING_DIM = 48
    assert len(get_embedder().embed(["a"])[0]) == 48
    openai_backend.queue_error(500)
    openai_backend.reset()
    assert openai_backend.requests == [] and openai_backend._queues["chat"] == []


def test_unknown_paths_are_404(fake_openai):
    import httpx

    response = httpx.post(fake_openai.url + "/completions", json={})
    assert response.status_code == 404
