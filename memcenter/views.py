"""The memory center: pages where a user sees, judges and truly deletes what is remembered.

Every page is server-rendered and works without JavaScript; htmx swaps one card or the list in
place when it is there (the view renders "page.html#partial" when request.htmx).
"""
import json
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.http import Http404, HttpResponse, QueryDict
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from chat.models import ChatSession, Message
from dreaming.memory import selectors, services
from dreaming.memory.context import count_tokens, memory_md_get
from dreaming.engine.voice import to_second_person
from dreaming.models import Candidate, Memory, MemorySettings
from memcenter.cards import memory_cards_html
from memcenter.exports import user_export
from memcenter.login_links import LoginLinkInvalid, login_link_use
from memcenter.forms import (
    ConfirmForm,
    FeedbackForm,
    MemoryAddForm,
    MemoryEditForm,
    MemoryFilterForm,
    MemorySettingsForm,
    SignupForm,
    signup_enabled,
)

MEMORIES_PER_PAGE = 25


# --- ownership helpers: anything not the user's own is a 404, never a 403 that confirms it exists

def _get_memory_for_user(request, pk: int) -> Memory:
    return get_object_or_404(Memory.objects.select_related("persona"), pk=pk, user=request.user)


def _get_candidate_for_user(request, pk: int) -> Candidate:
    return get_object_or_404(Candidate, pk=pk, user=request.user)


def _get_session_for_user(request, pk: int) -> ChatSession:
    return get_object_or_404(ChatSession.objects.select_related("persona"), pk=pk, user=request.user)


def _whole_number(raw: str | None) -> int | None:
    # str.isdigit() accepts "²" and "①", which int() refuses: parse, and treat a failure as absent.
    try:
        return int(raw) if raw else None
    except ValueError:
        return None


def _next_url(request, default: str) -> str:
    candidate = request.POST.get("next") or request.GET.get("next")
    if candidate and url_has_allowed_host_and_scheme(candidate, {request.get_host()}, request.is_secure()):
        return candidate
    return default


def _card_context(request, memory: Memory) -> dict:
    """One memory refetched with what its card shows (used after every in-place action)."""
    memory = selectors.memory_list_prefetch(
        Memory.objects.filter(pk=memory.pk).select_related("persona").defer("embedding")
    ).get()
    return {"memory": memory, "in_memory_md": selectors.memory_ids_in_documents(user=request.user)}


def _render_card(request, memory: Memory, *, editing_form=None, status=200, note=""):
    context = _card_context(request, memory) | {"edit_form": editing_form, "note": note, "expanded": not request.htmx}
    if request.htmx:
        return render(request, "_memory_card.html", context, status=status)
    return render(request, "memcenter/memory_detail.html", context, status=status)


# --- Memories ---------------------------------------------------------------------------------

def _memory_filters(request, query) -> tuple[MemoryFilterForm, dict]:
    personas = selectors.memory_scopes(user=request.user)
    form = MemoryFilterForm(query or None, personas=personas, initial={"status": "active", "sort": "confidence"})
    return form, form.filters()


@login_required
@require_GET
def memories(request):
    form, filters = _memory_filters(request, request.GET)
    found, by_meaning = selectors.memory_find(user=request.user, **filters)
    page = Paginator(found, MEMORIES_PER_PAGE).get_page(request.GET.get("page"))
    page.object_list = list(page.object_list)
    selectors.memory_card_stamps(page.object_list)
    expanded = request.GET.get("view") == "full"
    context = {
        "form": form,
        "filters": filters,
        "page": page,
        "by_meaning": by_meaning,
        "expanded": expanded,
        "cards": memory_cards_html(request=request, memories=page.object_list, expanded=expanded),
        "memory_enabled": MemorySettings.is_on(user_id=request.user.pk),
        "md_budget": settings.MEMORY_MD_TOKENS,
    }
    # The filter form targets only the list; other htmx requests (boosted links) get the page.
    if request.htmx and request.htmx.target == "memory-list":
        return render(request, "memcenter/memories.html#memory-list", context)
    return render(request, "memcenter/memories.html", context)


def _list_count_after_change(request) -> int | None:
    """How many memories the list the person is looking at holds now (None when not on the list)."""
    current = urlsplit(request.htmx.current_url or "") if request.htmx else None
    if current is None or current.path != reverse("memcenter:memories"):
        return None
    _form, filters = _memory_filters(request, QueryDict(current.query))
    found, _by_meaning = selectors.memory_find(user=request.user, **filters)
    return found.count()


