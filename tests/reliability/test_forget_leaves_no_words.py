"""After every way of forgetting — a memory from its page, a pending candidate ("Don't remember"), a
conversation, a memory deleted in Django admin — a pg_dump of the whole database holds none of the
forgotten words outside the user's own chat log, and no log line ever held them."""
import logging
import re
from datetime import timedelta

import pytest
from django.contrib.admin.models import LogEntry
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from chat.models import ChatSession, Message
from dreaming.pipeline.deep import deep_sleep_user
from dreaming.pipeline.light import light_sleep_sweep
from dreaming.models import Candidate, DiaryEntry, Memory
from dreaming.memory.selectors import diary_markdown
from tests.factories import UserFactory, candidate_said

pytestmark = pytest.mark.django_db(transaction=True)

PARROT = "I have a parrot named Zanzibarro"          # forgotten from the memory page
STAMPS = "I collect stamps from Xandravia"            # deleted by staff in admin
THEREMIN = "I play the theremin in Vellowmarsh"       # its conversation is deleted
KEPT = "I work as a baker in Quillabamba"             # must survive everything
PENDING = "User likes Kumquatello jam"                # a pending candidate the user turns down
FORGOTTEN = ("Zanzibarro", "Xandravia", "Vellowmarsh", "Kumquatello")


@pytest.fixture
def every_log_line(caplog):
    for name in ("", "dreaming", "memcenter", "chat", "django", "django_q"):
        caplog.set_level(logging.DEBUG, logger=name)
    return caplog


def _say(user, *sentences, hours_ago=3):
    quiet = timezone.now() - timedelta(hours=hours_ago)
    session = ChatSession.objects.create(user=user, started_at=quiet, last_active_at=quiet)
    for i, sentence in enumerate(sentences):
        Message.objects.create(session=session, seq=2 * i + 1, role="user", content=sentence + ".", created_at=quiet)
        Message.objects.create(session=session, seq=2 * i + 2, role="assistant", content="Tell me more!",
                               created_at=quiet)
    return session


def _dream(user):
    light = light_sleep_sweep(user=user, worker="forget-test")
    deep = deep_sleep_user(user=user, now=timezone.now())
    assert light.status == "ok" and deep.status == "ok", (light.error, deep.error)
    return light


def _outside_chat_log(dump: str) -> str:
    """The dump without the chat_message rows (the user's own words stay theirs to delete)."""
    return re.sub(r"COPY public\.chat_message .*?\n\\\.\n", "", dump, flags=re.S)


def test_every_forgetting_path_leaves_no_forgotten_word_in_a_pg_dump_or_a_log(pg_dump, every_log_line, settings):
    user = UserFactory()
    _say(user, PARROT, STAMPS, KEPT)
    theremin_session = _say(user, THEREMIN)
    _dream(user)
    pending = candidate_said(user=user, quote="Yes, I do", statement=PENDING, category="preference",
                             importance=0.6, user_initiated=False, said_at=timezone.now() - timedelta(hours=3))
    settings.DREAM_PROMOTE_THRESHOLD = 0.99  # tonight nothing is sure enough: it waits in Pending
    _dream(user)
    pending.refresh_from_db()
    assert pending.status == "pending"
    dump = _outside_chat_log(pg_dump(exclude_messages=False))
    for word in FORGOTTEN:  # every word is really held before: the checks below can fail
        assert word in dump, word
    assert all(word in diary_markdown(user=user) for word in ("Zanzibarro", "Xandravia", "Kumquatello"))
    client = Client()
    client.force_login(user)

    # 1. A memory, from its page, without JavaScript: the confirm page first, then the ticked box.
    parrot = Memory.objects.get(user=user, statement__contains="Zanzibarro")
    assert client.post(reverse("memcenter:memory_delete", args=[parrot.pk])).status_code == 400  # not confirmed
    assert Memory.objects.filter(pk=parrot.pk).exists()
    assert client.post(reverse("memcenter:memory_delete", args=[parrot.pk]), {"confirm": "on"}).status_code == 302

    # 2. A pending candidate: "Don't remember".
    assert client.post(reverse("memcenter:candidate_dismiss", args=[pending.pk]), {"confirm": "on"}).status_code == 302

    # 3. A conversation, with the memory only it taught.
    response = client.post(reverse("memcenter:conversation_delete", args=[theremin_session.pk]), {"confirm": "on"})
    assert response.status_code == 302

    # 4. A memory deleted by staff in Django admin.
    staff = Client()
    staff.force_login(UserFactory(is_staff=True, is_superuser=True))
    stamps = Memory.objects.get(user=user, statement__contains="Xandravia")
    assert staff.post(reverse("admin:dreaming_memory_delete", args=[stamps.pk]), {"post": "yes"}).status_code == 302

    dump = pg_dump(exclude_messages=False)
    outside = _outside_chat_log(dump)
    for word in FORGOTTEN:
        assert word not in outside, f"{word!r} survives outside the chat log"
    assert "Vellowmarsh" not in dump  # its conversation is gone too: nowhere at all
    assert "Zanzibarro" in dump and "Xandravia" in dump  # still in the user's own messages, as it should be
    assert "Quillabamba" in outside and Memory.objects.filter(user=user, statement__contains="Quillabamba").exists()
    assert "Quillabamba" in diary_markdown(user=user)  # the night's other lines stay
    assert LogEntry.objects.filter(object_id=str(stamps.pk)).exists()  # admin logged the act, wordlessly
    assert not Candidate.objects.filter(pk=pending.pk).exists()
    for record in every_log_line.records:
        line = record.getMessage()
        for word in FORGOTTEN:
            assert word not in line, f"log line holds {word!r}: {line}"


