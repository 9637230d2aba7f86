"""The owner review site's shell at ``/review/``; memory's pages fill it (``memory.review``)."""
