from datetime import timedelta

import factory
from django.contrib.auth import get_user_model
from django.utils import timezone

from chat.models import ApiKey, ChatSession, Client, ClientUser, Message, Persona
from dreaming.models import Candidate, Category, Memory, MemorySource


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"user{n}")
    email = factory.LazyAttribute(lambda o: f"{o.username}@example.com")
    password = factory.PostGenerationMethodCall("set_password", "pw-for-tests-123")

    @factory.post_generation
    def _save(obj, create, extracted, **kwargs):
        if create:
            obj.save()


class PersonaFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Persona
        django_get_or_create = ("slug",)

    slug = factory.Sequence(lambda n: f"persona-{n}")
    name = factory.LazyAttribute(lambda o: o.slug.title())


class ChatSessionFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = ChatSession

    user = factory.SubFactory(UserFactory)
    external_id = factory.Sequence(lambda n: f"s-{n}")
    started_at = factory.LazyFunction(lambda: timezone.now() - timedelta(hours=2))
    last_active_at = factory.LazyFunction(lambda: timezone.now() - timedelta(hours=1))


class MessageFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Message

    session = factory.SubFactory(ChatSessionFactory)
    seq = factory.Sequence(lambda n: n + 1)
    role = Message.Role.USER
    content = "I have a dog named Milo."
    created_at = factory.LazyAttribute(lambda o: o.session.last_active_at)
    external_id = factory.Sequence(lambda n: f"m-{n}")


class MemoryFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Memory

    user = factory.SubFactory(UserFactory)
    statement = factory.Sequence(lambda n: f"User likes thing number {n}")
    category = Category.PREFERENCE
    confidence = 0.7
    importance = 0.6
    valid_from = factory.LazyFunction(timezone.now)
    first_seen = factory.LazyFunction(timezone.now)
    last_seen = factory.LazyFunction(timezone.now)


class MemorySourceFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = MemorySource

    memory = factory.SubFactory(MemoryFactory)
    message = None
    quote = "I like it"
    said_at = factory.LazyFunction(timezone.now)


class CandidateFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Candidate

    user = factory.SubFactory(UserFactory)
    quote = "I have a dog named Milo"
    statement = "User has a dog named Milo"
    category = Category.FACT
    importance = 0.6
    said_at = factory.LazyFunction(timezone.now)


def api_key_create(name: str = "test-client", client: Client | None = None) -> tuple[ApiKey, str]:
    """A key of `client` (default: a client named like the key)."""
    client = client or Client.objects.get_or_create(name=name)[0]
    secret = ApiKey.generate_secret()
    key = ApiKey.objects.create(client=client, name=name, prefix=secret[:8], hashed_key=ApiKey.hash(secret))
    return key, secret


def client_user(client: Client, username: str, **fields):
    """A user of an API client, as `create_user: true` makes one (internal account name, no password)."""
    user = get_user_model().objects.create_user(
        username=ClientUser.account_username(client=client, username=username), **fields
    )
    ClientUser.objects.create(client=client, username=username, user=user)
    return user


# --- ops: runs and model calls ---------------------------------------------------------------
class DreamRunFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = "dreaming.DreamRun"

    phase = "light"
    status = "ok"
    started_at = factory.LazyFunction(lambda: timezone.now() - timedelta(minutes=5))
    finished_at = factory.LazyAttribute(lambda o: o.started_at + timedelta(seconds=30))


class LLMCallFactory(factory.django.DjangoModelFactory):
    """created_at is auto_now_add: pass `at=` to move a call in time (applied with an UPDATE)."""

    class Meta:
        model = "dreaming.LLMCall"
        skip_postgeneration_save = True

    phase = "light"
    task = "extract"
    model = "gpt-4o-mini"

    @factory.post_generation
    def at(obj, create, extracted, **kwargs):
        if create and extracted is not None:
            type(obj).objects.filter(pk=obj.pk).update(created_at=extracted)
            obj.created_at = extracted


# --- deep: a verified candidate whose quote really is in a stored user message -----------------
def candidate_said(
    *, user, quote: str, statement: str, category: str = "fact", importance: float = 0.6,
    user_initiated: bool = True, said_at=None, session=None, persona=None, message_text: str | None = None,
) -> Candidate:
    """What light sleep leaves behind: a pending, verified candidate citing the user's message."""
    said_at = said_at or timezone.now() - timedelta(hours=2)
    session = session or ChatSessionFactory(
        user=user, persona=persona, started_at=said_at - timedelta(minutes=5), last_active_at=said_at
    )
    message = MessageFactory(session=session, role=Message.Role.USER, content=message_text or quote, created_at=said_at)
    return CandidateFactory(
        user=user, persona=session.persona, session=session, message=message, quote=quote, statement=statement,
        category=category, importance=importance, user_initiated=user_initiated, said_at=said_at,
        status=Candidate.Status.PENDING, verified=True,
    )


# --- center: diary entries and feedback ------------------------------------------------------
class DiaryEntryFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = "dreaming.DiaryEntry"

    user = factory.SubFactory(UserFactory)
    night = factory.LazyFunction(lambda: timezone.now().date())
    narrative = "Tonight I learned that User has a dog named Milo."


class FeedbackFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = "dreaming.Feedback"

    memory = factory.SubFactory(MemoryFactory)
    user = factory.LazyAttribute(lambda o: o.memory.user)
    verdict = "agree"
