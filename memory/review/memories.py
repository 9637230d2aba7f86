"""The owner's memories: the list, one memory's page and its actions, and the review queue.

Every action parses a form, calls one belief service with the revision the
owner saw, and reports the outcome with ``message_user``. A stale revision
makes the service refuse (``conflict``); the owner is told and nothing changes.
"""

from collections import Counter
from typing import Any, Protocol, cast

from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.db.models import QuerySet
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseNotAllowed,
    HttpResponseRedirect,
)
from django.urls import URLPattern, path, reverse
from django.utils.html import format_html, format_html_join
from django.utils.http import urlencode
from django.utils.text import Truncator

from accounts.models import User
from common.review.base import (
    DefaultChoiceFilter,
    OwnerAdmin,
    fieldset_fields,
    owner_of,
    redirect_back,
)
from core.errors import ReverieError
from core.scopes import SCOPE_PRINCIPAL
from memory.derived import DerivedView, derived_surface
from memory.enums import LIVE_BELIEF_STATUSES, Authority, BeliefStatus
from memory.models import Belief
from memory.selectors.access import memory_readers
from memory.selectors.beliefs import (
    belief_get,
    belief_history,
    belief_list,
    belief_review_queue,
)
from memory.services.beliefs import belief_confirm, belief_correct, belief_delete, belief_reject

from .forms import CorrectionForm, RevisionForm


class _Decision(Protocol):
    """``belief_confirm`` or ``belief_reject``: the owner's decision on a memory at the
    revision they saw (the service checks that it is one)."""

    def __call__(
        self, *, principal: User, belief_id: object, expected_revision: object
    ) -> Belief: ...


def quoted(belief: Belief, limit: int = 80) -> str:
    if belief.status == BeliefStatus.DELETED:
        return "an erased memory"
    return f"“{Truncator(belief.statement).chars(limit)}”"


def memories(count: int) -> str:
    return "1 memory" if count == 1 else f"{count} memories"


def left_alone(count: int) -> str:
    return "It was left as it is." if count == 1 else "They were left as they are."


def awaits_review(belief: Belief) -> bool:
    return belief.status == BeliefStatus.PROVISIONAL or (
        belief.status == BeliefStatus.ACTIVE and belief.needs_review
    )


def belief_origin(belief: Belief) -> str:
    """Why the memory exists, in a sentence or two: who stated it or how Reverie formed it,
    and the owner's words it rests on (the formation policy is among the page's Details)."""
    if belief.status == BeliefStatus.DELETED:
        return "It was erased; only its tombstone remains."
    first = belief.sources.filter(owner=belief.owner_id).order_by("event__occurred_at").first()
    words = f" It rests on your words “{first.excerpt}”" if first and first.excerpt else ""
    if belief.authority == Authority.EXPLICIT:
        return f"You stated it (directly, or through an assistant acting for you).{words}"
    if belief.model_proposed:
        origin = (
            f"A language model proposed it from your words and Reverie's checks accepted it.{words}"
        )
    else:
        origin = f"Reverie formed it on its own.{words}"
    if belief.status == BeliefStatus.PROVISIONAL:
        return f"{origin} It was inferred, so it waits for you to confirm or reject it."
    return origin


def belief_certainty(belief: Belief) -> str:
    """How sure Reverie is of the memory, as the owner reads it."""
    if belief.authority == Authority.EXPLICIT:
        return "Yours: you stated or confirmed it. Nothing Reverie reads later replaces it."
    percent = round(belief.confidence * 100)
    return (
        f"Inferred by Reverie from your conversations, about {percent}% sure. "
        "Confirm it to make it yours."
        if belief.status in LIVE_BELIEF_STATUSES
        else f"Inferred by Reverie from your conversations, about {percent}% sure."
    )


class BeliefPagesAdmin(OwnerAdmin):
    """What the memory list and the review queue share."""

    ordering = ("-updated_at", "-id")
    search_fields = ("statement", "subject")
    search_help_text = "Search the text and the subject of your memories."

    def get_owned(self, request: HttpRequest, object_id: str) -> Belief:
        return belief_get(principal=owner_of(request), belief_id=object_id)

    @admin.display(description="Review", ordering="needs_review")
    def review_badge(self, belief: Belief) -> str:
        # A neutral word, not the admin's red cross: most memories need no review.
        if not awaits_review(belief):
            return ""
        return format_html('<span class="review-badge">{}</span>', "needs review")

    @admin.display(description="Memory", ordering="statement")
    def memory(self, belief: Belief) -> str:
        if belief.status == BeliefStatus.DELETED:
            return "(erased)"
        return Truncator(belief.statement).chars(120)


