"""The owner review site at ``/review/``: each person's own sessions and memories.

Built on Django's ``AdminSite`` (``site.review_site``). Unlike the operator
admin at ``/admin/``, it admits any active user and shows them only their own
rows; memories change only through action views that call the belief and
account services.
"""
