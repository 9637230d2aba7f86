"""Reconsolidation on the owner review site: the Synthesis and Operations sections.

``review_register`` adds them to ``memory.review.site.review_site`` from the app's
``ready``, with what reads through this app's API routes did on the Access page;
``memory`` never imports this app. Both sections exist only while the
``reconsolidation_surface`` flag is on, and never depend on the processing flag.
"""

# What a read through each of this app's API routes did, for the owner's Access page.
ROUTE_LABELS = {
    "reconsolidation_api:operations": "listed reconsolidation operations",
    "reconsolidation_api:operation": "read a reconsolidation operation",
    "reconsolidation_api:operation-undo-preview": "previewed an undo",
    "reconsolidation_api:derived": "read a derived memory",
    "reconsolidation_api:summary": "read a summary's evidence",
}


def review_register() -> None:
    from common.review.site import ReviewSection
    from memory.review.access import register_route_labels
    from memory.review.site import review_site
    from reconsolidation.models import DerivedMemory, Operation

    from .base import surface_visible
    from .operations import OperationAdmin, operations_card
    from .synthesis import SynthesisAdmin, synthesis_card

    if not review_site.is_registered(DerivedMemory):
        review_site.register(DerivedMemory, SynthesisAdmin)
        review_site.register(Operation, OperationAdmin)
    review_site.add_section(
        ReviewSection(
            slug="synthesis",
            label="Synthesis",
            url_name="review:reconsolidation_derivedmemory_changelist",
            visible=surface_visible,
            card=synthesis_card,
        )
    )
    review_site.add_section(
        ReviewSection(
            slug="operations",
            label="Operations",
            url_name="review:reconsolidation_operation_changelist",
            visible=surface_visible,
            card=operations_card,
        )
    )
    register_route_labels(ROUTE_LABELS)
