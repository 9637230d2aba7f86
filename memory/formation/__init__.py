"""Automatic memory formation: proposals (candidates), the extractor port and its gates.

The formation service (``memory.services.formation``) owns every decision
about what is written; this package only proposes and checks content.
"""
