"""One-time sign-in links: the chat product opens the memory center for its logged-in user.

A link carries the user's id and their last_login at the time it was made, signed with SECRET_KEY
and a timestamp. Using it moves last_login with one conditional UPDATE, so it works once: the second
use (or a concurrent one) no longer matches. A sign-in by any other way, or a newer link used first,
makes older links stale too. No table: nothing to clean up.
"""
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.core import signing
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _

SALT = "memcenter.login-link"


class LoginLinkInvalid(Exception):
    """The message is shown to the person who opened the link."""


@dataclass(frozen=True)
class LoginLink:
    token: str
    expires_at: datetime


def login_link_create(*, user: AbstractBaseUser, now: datetime | None = None) -> LoginLink:
    now = now or timezone.now()
    stamp = user.last_login.isoformat() if user.last_login else ""
    token = signing.dumps({"u": user.pk, "l": stamp}, salt=SALT)
    return LoginLink(token=token, expires_at=now + timedelta(seconds=settings.LOGIN_LINK_SECONDS))


def login_link_use(*, token: str, now: datetime | None = None) -> AbstractBaseUser:
    """The user the link signs in, after spending it; LoginLinkInvalid if it cannot be used."""
    try:
        data = signing.loads(token, salt=SALT, max_age=settings.LOGIN_LINK_SECONDS)
    except signing.SignatureExpired:
        raise LoginLinkInvalid(_("This sign-in link has expired. Open the memory center again from your chat app.")) from None
    except signing.BadSignature:
        raise LoginLinkInvalid(_("This sign-in link is not valid. Open the memory center again from your chat app.")) from None
    if not isinstance(data, dict) or not isinstance(data.get("u"), int) or not isinstance(data.get("l"), str):
        raise LoginLinkInvalid(_("This sign-in link is not valid. Open the memory center again from your chat app."))
    users = get_user_model().objects.filter(pk=data["u"], is_active=True)
    users = users.filter(last_login=parse_datetime(data["l"])) if data["l"] else users.filter(last_login__isnull=True)
    if users.update(last_login=now or timezone.now()) != 1:
        raise LoginLinkInvalid(_("This sign-in link was already used. Open the memory center again from your chat app."))
    return get_user_model().objects.get(pk=data["u"])
