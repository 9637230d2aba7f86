from typing import Any

from django.core.management.base import BaseCommand

from common.schedules import schedules_sync


class Command(BaseCommand):
    help = "Create or update the maintenance schedules in django-q2 (safe to run on every deploy)."

    def handle(self, *args: Any, **options: Any) -> None:
        for name in schedules_sync():
            self.stdout.write(f"schedule {name}: in place")
