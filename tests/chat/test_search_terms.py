"""chat.SearchTerm: how many of a user's indexed turns hold each word, kept exact by triggers (migration 0006)."""
import pytest
from django.utils import timezone

from chat.models import ChatSession, Message, SearchTerm
from dreaming.memory.excerpts import excerpts_index
from tests.factories import ChatSessionFactory

pytestmark = pytest.mark.django_db


def counts(user):
    return dict(SearchTerm.objects.filter(user_id=user.pk).values_list("lexeme", "turns"))


def indexed_session(user, *texts):
    now = timezone.now()
    session = ChatSessionFactory(user=user, started_at=now, last_active_at=now, dreamed_at=now, processed_seq=len(texts))
    messages = [Message.objects.create(session=session, seq=i, role="user", content=text, created_at=now)
                for i, text in enumerate(texts, 1)]
    excerpts_index(user_id=user.pk, messages=messages)
    return session, messages


def test_each_word_counts_the_turns_that_hold_it_and_the_owner_token_counts_them_all(user, other_user):
    indexed_session(user, "The pelican ate a pelican.", "A pelican again, and a heron.")
    indexed_session(other_user, "A heron.")

    mine = counts(user)
    assert mine["pelican"] == 2 and mine["heron"] == 1 and mine[f"mcowner{user.pk}"] == 2
    assert counts(other_user)["heron"] == 1


def test_indexing_a_turn_again_does_not_count_it_twice(user):
    _, messages = indexed_session(user, "The pelican ate a fish.")

    excerpts_index(user_id=user.pk, messages=messages)

    assert counts(user)["pelican"] == 1


def test_a_deleted_conversation_leaves_no_word_behind(user):
    kept, _ = indexed_session(user, "A heron.")
    gone, _ = indexed_session(user, "The pelican was named Gustave.")

    ChatSession.objects.filter(pk=gone.pk).delete()

    assert "pelican" not in counts(user) and "gustav" not in counts(user)
    assert counts(user)["heron"] == 1 and counts(user)[f"mcowner{user.pk}"] == 1


def test_a_cleared_search_vector_is_uncounted(user):
    _, (message,) = indexed_session(user, "The pelican ate a fish.")

    Message.objects.filter(pk=message.pk).update(search=None)

    assert counts(user) == {}


def test_words_that_look_like_an_owner_token_count_for_no_one_else(user, other_user):
    indexed_session(user, f"mcowner{other_user.pk} is a funny word.")

    assert counts(other_user) == {}


def test_a_turn_and_a_search_term_print_without_the_users_words(user):
    _, messages = indexed_session(user, "My pelican is called Captain.")

    shown = [str(messages[0])] + [str(term) for term in SearchTerm.objects.filter(user_id=user.pk)]

    assert shown[0] == f"user turn 1 of session {messages[0].session_id}"
    assert not any(word in text.lower() for text in shown for word in ("pelican", "captain"))


def lexemes(message):
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT w.lexeme, w.positions FROM chat_message m, unnest(m.search) w WHERE m.id = %s", [message.pk])
        return dict(cursor.fetchall())


def test_every_lexeme_of_a_turn_carries_its_owner_so_a_word_lists_only_that_users_turns(user, other_user):
    _, (mine,) = indexed_session(user, "The pelican ate a fish.")
    _, (theirs,) = indexed_session(other_user, "A pelican too.")

    found = lexemes(mine)
    assert set(found) == {f"{user.pk}_pelican", f"{user.pk}_ate", f"{user.pk}_fish", f"{user.pk}_mcowner{user.pk}"}
    assert (found[f"{user.pk}_pelican"], found[f"{user.pk}_fish"]) == ([2], [5])  # positions kept
    assert f"{other_user.pk}_pelican" in lexemes(theirs) and f"{user.pk}_pelican" not in lexemes(theirs)
    assert counts(user)["pelican"] == 1 and counts(other_user)["pelican"] == 1


def test_owned_search_quotes_any_lexeme_and_keeps_positions():
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(r"""SELECT w.lexeme, w.positions FROM unnest(chat_owned_search(7, 'o''neil:1,4 a\\b:2 bare'::tsvector)) w
                           ORDER BY 1""")
        assert cursor.fetchall() == [("7_a\\b", [2]), ("7_bare", None), ("7_o'neil", [1, 4])]
        cursor.execute("SELECT chat_owned_search(7, ''::tsvector) = ''::tsvector")
        assert cursor.fetchone() == (True,)