@login_required
@require_GET
def memory_detail(request, pk: int):
    return _render_card(request, _get_memory_for_user(request, pk))


@login_required
@require_POST
def memory_feedback(request, pk: int):
    memory = _get_memory_for_user(request, pk)
    form = FeedbackForm(request.POST)
    if not form.is_valid():
        return _render_card(request, memory, status=400, note=_("Choose agree, doubt or reject."))
    services.feedback_record(memory=memory, by=request.user, verdict=form.cleaned_data["verdict"])
    note = _("Thanks — your verdict is applied at the next deep sleep.")
    if request.htmx:
        return _render_card(request, memory, note=note)
    messages.success(request, note)
    return redirect(_next_url(request, reverse("memcenter:memories") + f"#memory-{memory.pk}"))


@login_required
@require_http_methods(["GET", "POST"])
def memory_edit(request, pk: int):
    memory = _get_memory_for_user(request, pk)
    if request.method == "GET":
        # The person edits their own words ("You have …"); the service stores the canonical form.
        form = MemoryEditForm(initial={"statement": to_second_person(memory.statement), "category": memory.category})
        return _render_card(request, memory, editing_form=form)
    form = MemoryEditForm(request.POST)
    if form.is_valid():
        try:
            services.memory_update_statement(
                memory=memory, by=request.user, statement=form.cleaned_data["statement"],
                category=form.cleaned_data["category"],
            )
        except ValidationError as exc:
            form.add_error("statement", exc)
    if not form.is_valid():
        return _render_card(request, memory, editing_form=form, status=400)
    if request.htmx:
        return _render_card(request, memory, note=_("Saved. This memory is now marked as set by you."))
    messages.success(request, _("Saved. This memory is now marked as set by you."))
    return redirect(reverse("memcenter:memories") + f"#memory-{memory.pk}")


@login_required
@require_http_methods(["GET", "POST"])
def memory_add(request):
    form = MemoryAddForm(request.POST or None)
    form.fields["persona"].queryset = form.fields["persona"].queryset.filter(
        pk__in=[p.pk for p in selectors.memory_scopes(user=request.user)]
    )
    if request.method == "POST" and form.is_valid():
        try:
            memory = services.memory_create_by_user(
                user=request.user, statement=form.cleaned_data["statement"],
                category=form.cleaned_data["category"], persona=form.cleaned_data["persona"],
            )
        except ValidationError as exc:
            form.add_error("statement", exc)
        else:
            messages.success(request, _("Remembered: %(statement)s") % {"statement": to_second_person(memory.statement)})
            return redirect(reverse("memcenter:memories") + f"?sort=recent#memory-{memory.pk}")
    return render(request, "memcenter/memory_add.html", {"form": form}, status=400 if form.errors else 200)


@login_required
@require_http_methods(["GET", "POST"])
def memory_delete(request, pk: int):
    """GET: the confirm page (no-JS path). POST: forget now; htmx gets a receipt in place of the card."""
    memory = _get_memory_for_user(request, pk)
    form = ConfirmForm(request.POST or None)
    near = selectors.memory_near_duplicates(memory=memory)
    # hx-confirm already asked in the browser; a plain form must tick the confirm box.
    confirmed = request.method == "POST" and (request.htmx or form.is_valid())
    if not confirmed:
        return render(request, "memcenter/confirm_delete.html", {
            "form": form, "memory": memory, "near": near,
            "title": _("Forget this memory?"),
            "action": reverse("memcenter:memory_delete", args=[memory.pk]),
            "cancel": reverse("memcenter:memories") + f"#memory-{memory.pk}",
        }, status=400 if request.method == "POST" else 200)
    chosen = set(request.POST.getlist("also"))
    also = [m for m in near if str(m.pk) in chosen]  # only near-duplicates of the user's own, as offered
    receipt = services.memory_forget(memory=memory, by=request.user, also=also)
    if request.htmx:
        still_here = [m for m in near if m.pk not in receipt.memory_ids]
        return render(request, "_forget_receipt.html", {
            "receipt": receipt, "pk": pk, "near": still_here, "list_count": _list_count_after_change(request),
        })
    messages.success(request, _("Forgotten for good. It will not be learned again."))
    return redirect("memcenter:memories")


