"""Automatic memory formation: proposals (candidates), the extractor port and its gates.

The formation service (``formation.services``) owns every decision
about what is written; this package only proposes and checks content.
"""
