"""The owner's preview of model-assisted reconsolidation: what would be sent to a language model
now, read from their own memories and messages, sending and writing nothing.

It is a page of the Synthesis section, so it exists only while the surface is
on. It takes no owner from the request: it prepares the signed-in user's own
requests, so nobody, an operator included, can preview another owner's.
"""

from collections.abc import Callable
from typing import Any, Protocol

from django.contrib.admin import AdminSite
from django.http import HttpRequest
from django.template.response import TemplateResponse
from django.urls import URLPattern, re_path, reverse

from common.review.base import owner_of
from providers.config import provider_config
from reconsolidation.assisted.preparation import Budget
from reconsolidation.selectors.preview import RequestPreview, assisted_preview_get

# What each request is for, in the owner's words; a stage missing here shows its key.
STAGE_TITLES = {
    "merge": (
        "Merging memories worded differently",
        "Reverie asks which of your memories state one claim in different words, so that they "
        "can be shown as one. Each memory goes with the messages of yours it came from.",
    ),
    "topic": (
        "Summarising memories about one topic",
        "Reverie asks which of your memories about different things are about one topic, "
        "named in your own words, so that one summary can show them together. Only the "
        "memories go in this request; a second request, to check a proposed topic, shows "
        "the messages of yours they came from.",
    ),
}
# A stage's own sentence for a deferral, where the general one does not fit.
STAGE_DEFERRALS = {
    ("topic", "nothing_to_ask"): "There is nothing to ask: fewer than three of your memories "
    "that may be sent are outside a summary already.",
}

# Why nothing would be sent (the closed codes of preparation's ``deferred``).
DEFERRALS = {
    "not_configured": "No language-model provider is configured on this server, so there is "
    "nowhere to send anything.",
    "opted_out": "You opted out of model processing, so nothing of yours is sent to a language "
    "model. You can change that on the Language models page of your account.",
    "residency_unknown": "The provider does not say where it processes requests in a way the "
    "server's sharing policy accepts, so nothing is sent to it.",
    "nothing_to_ask": "There is nothing to ask: no two of your memories that may be sent state "
    "what could be one claim in different words.",
    "input_too_large": "The request would be larger than one request may be ({input_bytes} "
    "bytes), so it is not sent at all.",
    "over_budget": "The request could cost more than one request may (${usd}), so it is not "
    "sent at all.",
}
DEFERRED_OTHERWISE = "Nothing would be sent now (reason: {code})."

# What was left out, by reason (the closed codes of preparation and the candidate rules).
# Each is counted as the sentence says: memories, messages or pairs of memories.
EXCLUSIONS = {
    "egress_denied": "Memories that the server's sharing policy keeps here, because of how "
    "sensitive or how private they are.",
    "classification_unknown": "Memories whose sensitivity or portability is not known: unknown "
    "means they stay.",
    "instruction_shaped": "Memories worded like an instruction to an assistant: they are never "
    "sent.",
    "no_owner_message": "Memories with no message of yours that may go with them: a memory is "
    "sent only with your own words as its evidence.",
    "message_not_owners": "Messages that are not your own words: the assistant's replies, tool "
    "output, captions, or messages you erased.",
    "message_too_long": "Messages of yours too long to send whole: a message is never cut, so "
    "it is not sent.",
    "message_instruction_shaped": "Messages of yours worded like an instruction to an assistant.",
    "message_egress_denied": "Messages of yours that the sharing policy keeps here, because "
    "something in them is sensitive.",
    "anchors_differ": "Pairs of memories that differ in a name, number, negation, qualifier, "
    "stance or tense: they say different things, so a model is never asked about them.",
    "order_differs": "Pairs of memories that name the same people in a different order "
    "(“Ann called Ben”, “Ben called Ann”).",
    "unrelated": "Pairs of memories that share too few words to be worth asking about.",
    "single_valued": "Pairs of memories about something that holds one value at a time (a "
    "setting you prefer, say): two wordings there are two values, never one claim.",
}
EXCLUDED_OTHERWISE = "Left out for another reason ({code})."


def _described(entry: RequestPreview, budget: Budget) -> dict[str, Any]:
    """``entry`` (a request from ``assisted_preview_get``) with its sentences."""
    title, purpose = STAGE_TITLES.get(entry["key"], (entry["key"], ""))
    deferred = ""
    if entry["deferred"]:
        sentence = STAGE_DEFERRALS.get((entry["key"], entry["deferred"])) or DEFERRALS.get(
            entry["deferred"], DEFERRED_OTHERWISE
        )
        deferred = sentence.format(
            code=entry["deferred"], input_bytes=budget.input_bytes, usd=budget.usd
        )
    return {
        **entry,
        "title": title,
        "purpose": purpose,
        "deferred_text": deferred,
        "excluded": [
            (code, count, EXCLUSIONS.get(code, EXCLUDED_OTHERWISE.format(code=code)))
            for code, count in entry["excluded"]
        ],
        "items": sum(len(block["items"]) for block in entry["blocks"]),
    }


class _Admin(Protocol):
    """What the mixin needs of the admin it is mixed into (``SurfaceOwnerAdmin``)."""

    @property
    def admin_site(self) -> AdminSite: ...
    @property
    def assisted_preview_view(self) -> Callable[[HttpRequest], TemplateResponse]: ...
    def require_surface(self) -> None: ...
    def render(
        self, request: HttpRequest, template: str, context: dict[str, Any]
    ) -> TemplateResponse: ...


class AssistedPreviewMixin:
    """The Synthesis section's ``model-preview/`` page (mixed into its admin)."""

    def preview_urls(self: _Admin) -> list[URLPattern]:
        return [
            re_path(
                r"^model-preview/$",
                self.admin_site.admin_view(self.assisted_preview_view),
                name="reconsolidation_derivedmemory_model_preview",
            )
        ]

    def preview_url(self: _Admin) -> str:
        return reverse(f"{self.admin_site.name}:reconsolidation_derivedmemory_model_preview")

    def assisted_preview_view(self: _Admin, request: HttpRequest) -> TemplateResponse:
        self.require_surface()
        preview = assisted_preview_get(owner_of(request), config=provider_config())
        requests = [_described(entry, preview["budget"]) for entry in preview["requests"]]
        return self.render(
            request,
            "review/reconsolidation/model_preview.html",
            {
                "title": "What would be sent to a language model",
                **preview,
                "requests": requests,
                # Whether any request would send something: the page says what follows.
                "sendable": any(not entry["deferred"] for entry in requests),
            },
        )