@login_required
@require_http_methods(["GET", "POST"])
def forget_all(request):
    form = ConfirmForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        receipt = services.memory_forget_all(user=request.user, by=request.user)
        messages.success(request, _("Everything was forgotten: %(n)d memories.") % {"n": receipt.memories})
        return redirect("memcenter:memories")
    return render(request, "memcenter/confirm_delete.html", {
        "form": form, "title": _("Forget everything?"), "counts": selectors.forget_all_counts(user=request.user),
        "explanation": _("Every memory, every candidate, your diary and MEMORY.md are deleted now. "
                         "Your conversations stay. None of it will be learned again."),
        "action": reverse("memcenter:forget_all"), "cancel": reverse("memcenter:settings"),
    }, status=400 if request.method == "POST" else 200)


# --- Pending ----------------------------------------------------------------------------------

@login_required
@require_GET
def pending(request):
    page = Paginator(selectors.candidates_pending(user=request.user), 50).get_page(request.GET.get("page"))
    return render(request, "memcenter/pending.html", {"page": page})


def _candidate_done(request, candidate: Candidate, note: str):
    if request.htmx:
        return render(request, "_candidate_card.html", {"candidate": candidate, "done": note})
    messages.success(request, note)
    return redirect("memcenter:pending")


@login_required
@require_POST
def candidate_confirm(request, pk: int):
    candidate = _get_candidate_for_user(request, pk)
    try:
        services.candidate_confirm(candidate=candidate, by=request.user)
    except ValidationError:
        return _candidate_done(request, candidate, _("This one was already decided."))
    return _candidate_done(request, candidate, _("Remembered."))


@login_required
@require_http_methods(["GET", "POST"])
def candidate_dismiss(request, pk: int):
    """GET: the confirm page (no-JS path). POST: delete the candidate, keep only a tombstone."""
    candidate = _get_candidate_for_user(request, pk)
    form = ConfirmForm(request.POST or None)
    # hx-confirm already asked in the browser; a plain form must tick the confirm box.
    if not (request.method == "POST" and (request.htmx or form.is_valid())):
        if candidate.status != Candidate.Status.PENDING:
            return _candidate_done(request, candidate, _("This one was already decided."))
        return render(request, "memcenter/confirm_delete.html", {
            "form": form, "title": _("Don't remember this?"), "candidate": candidate,
            "explanation": _("It is deleted now and will not be learned from your conversations, "
                             "in these words or others. Your conversations stay."),
            "action": reverse("memcenter:candidate_dismiss", args=[candidate.pk]),
            "cancel": reverse("memcenter:pending") + f"#candidate-{candidate.pk}",
        }, status=400 if request.method == "POST" else 200)
    try:
        services.candidate_dismiss(candidate=candidate, by=request.user)
    except ValidationError:
        return _candidate_done(request, candidate, _("This one was already decided."))
    return _candidate_done(request, candidate, _("Dismissed. It will not be learned."))


# --- Diary and MEMORY.md ----------------------------------------------------------------------

@login_required
@require_GET
def diary(request):
    page = Paginator(selectors.diary_entries(user=request.user), 20).get_page(request.GET.get("page"))
    return render(request, "memcenter/diary.html", {"page": page})


@login_required
@require_GET
def diary_download(request):
    response = HttpResponse(selectors.diary_markdown(user=request.user), content_type="text/markdown; charset=utf-8")
    response["Content-Disposition"] = 'attachment; filename="DREAMS.md"'
    return response


@login_required
@require_GET
def memory_md(request):
    personas = selectors.memory_scopes(user=request.user)
    scope = request.GET.get("scope", "profile")
    persona = next((p for p in personas if str(p.pk) == scope), None)
    if scope != "profile" and persona is None:
        raise Http404("No such scope.")
    document = memory_md_get(user=request.user, persona=persona)
    context = {
        "personas": personas, "scope": scope, "persona": persona, "document": document,
        "budget": settings.MEMORY_MD_TOKENS,
        "tokens": (document.token_count or count_tokens(document.content)) if document else 0,
    }
    return render(request, "memcenter/memory_md.html", context)


# --- Conversations ----------------------------------------------------------------------------

@login_required
@require_GET
def conversations(request):
    page = Paginator(selectors.sessions_for_user(user=request.user), 50).get_page(request.GET.get("page"))
    return render(request, "memcenter/conversations.html", {"page": page})