def test_a_paraphrase_in_another_language_is_not_learned_after_the_forget(pg_dump):
    user = UserFactory()
    _say(user, "I drink an oat latte every morning", KEPT)
    _dream(user)
    latte = Memory.objects.get(user=user, statement__icontains="latte")
    client = Client()
    client.force_login(user)
    client.post(reverse("memcenter:memory_delete", args=[latte.pk]), {"confirm": "on"})

    _say(user, "我每天早上都喝燕麦拿铁", "I have an oat latte each morning", hours_ago=2)
    light = _dream(user)

    assert light.tombstoned_dropped == 2  # both heard, in other words and another language, and refused

    statements = list(Memory.objects.filter(user=user).values_list("statement", flat=True))
    assert not [s for s in statements if "拿铁" in s or "latte" in s.casefold()], statements
    assert not Candidate.objects.filter(user=user, statement__contains="拿铁").exclude(status="dismissed").exists()
    assert "燕麦" not in _outside_chat_log(pg_dump(exclude_messages=False))
    assert not DiaryEntry.objects.filter(user=user, narrative__icontains="latte").exists()


def test_staff_deleting_a_candidate_or_a_conversation_in_admin_leaves_no_word_in_a_pg_dump(pg_dump, settings):
    user = UserFactory()
    _say(user, KEPT)
    theremin_session = _say(user, THEREMIN)
    _dream(user)
    said = timezone.now() - timedelta(hours=3)
    jam, cider = (candidate_said(user=user, quote="Yes, I do", statement=statement, category="preference",
                                 importance=0.6, user_initiated=False, said_at=said)
                  for statement in (PENDING, "User likes Brambleworth cider"))
    settings.DREAM_PROMOTE_THRESHOLD = 0.99  # both wait in Pending, named by tonight's diary
    _dream(user)
    outside = _outside_chat_log(pg_dump(exclude_messages=False))
    assert all(word in outside for word in ("Kumquatello", "Brambleworth", "Vellowmarsh"))
    staff = Client()
    staff.force_login(UserFactory(is_staff=True, is_superuser=True))

    # A candidate from its delete page, another by the list's bulk action, a conversation from its page.
    assert staff.post(reverse("admin:dreaming_candidate_delete", args=[jam.pk]), {"post": "yes"}).status_code == 302
    bulk = {"action": "delete_selected", "_selected_action": [cider.pk], "post": "yes"}
    assert staff.post(reverse("admin:dreaming_candidate_changelist"), bulk).status_code == 302
    session_delete = reverse("admin:chat_chatsession_delete", args=[theremin_session.pk])
    assert staff.post(session_delete, {"post": "yes"}).status_code == 302

    dump = pg_dump(exclude_messages=False)
    outside = _outside_chat_log(dump)
    for word in ("Kumquatello", "Brambleworth", "Vellowmarsh"):
        assert word not in outside, f"{word!r} survives outside the chat log"
    assert "Vellowmarsh" not in dump  # the conversation itself is gone
    assert not Candidate.objects.filter(pk__in=[jam.pk, cider.pk]).exists()
    assert "Quillabamba" in outside  # what nobody deleted stays
    assert LogEntry.objects.filter(object_id=str(jam.pk)).exists()  # logged, wordlessly