class StatusFilter(DefaultChoiceFilter):
    """Memories in use (active or provisional) unless the owner asks for another status."""

    title = "status"
    parameter_name = "status"
    LIVE = "live"
    default = LIVE

    def lookups(
        self, request: HttpRequest, model_admin: "admin.ModelAdmin[Any]"
    ) -> list[tuple[str, str]]:
        return [
            (self.LIVE, "In use"),
            *((str(value), label) for value, label in BeliefStatus.choices),
            (self.ALL, "All, erased included"),
        ]

    def chosen(self, queryset: QuerySet[Any], value: str) -> QuerySet[Any]:
        if value == self.LIVE:
            return queryset.filter(status__in=LIVE_BELIEF_STATUSES)
        return queryset.filter(status=value)


class MemoryAdmin(BeliefPagesAdmin):
    """Every memory of the owner, with filters; each memory's page and actions."""

    list_display = ("memory", "type", "status", "review_badge", "sensitivity", "updated_at")
    list_filter = (StatusFilter, "type", "sensitivity", "needs_review")
    # What the owner reads first, in their words; the technical fields (keys, labels,
    # revision, ids, the policy that formed it) under a closed "Details" disclosure.
    fieldsets = (
        ("Where it came from", {"fields": ("origin", "sources", "replaces", "replaced_by")}),
        (None, {"fields": ("statement", "type", "status", "review_badge")}),
        ("How it is held", {"fields": ("how_sure", "sensitivity", "who_reads_it")}),
        (
            "When",
            {
                "fields": (
                    "valid_from",
                    "valid_until",
                    "expires_at",
                    "evidence_at",
                    "created_at",
                    "updated_at",
                    "deleted_at",
                )
            },
        ),
        (
            "Details",
            {
                "classes": ("collapse",),
                "fields": (
                    "subject",
                    "authority",
                    "polarity",
                    "confidence",
                    "portability",
                    "scope",
                    "revision",
                    "formed_under",
                    "public_id",
                ),
            },
        ),
    )
    readonly_fields = fieldset_fields(fieldsets)
    change_list_template = "review/memory/change_list.html"
    change_form_template = "review/memory/change_form.html"

    def get_queryset(self, request: HttpRequest) -> QuerySet[Belief]:
        return belief_list(principal=owner_of(request))

    def get_urls(self) -> list[URLPattern]:
        prefix = f"{self.opts.app_label}_{self.opts.model_name}"
        view = self.admin_site.admin_view
        return [
            path("<str:object_id>/confirm/", view(self.confirm_view), name=f"{prefix}_confirm"),
            path("<str:object_id>/reject/", view(self.reject_view), name=f"{prefix}_reject"),
            path("<str:object_id>/correct/", view(self.correct_view), name=f"{prefix}_correct"),
            *super().get_urls(),
        ]

    def action_url(self, belief: Belief, action: str) -> str:
        opts = self.opts
        return reverse(
            f"{self.admin_site.name}:{opts.app_label}_{opts.model_name}_{action}",
            args=[belief.public_id],
        )

    # The change page's read-only fields that are not model fields.

    @admin.display(description="Why it exists")
    def origin(self, belief: Belief) -> str:
        return belief_origin(belief)

    @admin.display(description="How sure Reverie is")
    def how_sure(self, belief: Belief) -> str:
        return belief_certainty(belief)

    @admin.display(description="Which assistants may read it")
    def who_reads_it(self, belief: Belief) -> str:
        if belief.scope == SCOPE_PRINCIPAL:
            return "Every assistant of yours."
        return f"Only your assistant “{belief.scope.partition(':')[2]}”."

    @admin.display(description="Formation policy")
    def formed_under(self, belief: Belief) -> str:
        # No query for a memory formed by none: the id is on the row.
        return belief.formation.policy_version if belief.formation is not None else "-"

    @admin.display(description="Sources")
    def sources(self, belief: Belief) -> str:
        rows = (
            belief.sources.filter(owner=belief.owner_id)
            .select_related("event__session")
            .order_by("event__occurred_at", "id")
        )
        if not rows:
            return "None: stated directly."
        return format_html(
            "<ul>{}</ul>",
            format_html_join(
                "",
                '<li>{} <a href="{}">(conversation of {})</a></li>',
                (
                    (
                        f"“{row.excerpt}”" if row.excerpt else "(excerpt erased)",
                        self.change_url(row.event.session),
                        row.event.session.created_at.strftime("%Y-%m-%d %H:%M"),
                    )
                    for row in rows
                ),
            ),
        )

    @admin.display(description="Replaces")
    def replaces(self, belief: Belief) -> str:
        return self._link(belief.supersedes)

    @admin.display(description="Replaced by")
    def replaced_by(self, belief: Belief) -> str:
        return self._link(getattr(belief, "superseded_by", None))

    def _link(self, belief: Belief | None) -> str:
        if belief is None:
            return "-"
        return format_html('<a href="{}">{}</a>', self.change_url(belief), quoted(belief))

    def change_context(self, request: HttpRequest, belief: Belief) -> dict[str, Any]:
        live = belief.status in LIVE_BELIEF_STATUSES
        return {
            "title": "Memory",
            "subtitle": None,
            "belief": belief,
            "awaits_review": awaits_review(belief),
            "live": live,
            "erased": belief.status == BeliefStatus.DELETED,
            "can_correct": live,
            "can_delete": belief.status != BeliefStatus.DELETED,
            "confirm_url": self.action_url(belief, "confirm"),
            "reject_url": self.action_url(belief, "reject"),
            "correct_url": self.action_url(belief, "correct"),
            "delete_url": self.action_url(belief, "delete"),
            "history_url": self.action_url(belief, "history"),
            "derived": self._derived_about(request, belief),
            "derived_in_recall": (surface := derived_surface()) is not None and surface.in_recall(),
            "readers": memory_readers(principal=owner_of(request), memory_id=belief.public_id),
        }

    @staticmethod
    def _derived_about(request: HttpRequest, belief: Belief) -> list[DerivedView] | None:
        """What reconsolidation derived from this memory, notices first; nothing while its
        surface is off."""
        surface = derived_surface()
        if surface is None:
            return None
        views = surface.about_memory(owner_of(request), belief)
        return sorted(views, key=lambda view: view["derived_kind"] != "uncertainty_notice")

    def changelist_view(
        self, request: HttpRequest, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        return super().changelist_view(request, {"title": "Your memories", **(extra_context or {})})

    # Confirm and reject: POST only, from the memory's page or the queue.

    def confirm_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        return self._decide(request, object_id, belief_confirm, "confirm", "Confirmed")

    def reject_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        return self._decide(request, object_id, belief_reject, "reject", "Rejected")

    def _decide(
        self, request: HttpRequest, object_id: str, service: _Decision, verb: str, done: str
    ) -> HttpResponse:
        # The method is checked before the id, so that a GET answers the same
        # for anyone's id.
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        belief = self.get_object_or_404(request, object_id)
        form = RevisionForm(request.POST)
        if not form.is_valid():
            self.message_user(
                request,
                f"Could not {verb} the memory: the form did not say which version you saw. "
                "Nothing was changed.",
                messages.ERROR,
            )
            return redirect_back(request, self.change_url(belief))
        try:
            service(
                principal=owner_of(request),
                belief_id=belief.public_id,
                expected_revision=form.cleaned_data["expected_revision"],
            )
        except ReverieError as error:
            self.message_user(
                request,
                f"Could not {verb} the memory: {error.message} Nothing was changed.",
                messages.ERROR,
            )
        else:
            self.message_user(request, f"{done} the memory.", messages.SUCCESS)
        return redirect_back(request, self.change_url(belief))

    def correct_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        """A correction in two steps: write it, then confirm the replacement."""
        belief = self.get_object_or_404(request, object_id)
        context = {"title": "Correct a memory", "belief": belief}
        if request.method != "POST":
            form = CorrectionForm(
                initial={"statement": belief.statement, "expected_revision": belief.revision}
            )
            return self.render(request, "review/memory/correct.html", {**context, "form": form})
        form = CorrectionForm(request.POST)
        if not form.is_valid() or "_edit" in request.POST:
            return self.render(request, "review/memory/correct.html", {**context, "form": form})
        if "_confirm" not in request.POST:
            return self.render(
                request,
                "review/memory/correct_confirm.html",
                {**context, "title": "Replace this memory?", "form": form},
            )
        data = form.cleaned_data
        try:
            new = belief_correct(
                principal=owner_of(request),
                belief_id=belief.public_id,
                expected_revision=data["expected_revision"],
                statement=data["statement"],
            )
        except ReverieError as error:
            self.message_user(
                request,
                f"Could not correct the memory: {error.message} Nothing was changed.",
                messages.ERROR,
            )
            if error.code == "validation_error":
                # The owner's wording was refused; let them fix it in place.
                return self.render(request, "review/memory/correct.html", {**context, "form": form})
            return HttpResponseRedirect(self.change_url(belief))
        self.message_user(
            request, "Corrected: the new version replaces the old one.", messages.SUCCESS
        )
        return HttpResponseRedirect(self.change_url(new))

    def delete_view(
        self, request: HttpRequest, object_id: str, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        """A confirmation page; only its POST erases the memory."""
        belief = self.get_object_or_404(request, object_id)
        if request.method != "POST":
            return self.render(
                request,
                "review/memory/delete_confirmation.html",
                {"title": "Erase this memory?", "belief": belief},
            )
        form = RevisionForm(request.POST)
        if not form.is_valid():
            self.message_user(
                request,
                "Could not erase the memory: the form did not say which version you saw. "
                "Nothing was changed.",
                messages.ERROR,
            )
            return HttpResponseRedirect(self.change_url(belief))
        try:
            belief_delete(
                principal=owner_of(request),
                belief_id=belief.public_id,
                expected_revision=form.cleaned_data["expected_revision"],
            )
        except ReverieError as error:
            self.message_user(
                request,
                f"Could not erase the memory: {error.message} Nothing was changed.",
                messages.ERROR,
            )
            return HttpResponseRedirect(self.change_url(belief))
        # The message names no text: it would outlive the erasure in the
        # message store.
        self.message_user(request, "The memory was erased.", messages.SUCCESS)
        return HttpResponseRedirect(reverse(f"{self.admin_site.name}:memory_belief_changelist"))

    def history_view(
        self, request: HttpRequest, object_id: str, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        try:
            history = belief_history(principal=owner_of(request), belief_id=object_id)
        except ReverieError:
            raise Http404 from None
        return self.render(
            request,
            "review/memory/history.html",
            {
                "title": "History of a memory",
                "belief": history["belief"],
                "versions": [
                    (version, self.change_url(version)) for version in history["versions"]
                ],
                "changes": history["changes"],
            },
        )


class QueueReasonFilter(admin.SimpleListFilter):
    title = "why it is here"
    parameter_name = "reason"

    def lookups(
        self, request: HttpRequest, model_admin: "admin.ModelAdmin[Any]"
    ) -> list[tuple[str, str]]:
        return [("provisional", "Awaiting confirmation"), ("flagged", "Flagged for review")]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        if self.value() == "provisional":
            return queryset.filter(status=BeliefStatus.PROVISIONAL)
        if self.value() == "flagged":
            return queryset.filter(needs_review=True)
        return queryset


class ReviewQueueAdmin(BeliefPagesAdmin):
    """Provisional memories and memories flagged for review, to confirm or reject.

    The review site mounts this at ``queue/`` instead of registering it: a
    model is registered once per site, and a second ``ModelAdmin`` over
    ``Belief`` needs no proxy model (nor a migration) this way. Its rows link
    to the memory pages of ``MemoryAdmin``.
    """

    list_display = ("memory", "type", "status", "sensitivity", "decide")
    list_filter = (QueueReasonFilter, "type", "sensitivity")
    actions = ["confirm_selected", "reject_selected"]
    change_list_template = "review/memory/queue.html"

    def get_queryset(self, request: HttpRequest) -> QuerySet[Belief]:
        return belief_review_queue(principal=owner_of(request))

    def get_urls(self) -> list[URLPattern]:
        return [path("", self.admin_site.admin_view(self.changelist_view), name="review_queue")]

    # Derived memories listed below the queue; the rest are in the Synthesis section.
    DERIVED_SHOWN = 50

    def changelist_view(
        self, request: HttpRequest, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        waiting, total = self.derived_waiting(request, limit=self.DERIVED_SHOWN)
        return super().changelist_view(
            request,
            {
                "title": "Review queue",
                "derived_waiting": waiting,
                "derived_more": total - len(waiting),
                "derived_more_url": self.derived_waiting_url() if total > len(waiting) else "",
                "derived_held_back": self.derived_held_back(request),
                **(extra_context or {}),
            },
        )

    def waiting_counts(self, request: HttpRequest) -> tuple[int, int]:
        """``(memories, derived memories)`` waiting for the owner's decision: what the queue
        lists, for every page that counts it."""
        return self.get_queryset(request).count(), self.derived_waiting(request, limit=0)[1]

    def derived_waiting(self, request: HttpRequest, *, limit: int) -> tuple[list[DerivedView], int]:
        """Derived memories (hypotheses among them) waiting for the owner's decision, at most
        ``limit``, and how many wait in all; none while their surface is off, nor while
        assistants do not receive them (a decision would change nothing they read)."""
        surface = derived_surface()
        if surface is None or not surface.in_recall():
            return [], 0
        return surface.awaiting_review(owner_of(request), limit=limit)

    def derived_held_back(self, request: HttpRequest) -> int:
        """How many derived memories are unreviewed while assistants do not receive any: the
        queue says why it does not ask about them."""
        surface = derived_surface()
        if surface is None or surface.in_recall():
            return 0
        return surface.awaiting_review(owner_of(request), limit=0)[1]

    @staticmethod
    def derived_waiting_url() -> str:
        """The page of every derived memory waiting, as the app that derives them links it
        (none without such an app, which has then none waiting)."""
        surface = derived_surface(whatever_the_surface=True)
        return surface.awaiting_review_url() if surface is not None else ""

    def has_review_permission(self, request: HttpRequest) -> bool:
        return request.user.is_active

    @admin.display(description="Decide")
    def decide(self, belief: Belief) -> str:
        # Buttons of the list's own form (nested forms are not allowed) that
        # post it to the single-memory views instead. The hidden revision is posted
        # with the list, so that a bulk action checks each memory against the
        # revision the owner was shown, not the one it has by then.
        # The site registers memories with MemoryAdmin (``memory.review.site``).
        memories_admin = cast(MemoryAdmin, self.admin_site.get_model_admin(type(belief)))
        back = urlencode({"next": reverse(f"{self.admin_site.name}:review_queue")})
        return format_html(
            '<input type="hidden" name="seen-revision-{}" value="{}">'
            '<button type="submit" class="button" formaction="{}?{}" name="expected_revision" '
            'value="{}">Confirm</button> '
            '<button type="submit" class="button" formaction="{}?{}" name="expected_revision" '
            'value="{}">Reject</button>',
            belief.pk,
            belief.revision,
            memories_admin.action_url(belief, "confirm"),
            back,
            belief.revision,
            memories_admin.action_url(belief, "reject"),
            back,
            belief.revision,
        )

    @admin.action(description="Confirm the selected memories", permissions=["review"])
    def confirm_selected(self, request: HttpRequest, queryset: QuerySet[Belief]) -> None:
        self._decide_many(request, queryset, belief_confirm, "confirmed")

    @admin.action(description="Reject the selected memories", permissions=["review"])
    def reject_selected(self, request: HttpRequest, queryset: QuerySet[Belief]) -> None:
        self._decide_many(request, queryset, belief_reject, "rejected")

    def _decide_many(
        self, request: HttpRequest, queryset: QuerySet[Belief], service: _Decision, done: str
    ) -> None:
        selected = len(request.POST.getlist(helpers.ACTION_CHECKBOX_NAME))
        # Messages name no memory: they travel in a cookie, and the memories
        # that were left alone are still in the queue below them.
        succeeded, acted_on = 0, 0
        failures: Counter[str] = Counter()
        for belief in queryset:
            acted_on += 1
            try:
                service(
                    principal=owner_of(request),
                    belief_id=belief.public_id,
                    expected_revision=self._seen_revision(request, belief),
                )
            except ReverieError as error:
                failures[error.message] += 1
            else:
                succeeded += 1
        if succeeded:
            self.message_user(request, f"{memories(succeeded)} {done}.", messages.SUCCESS)
        for reason, count in sorted(failures.items()):
            self.message_user(
                request,
                f"{memories(count)} could not be {done}: {reason} " + left_alone(count),
                messages.ERROR,
            )
        gone = selected - acted_on
        if request.POST.get("select_across") != "1" and gone > 0:
            # Confirmed, rejected or corrected in another tab since the queue
            # was shown, so no longer in it.
            self.message_user(
                request,
                f"{memories(gone)} no longer waited for review. " + left_alone(gone),
                messages.WARNING,
            )

    def _seen_revision(self, request: HttpRequest, belief: Belief) -> int | str:
        seen = request.POST.get(f"seen-revision-{belief.pk}")
        if seen is None:
            # Rows not on the page (the action ran on "all" across pages) were
            # never shown; their revision now is the one they are acted on at.
            return belief.revision
        try:
            return int(seen)
        except ValueError:
            return seen  # the service refuses it as a validation error