@login_required
@require_GET
def conversation_detail(request, pk: int):
    session = _get_session_for_user(request, pk)
    highlight = request.GET.get("m")
    quote = request.GET.get("q", "")
    target: Message | None = None
    message_id = _whole_number(highlight)
    if message_id is not None and 0 < message_id < 2**63:
        target = session.messages.filter(pk=message_id).first()
    around = target.seq if target and not request.GET.get("all") else None
    return render(request, "memcenter/conversation.html", {
        "session": session, "messages_list": selectors.session_excerpt(session=session, around_seq=around),
        "target": target, "quote": quote, "is_excerpt": around is not None,
        "taught": selectors.session_taught(session=session),
    })


@login_required
@require_http_methods(["GET", "POST"])
def conversation_delete(request, pk: int):
    session = _get_session_for_user(request, pk)
    form = ConfirmForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        receipt = services.conversation_delete(session=session, by=request.user)
        messages.success(request, _("Conversation deleted, with %(n)d memories that only it had taught.")
                         % {"n": receipt.memories})
        return redirect("memcenter:conversations")
    return render(request, "memcenter/confirm_delete.html", {
        "form": form, "title": _("Delete this conversation?"),
        "explanation": _("Its messages and everything learned only from it are deleted now; "
                         "memories with other evidence lose the quotes taken from it."),
        "action": reverse("memcenter:conversation_delete", args=[session.pk]),
        "cancel": reverse("memcenter:conversations"), "session": session,
        "taught": selectors.session_taught(session=session),
    }, status=400 if request.method == "POST" else 200)


# --- Settings and account ---------------------------------------------------------------------

@login_required
@require_http_methods(["GET", "POST"])
def settings_page(request):
    enabled = MemorySettings.is_on(user_id=request.user.pk)
    time_zone = selectors.memory_time_zone(user=request.user)
    form = MemorySettingsForm(request.POST or None, initial={"enabled": enabled, "time_zone": time_zone})
    if request.method == "POST" and form.is_valid():
        turn_on = form.cleaned_data["enabled"]
        delete = not turn_on and form.cleaned_data.get("existing") == MemorySettingsForm.DELETE
        if delete and not ConfirmForm(request.POST).is_valid():
            return _settings_confirm_delete(request, time_zone=form.cleaned_data["time_zone"])
        services.memory_settings_set(user=request.user, enabled=turn_on, delete_existing=delete,
                                     time_zone=form.cleaned_data["time_zone"])
        if turn_on:
            messages.success(request, _("Memory is on."))
        elif delete:
            messages.success(request, _("Memory is off, and everything remembered was deleted."))
        else:
            messages.success(request, _("Memory is off. What was remembered is kept."))
        return redirect("memcenter:settings")
    return render(request, "memcenter/settings.html", {"form": form, "memory_enabled": enabled})


def _settings_confirm_delete(request, *, time_zone: str):
    """Memory off with "Delete everything now": nothing changes until the user confirms (no-JS or not)."""
    return render(request, "memcenter/confirm_delete.html", {
        "form": ConfirmForm(), "title": _("Turn memory off and delete everything?"),
        "explanation": _("Every memory, every candidate, your diary and MEMORY.md are deleted now, and memory "
                         "is turned off. Your conversations stay. None of it will be learned again."),
        "counts": selectors.forget_all_counts(user=request.user),
        "action": reverse("memcenter:settings"), "cancel": reverse("memcenter:settings"),
        "carry": {"existing": MemorySettingsForm.DELETE, "time_zone": time_zone},
    })


@login_required
@require_GET
def export_download(request):
    data = json.dumps(user_export(user=request.user), ensure_ascii=False, indent=2, default=str)
    response = HttpResponse(data, content_type="application/json; charset=utf-8")
    stamp = timezone.now().strftime("%Y%m%d")
    response["Content-Disposition"] = f'attachment; filename="memcenter-{request.user.get_username()}-{stamp}.json"'
    return response


@require_http_methods(["GET", "POST"])
def signup(request):
    if not signup_enabled():
        raise Http404("Sign-up is turned off.")
    if request.user.is_authenticated:
        return redirect("memcenter:memories")
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, _("Welcome! Memories appear here after your conversations are dreamed over."))
        return redirect("memcenter:memories")
    return render(request, "registration/signup.html", {"form": form}, status=400 if form.errors else 200)


@require_GET
def login_link(request, token: str):
    """Sign in with a one-time link from the chat product, then land on the memory center."""
    try:
        user = login_link_use(token=token)
    except LoginLinkInvalid as exc:
        response = render(request, "registration/login_link_invalid.html", {"reason": str(exc)}, status=400)
    else:
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        response = redirect("memcenter:memories")
    response["Referrer-Policy"] = "no-referrer"  # the token is in this page's address
    return response
