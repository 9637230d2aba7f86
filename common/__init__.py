"""The layer every app builds on and that builds on none of them: the principal context and
row security, the API's errors and request limits, flags and kill switches, the
maintenance schedules, health, and the operator's pages for them.

``core`` (below it) holds what needs no Django app; ``memory`` and the apps above it
register their parts here (schedules, overview figures) without this layer importing them.
"""
