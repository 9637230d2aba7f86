"""Reconsolidation on the owner review site: the Synthesis and Operations sections.

``review_register`` adds them to ``memory.review.site.review_site`` from the app's
``ready``; ``memory`` never imports this app. Both exist only while the
``reconsolidation_surface`` flag is on, and never depend on the processing flag.
"""


def review_register():
    from common.review.site import ReviewSection
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
