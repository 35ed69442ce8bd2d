"""The list page's floor: the same page (filters, paging, layout) with its 25 statements as plain <li>.

Served beside the real site (ROOT_URLCONF = this module) so both go through the same middleware,
the same login and the same queries that find the page's memories; only the cards differ: no card
data (sources, older versions, verdicts, MEMORY.md membership) and no card template.
"""
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.shortcuts import render
from django.urls import path
from django.utils.html import format_html

from dreaming.memory import selectors
from dreaming.models import MemorySettings
from memcenter.urls import urlpatterns as site_urlpatterns
from memcenter.views import MEMORIES_PER_PAGE, _memory_filters


@login_required
def plain_list(request):
    form, filters = _memory_filters(request, request.GET)
    found, by_meaning = selectors.memory_find(user=request.user, **filters)
    page = Paginator(found, MEMORIES_PER_PAGE).get_page(request.GET.get("page"))
    context = {
        "form": form, "filters": filters, "page": page, "by_meaning": by_meaning, "expanded": False,
        "cards": [format_html("<li>{}</li>", memory.statement) for memory in page.object_list],
        "memory_enabled": MemorySettings.is_on(user_id=request.user.pk),
    }
    if request.htmx and request.htmx.target == "memory-list":
        return render(request, "memcenter/memories.html#memory-list", context)
    return render(request, "memcenter/memories.html", context)


urlpatterns = [path("bench/plain-list/", plain_list, name="bench-plain-list"), *site_urlpatterns]
