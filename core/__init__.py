"""What every app may import: the error vocabulary (``core.errors``), public id parsing
(``core.ids``) and the scope vocabulary (``core.scopes``).

``core`` imports none of the apps, so that an app below another (``accounts`` below
``memory``) can use these without importing the app above it.
"""
