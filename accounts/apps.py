from django.apps import AppConfig
from django.contrib.admin import apps as admin_apps
from django.db.models.signals import post_migrate


class AccountsConfig(AppConfig):
    default = True
    name = "accounts"
    verbose_name = "Principals"

    def ready(self):
        # After every migrate (and the test runner's flushes): the operator
        # role exists with exactly its permissions.
        post_migrate.connect(_sync_operator_role, dispatch_uid="accounts.operator_role")


class OperatorAdminConfig(admin_apps.AdminConfig):
    """django.contrib.admin with the operator site as ``admin.site``."""

    default = False
    default_site = "accounts.admin_site.OperatorAdminSite"


def _sync_operator_role(sender, using, apps=None, **kwargs):
    from django.apps import apps as global_apps
    from django.contrib.auth.management import create_permissions

    from .operators import operator_role_sync

    # Permissions are made per app by post_migrate too; this may run before
    # some of those apps' turn, so make sure theirs exist first.
    for app_config in global_apps.get_app_configs():
        create_permissions(app_config, verbosity=0, using=using)
    operator_role_sync()
