from typing import Any

from django.core.management.base import BaseCommand

from memory.demo import demo_seed


class Command(BaseCommand):
    help = "Create the demo owner, operator and conversation (public credentials: demo only)."

    def handle(self, *args: Any, **options: Any) -> None:
        result = demo_seed()
        owner, operator = result["owner"], result["operator"]
        self.stdout.write(f"demo owner:    {owner[0]} / {owner[1]}")
        self.stdout.write(f"demo operator: {operator[0]} / {operator[1]}")
        self.stdout.write(f"demo API token (for {owner[0]}): {result['token']}")
