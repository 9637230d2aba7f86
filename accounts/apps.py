from typing import Any

from django.apps import AppConfig
from django.apps.registry import Apps
from django.contrib.admin import apps as admin_apps
from django.db.models.signals import post_migrate


class AccountsConfig(AppConfig):
    default = True
    name = "accounts"
    verbose_name = "Principals"

    def ready(self) -> None:
        # After every migrate (and the test runner's flushes): the operator
        # role exists with exactly its permissions.
        post_migrate.connect(_sync_operator_role, dispatch_uid="accounts.operator_role")


class OperatorAdminConfig(admin_apps.AdminConfig):
    """django.contrib.admin with the operator site as ``admin.site``."""

    default = False
    default_site = "accounts.admin_site.OperatorAdminSite"


def _sync_operator_role(
    sender: AppConfig, using: str, apps: Apps | None = None, **kwargs: Any
) -> None:
    from django.apps import apps as global_apps

    from .operators import operator_role_sync

    # post_migrate is sent once per app, in INSTALLED_APPS order, and auth's
    # receiver creates each app's permissions on its turn: on the last app's
    # turn every permission the role names exists, so the role is synced once.
    with_models = [app for app in global_apps.get_app_configs() if app.models_module]
    if sender is with_models[-1]:
        operator_role_sync()
