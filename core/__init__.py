"""What every app may import: the error vocabulary (``core.errors``), public id parsing
(``core.ids``), the scope vocabulary (``core.scopes``), querysets compiled once for the
statements of every request (``core.compiled``) and lookups the ORM does not ship
(``core.lookups``).

``core`` imports none of the apps, so that an app below another (``accounts`` below
``memory``) can use these without importing the app above it.
"""
