"""Synthesis: what reconsolidation derived from the owner's memories, and the owner's controls.

The list shows derived memories by kind with their review state. A derived
memory's page is its evidence journal: the originals it concerns (for a
summary, each claim with the originals that support it and the inputs it
left out), each as it is now, linking to the memory's own page. Every control
goes through a confirmation page that says what happens to the originals
(nothing) and to the generated text, then calls ``derived_control`` with the
revision the owner saw.
"""

import uuid
from typing import Any, NotRequired, TypedDict

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import URLPattern, re_path, reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.text import Truncator

from common.review.base import DefaultChoiceFilter, OwnerAdmin, owner_of
from core.errors import ReverieError
from memory.derived import DerivedView
from memory.models import Belief
from reconsolidation.models import DerivedMemory
from reconsolidation.selectors.derived import (
    derived_awaiting_review,
    derived_controls_available,
    derived_get,
    derived_list,
    derived_promotion_statement,
    derived_receipts,
    derived_sources,
    derived_views,
)
from reconsolidation.selectors.recall import derived_recall_enabled
from reconsolidation.selectors.summaries import summary_detail
from reconsolidation.services.controls import derived_control

from .base import ActionForm, KindFilter, SurfaceOwnerAdmin
from .preview import AssistedPreviewMixin

KIND_LABELS: dict[str, str] = {
    DerivedMemory.Kind.MERGED: "Merge",
    DerivedMemory.Kind.SUMMARY: "Summary",
    DerivedMemory.Kind.HYPOTHESIS: "Hypothesis",
    DerivedMemory.Kind.UNCERTAINTY_NOTICE: "Possible contradiction",
}


# What each control does, as the confirmation page says it: to the generated
# text, and (always) nothing to the originals.
class Control(TypedDict):
    """A control's confirmation page: its question, button, outcome and what it does."""

    title: str
    button: str
    done: str
    text: str
    danger: NotRequired[bool]


CONTROLS: dict[str, Control] = {
    "review": {
        "title": "Mark it reviewed?",
        "button": "Yes, mark it reviewed",
        "done": "The {noun} is marked reviewed.",
        "text": "Only its review state changes. It stays as it is, in recall too.",
    },
    "restrict": {
        "title": "Restrict it?",
        "button": "Yes, restrict it",
        "done": "The {noun} is restricted: its text is withheld and it is out of recall.",
        "text": "It leaves recall: no assistant is told it. Its generated text is withheld from "
        "every read, this site's included, until you lift the restriction. Nothing is erased.",
    },
    "unrestrict": {
        "title": "Lift the restriction?",
        "button": "Yes, lift it",
        "done": "The {noun} is no longer restricted.",
        "text": "Its text shows again, and assistants may be told it again while it is active.",
    },
    "reject": {
        "title": "Reject it?",
        "button": "Yes, reject it",
        "done": "The {noun} is rejected: its generated text is erased.",
        "text": "Its generated text is erased, and Reverie will never derive the same claim "
        "again (for a summary: none of its claims). Its receipt stays in your history.",
        "danger": True,
    },
    "delete": {
        "title": "Delete it?",
        "button": "Yes, delete it",
        "done": "The {noun} is deleted: its generated text is erased.",
        "text": "Its generated text is erased, and Reverie will never derive the same claim "
        "again (for a summary: none of its claims). Its receipt stays in your history.",
        "danger": True,
    },
    "promote": {
        "title": "Make this connection a memory of yours?",
        "button": "Yes, keep it as a memory",
        "done": "The hypothesis is now a memory of yours.",
        "text": "A new memory of yours is created with the words below, stated by you, citing "
        "the messages the hypothesis rests on. The hypothesis is marked promoted and is not "
        "guessed again. Erasing the new memory later works like erasing any other.",
    },
}


def described(view: DerivedView) -> str:
    """A derived memory's text as the owner may read it now."""
    if view["restricted"]:
        return "(restricted: its text is withheld)"
    statement: str = view["statement"]
    return statement or "(erased)"


# What the owner is told while assistants do not receive derived memories.
NOT_IN_RECALL = (
    "Your assistants do not receive derived views now: rereading your memories is switched "
    "off on this Reverie. They stay here for you to read, review or remove."
)


