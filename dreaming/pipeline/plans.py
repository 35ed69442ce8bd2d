"""Plans that a later statement settles: fulfilled ("moving to Tokyo next month" → "User lives in
Tokyo now") or stranded by a move ("User's sister is visiting them in Shanghai next weekend" once the
user lives in Tokyo). Deep sleep supersedes them by the statement that settled them as it promotes it;
weekly consolidation catches the ones said after (a plan told again once it had come true is still
history, not a plan)."""
from __future__ import annotations

import copy
from collections.abc import Callable

from django.db.models import Q

from dreaming.engine import slots
from dreaming.models import Memory, MemorySource
from dreaming.memory.scoring import is_plan


# A superset of scoring.PLAN_WORDS Postgres can test, so a night does not read every memory per promotion.
_PLAN_HINT = Q(statement__iregex=r"plan|will|going to|intend|next|tomorrow|soon|weekend|upcoming|moving") | Q(
    statement__regex=r"打算|计划|准备|将要|下周|下个月|明天|明年|下星期|周末要|即将"
)


def active_plans(*, user, persona_id) -> list[Memory]:
    """The scope's active plans, oldest first, locked (a night keeps them current as it goes: deep.py)."""
    scope = (
        Memory.objects.select_for_update()
        .filter(_PLAN_HINT, user=user, persona_id=persona_id, status=Memory.Status.ACTIVE)
        .defer("embedding", "recall_key")
        .order_by("first_seen", "pk")
    )
    return [m for m in scope if is_plan(m.statement)]


class ActivePlans:
    """A night's view of its user's active plans, scope by scope: read once per scope, then kept
    current as the night makes memories and supersedes them, instead of read again per promotion.
    `unwritten` gives the memories the night made but has not written yet (all active: a memory is
    written before it is superseded); a read adds its scope's plans among them. A change it does not
    follow (a memory's wording or dates) drops the scope, read again when next asked."""

    def __init__(self, *, user, unwritten: Callable[[], list[Memory]]):
        self.user = user
        self._unwritten = unwritten
        self._scopes: dict[int | None, list[Memory]] = {}

    def of(self, persona_id: int | None) -> list[Memory]:
        if persona_id not in self._scopes:
            self._scopes[persona_id] = active_plans(user=self.user, persona_id=persona_id)
            for memory in self._unwritten():
                if memory.persona_id == persona_id:
                    self.added(memory)
        return self._scopes[persona_id]

    def added(self, memory: Memory) -> None:
        """A new active memory (a plan joins its scope; is_plan implies _PLAN_HINT)."""
        plans = self._scopes.get(memory.persona_id)
        if plans is not None and is_plan(memory.statement) and all(p.pk != memory.pk for p in plans):
            # Its own instance, as a read would give: superseding the plan must not touch the new memory.
            plans.append(copy.copy(memory))
            plans.sort(key=lambda m: (m.first_seen, m.pk))

    def gone(self, memory: Memory) -> None:
        """The memory is no longer active."""
        for persona_id, plans in self._scopes.items():
            self._scopes[persona_id] = [p for p in plans if p.pk != memory.pk]

    def changed(self, memory: Memory) -> None:
        """The memory's wording or dates changed."""
        self._scopes.pop(memory.persona_id, None)


def plans_settled_by(
    *, memory: Memory, replaced: Memory | None = None, plans: ActivePlans | None = None,
) -> list[tuple[Memory, str]]:
    """The active plans of the memory's scope that it settles, each with the reason: the plans it
    fulfils, and, when it replaced where the user lives, the plans that were to happen there.
    `plans`: the caller's running view of the active plans (else they are read)."""
    facts = slots.facts_of(memory.statement)
    if facts.plan or (replaced is None and not (facts.things or facts.names)):
        return []  # nothing a plan could be waiting for
    scope = plans.of(memory.persona_id) if plans is not None else active_plans(user=memory.user, persona_id=memory.persona_id)
    settled = []
    for plan in scope:
        if plan.pk == memory.pk or plan.first_seen > memory.last_seen:
            continue  # itself, or a plan made after the fact (a new plan)
        if slots.fulfils(memory.statement, plan.statement):
            settled.append((plan, f"fulfilled: '{memory.statement}'"))
        elif replaced is not None and slots.stranded_by_move(plan.statement, old_place=replaced.statement):
            settled.append((plan, f"the user no longer lives where it was to happen: '{memory.statement}'"))
    return settled


def plans_settle(*, user) -> list[tuple[Memory, Memory, str]]:
    """(plan, settling memory, reason) for every active plan an active later memory fulfils."""
    actives = list(
        Memory.objects.select_for_update()
        .filter(user=user, status=Memory.Status.ACTIVE)
        .defer("embedding")
        .order_by("first_seen", "pk")
    )
    plans = [m for m in actives if is_plan(m.statement)]
    if not plans:
        return []
    facts = [m for m in actives if not is_plan(m.statement)]
    found = []
    for plan in plans:
        for memory in facts:
            if memory.persona_id == plan.persona_id and memory.last_seen >= plan.first_seen and slots.fulfils(
                memory.statement, plan.statement
            ):
                found.append((plan, memory, f"fulfilled: '{memory.statement}'"))
                break
    return found


def plan_sources_carry(*, plan: Memory, memory: Memory) -> None:
    """The fulfilled plan becomes the event: the memory that fulfilled it keeps the plan's evidence
    too ("when did they plan the move?" is answered from it), the first and the newest, MAX_SOURCES in all."""
    have = {(s.message_id, s.quote) for s in memory.sources.all()}
    MemorySource.objects.bulk_create([
        MemorySource(memory=memory, message_id=s.message_id, quote=s.quote, said_at=s.said_at)
        for s in plan.sources.all() if (s.message_id, s.quote) not in have
    ])
    everything = list(memory.sources.order_by("said_at", "pk"))
    if len(everything) > Memory.MAX_SOURCES:
        extra = everything[1 : len(everything) - (Memory.MAX_SOURCES - 1)]
        MemorySource.objects.filter(pk__in=[s.pk for s in extra]).delete()


def jobs_replaced_by(*, job: Memory, before) -> list[tuple[Memory, str]]:
    """The scope's active memories of a job the user had before `before`, that `job` (a planned job that began:
    engine.plans_due) replaces, each with the reason."""
    held = (
        Memory.objects.select_for_update()
        .filter(user=job.user, persona_id=job.persona_id, status=Memory.Status.ACTIVE, first_seen__lt=before)
        .exclude(pk=job.pk)
        .defer("embedding", "recall_key")
    )
    return [(m, why) for m in held if (why := slots.single_valued_change(job.statement, m.statement))]
