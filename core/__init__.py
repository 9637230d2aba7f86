"""What every app may import: the error vocabulary (``core.errors``), public id parsing
(``core.ids``), the scope vocabulary (``core.scopes``) and querysets compiled once for the
statements of every request (``core.compiled``).

``core`` imports none of the apps, so that an app below another (``accounts`` below
``memory``) can use these without importing the app above it.
"""
