from django.contrib.auth.decorators import login_required
from django.http import HttpResponse


@login_required
def memories(request):
    return HttpResponse("memory center")
