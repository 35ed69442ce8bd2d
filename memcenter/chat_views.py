"""The chat page: talk to a persona (or the assistant in general) with memory in context.

Works without JavaScript (the form posts and redirects back to the conversation); with htmx the
form swaps the conversation block in place ("chat/chat.html#conversation").
"""
from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from chat.models import ChatSession, Persona
from dreaming.memory import selectors
from chat.services import PayloadTooLarge, message_check_size
from dreaming.memory.context import memory_md_get
from dreaming.models import MemorySettings
from memcenter.assistant import chat_reply, chat_session_current


class ChatForm(forms.Form):
    message = forms.CharField(strip=True, widget=forms.Textarea(attrs={"rows": 3, "maxlength": settings.API_MAX_MESSAGE_CHARS}))
    persona = forms.SlugField(required=False)
    session = forms.IntegerField(required=False, min_value=1)

    def clean_message(self) -> str:
        text = self.cleaned_data["message"]
        try:
            message_check_size(content=text, where=_("Your message"))
        except PayloadTooLarge as exc:
            raise forms.ValidationError(str(exc)) from None
        return text


def _get_session_for_user(request, pk) -> ChatSession:
    """Anyone else's session is a 404, never a 403 that confirms it exists."""
    session = ChatSession.objects.select_related("persona").filter(pk=pk, user=request.user).first()
    if session is None:
        raise Http404("No such conversation.")
    return session


def _persona_from_slug(request, slug: str) -> Persona | None:
    """One of the personas this user talks to (or has memories with); anyone else's is a 404."""
    if not slug:
        return None
    persona = next((p for p in selectors.memory_scopes(user=request.user) if p.slug == slug), None)
    if persona is None:
        raise Http404("No such persona.")
    return persona


def _context(request, *, persona: Persona | None, session: ChatSession | None, form: ChatForm | None = None, error: str = "") -> dict:
    document = memory_md_get(user=request.user, persona=persona)
    initial = {"persona": persona.slug if persona else "", "session": session.pk if session else None}
    # Only the personas this user has met (and the one asked for): a new user sees no one else's demo persona.
    personas = selectors.memory_scopes(user=request.user)
    if persona is not None and persona not in personas:
        personas.append(persona)
    return {
        "personas": personas,
        "memory_on": MemorySettings.is_on(user_id=request.user.pk),
        "persona": persona,
        "session": session,
        "turns": list(session.messages.order_by("seq")) if session else [],
        "form": form or ChatForm(initial=initial),
        "document": document,
        "error": error,
    }


@login_required
@require_GET
def chat_page(request):
    persona = _persona_from_slug(request, request.GET.get("persona", ""))
    session = None if request.GET.get("new") else chat_session_current(user=request.user, persona=persona)
    return render(request, "chat/chat.html", _context(request, persona=persona, session=session))


@login_required
@require_GET
def chat_session(request, pk: int):
    session = _get_session_for_user(request, pk)
    return render(request, "chat/chat.html", _context(request, persona=session.persona, session=session))


@login_required
@require_POST
def chat_send(request):
    form = ChatForm(request.POST)
    if not form.is_valid():
        persona = _persona_from_slug(request, request.POST.get("persona", "")) if "persona" not in form.errors else None
        session_pk = form.cleaned_data.get("session") if "session" not in form.errors else None
        session = _get_session_for_user(request, session_pk) if session_pk else None
        context = _context(request, persona=persona, session=session, form=form)
        if request.htmx:  # htmx does not swap 4xx responses by default: the errors must arrive as a 200
            return render(request, "chat/chat.html#conversation", context)
        return render(request, "chat/chat.html", context, status=400)

    persona = _persona_from_slug(request, form.cleaned_data["persona"])
    session = _get_session_for_user(request, form.cleaned_data["session"]) if form.cleaned_data["session"] else None
    if session is not None and session.persona_id != (persona.pk if persona else None):
        raise Http404("No such conversation.")
    turn = chat_reply(user=request.user, persona=persona, text=form.cleaned_data["message"], session=session)
    error = _("The chat model is unavailable right now (%(reason)s). Your message is saved.") % {"reason": turn.error} if turn.error else ""
    if request.htmx:
        return render(request, "chat/chat.html#conversation", _context(request, persona=persona, session=turn.session, error=error))
    if error:
        messages.error(request, error)
    return redirect(reverse("chat:session", args=[turn.session.pk]) + "#composer")