def synthesis_card(request: HttpRequest) -> dict[str, Any]:
    total = derived_list(owner_of(request), statuses=[DerivedMemory.Status.ACTIVE]).count()
    views = f"derived view{'s' if total != 1 else ''}"
    if not derived_recall_enabled():
        return {"count": total, "text": f"{views} kept, not given to your assistants now."}
    waiting = derived_awaiting_review(owner_of(request)).count()
    return {
        "count": total,
        "text": f"{views} in use (merges, summaries, tentative connections, possible "
        f"contradictions); {waiting} not reviewed yet.",
    }


class CurrentFilter(DefaultChoiceFilter):
    """Derived memories in use unless the owner asks for another status."""

    title = "status"
    parameter_name = "status"
    default = DerivedMemory.Status.ACTIVE

    def lookups(
        self, request: HttpRequest, model_admin: "admin.ModelAdmin[Any]"
    ) -> list[tuple[str, str]]:
        return [
            (self.default, "In use"),
            *((value, label) for value, label in DerivedMemory.Status.choices if value != "active"),
            (self.ALL, "All"),
        ]

    def chosen(self, queryset: QuerySet[Any], value: str) -> QuerySet[Any]:
        return queryset.filter(status=value)


class SynthesisAdmin(AssistedPreviewMixin, SurfaceOwnerAdmin):
    list_display = ("kind_label", "what", "state", "review", "updated_at")
    list_display_links = ("what",)
    list_filter = (KindFilter, CurrentFilter, "review_state")
    kind_labels = KIND_LABELS
    ordering = ("-updated_at", "-id")
    change_list_template = "review/reconsolidation/synthesis_list.html"

    def get_queryset(self, request: HttpRequest) -> QuerySet[DerivedMemory]:
        return derived_list(owner_of(request))

    def get_owned(self, request: HttpRequest, object_id: str) -> DerivedMemory:
        return derived_get(owner_of(request), object_id)

    def get_urls(self) -> list[URLPattern]:
        view = self.admin_site.admin_view
        return [
            *self.preview_urls(),
            re_path(
                rf"^(?P<object_id>[^/]+)/(?P<action>{'|'.join(CONTROLS)})/$",
                view(self.control_view),
                name="reconsolidation_derivedmemory_control",
            ),
            *super().get_urls(),
        ]

    @admin.display(description="Kind", ordering="kind")
    def kind_label(self, derived: DerivedMemory) -> str:
        return KIND_LABELS.get(derived.kind, derived.kind)

    @admin.display(description="What it says")
    def what(self, derived: DerivedMemory) -> str:
        if derived.restricted:
            return "(restricted: its text is withheld)"
        return Truncator(derived.statement).chars(140) or "(erased)"

    @admin.display(description="Status", ordering="status")
    def state(self, derived: DerivedMemory) -> str:
        # "Active" would say assistants read it, which they do not while it is out of recall.
        if derived.status == DerivedMemory.Status.ACTIVE and not derived_recall_enabled():
            return "Kept, not given to assistants now"
        return derived.get_status_display()

    @admin.display(description="Review", ordering="review_state")
    def review(self, derived: DerivedMemory) -> str | SafeString:
        if (
            derived.status == DerivedMemory.Status.ACTIVE
            and derived.review_state == "unreviewed"
            and derived_recall_enabled()
        ):
            return format_html('<span class="review-badge">{}</span>', "needs review")
        return derived.get_review_state_display()

    def changelist_view(
        self, request: HttpRequest, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        return super().changelist_view(
            request,
            {
                "title": "Synthesis: what reconsolidation derived",
                "preview_url": self.preview_url(),
                "in_recall": derived_recall_enabled(),
                "not_in_recall": NOT_IN_RECALL,
                **(extra_context or {}),
            },
        )

    def control_url(self, derived: DerivedMemory, action: str) -> str:
        return reverse(
            f"{self.admin_site.name}:reconsolidation_derivedmemory_control",
            args=[derived.public_id, action],
        )

    def journal(self, request: HttpRequest, derived: DerivedMemory) -> dict[str, Any]:
        """The evidence journal's context: claims and their support, or the originals."""
        owner = owner_of(request)
        (view,) = derived_views(owner, [derived])
        memories = self.admin_site.get_model_admin(Belief)
        # Memory's pages, which link a row by its public id.
        assert isinstance(memories, OwnerAdmin)
        originals = derived_sources(owner, view)

        def original(public_id: str, read_revision: int | None = None) -> dict[str, Any]:
            belief = originals.get(public_id)
            return {
                "memory": belief,
                "read_revision": read_revision,
                "url": memories.change_url(belief) if belief is not None else None,
            }

        context: dict[str, Any] = {
            "view": view,
            "kind_label": KIND_LABELS.get(derived.kind, derived.kind),
        }
        if derived.kind == DerivedMemory.Kind.SUMMARY:
            detail = summary_detail(owner, derived.public_id)
            context["claims"] = [
                {
                    **claim,
                    "supports": [
                        original(entry["belief"], entry["read_revision"])
                        for entry in claim["supports"]
                    ],
                }
                for claim in detail["claims"]
            ]
            context["omitted"] = [
                original(entry["belief"], entry["read_revision"]) for entry in detail["omitted"]
            ]
        else:
            context["originals"] = [original(public_id) for public_id in view["memory_ids"]]
        return context

    def change_view(
        self,
        request: HttpRequest,
        object_id: str,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        self.require_surface()
        derived = self.get_object_or_404(request, object_id)
        operations = self.admin_site.get_model_admin(type(derived.operation))
        # The Operations pages, which link a row by its public id.
        assert isinstance(operations, OwnerAdmin)
        return self.render(
            request,
            "review/reconsolidation/derived.html",
            {
                "title": KIND_LABELS.get(derived.kind, derived.kind),
                "derived": derived,
                "operation_url": operations.change_url(derived.operation),
                "controls": [
                    (action, CONTROLS[action], self.control_url(derived, action))
                    for action in derived_controls_available(derived)
                ],
                "receipts": derived_receipts(owner_of(request), derived),
                "in_recall": derived_recall_enabled(),
                "not_in_recall": NOT_IN_RECALL,
                **self.journal(request, derived),
            },
        )

    def control_view(self, request: HttpRequest, object_id: str, action: str) -> HttpResponse:
        """The confirmation page of a control (GET) and the control itself (POST)."""
        self.require_surface()
        if action not in CONTROLS:
            raise Http404
        derived = self.get_object_or_404(request, object_id)
        control = CONTROLS[action]
        if request.method != "POST":
            (view,) = derived_views(owner_of(request), [derived])
            return self.render(
                request,
                "review/reconsolidation/derived_control.html",
                {
                    "title": control["title"],
                    "derived": derived,
                    "view": view,
                    "text": described(view),
                    "action": action,
                    "control": control,
                    "kind_label": KIND_LABELS.get(derived.kind, derived.kind),
                    "back_url": self.change_url(derived),
                    "promotion": derived_promotion_statement(owner_of(request), derived)
                    if action == "promote"
                    else "",
                    "form": ActionForm(
                        initial={
                            "expected_revision": derived.revision,
                            "idempotency_key": f"review-{uuid.uuid4().hex}",
                        }
                    ),
                },
            )
        form = ActionForm(request.POST)
        if not form.is_valid():
            self.message_user(
                request,
                "Nothing was changed: the form did not say which version you saw.",
                messages.ERROR,
            )
            return HttpResponseRedirect(self.change_url(derived))
        statement = (request.POST.get("statement") or "").strip() or None
        try:
            receipt = derived_control(
                principal=owner_of(request),
                derived_id=derived.public_id,
                action=action,
                expected_revision=form.cleaned_data["expected_revision"],
                idempotency_key=form.cleaned_data["idempotency_key"],
                statement=statement if action == "promote" else None,
            )
        except ReverieError as error:
            self.message_user(request, f"Nothing was changed: {error.message}", messages.ERROR)
            return HttpResponseRedirect(self.change_url(derived))
        done = control["done"].format(noun=KIND_LABELS.get(derived.kind, derived.kind).lower())
        if receipt.replayed:
            self.message_user(request, f"That was done already. {done}")
        else:
            self.message_user(request, done, messages.SUCCESS)
        if action == "promote" and "memory" in receipt.result:
            return HttpResponseRedirect(
                reverse(
                    f"{self.admin_site.name}:memory_belief_change",
                    args=[receipt.result["memory"]],
                )
            )
        return HttpResponseRedirect(self.change_url(derived))
