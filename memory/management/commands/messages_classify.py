from argparse import ArgumentParser
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from memory.services.sensitivity_labels import sensitivity_labels_recompute


class Command(BaseCommand):
    help = (
        "Label every message again by the current sensitivity classifier (after it changed), "
        "and raise the label of every memory it now reads as more sensitive, for every owner "
        "or one; prints how many labels changed, never any text. Each owner whose labels "
        "change sees it in their account's operator trail. The maintenance sweep does the "
        "same, unrecorded, for owners the current classifier has not labelled yet."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("--owner", help="Only this owner's messages (a username).")
        parser.add_argument(
            "--batch", type=int, default=1000, help="Messages read and written at a time."
        )

    def handle(
        self, *args: Any, owner: str | None = None, batch: int = 1000, **options: Any
    ) -> None:
        if batch < 1:
            raise CommandError("--batch must be at least 1")
        principals = get_user_model().objects.order_by("pk")
        if owner is not None:
            principals = principals.filter(username=owner)
            if not principals.exists():
                raise CommandError(f"No principal named {owner!r}.")
        read = changed = raised = owners = 0
        for principal in principals.iterator():
            done = sensitivity_labels_recompute(
                principal=principal, batch_size=batch, from_shell=True
            )
            read += done.messages_read
            changed += done.messages_changed
            raised += done.memories_raised
            owners += bool(done.messages_changed or done.memories_raised)
        self.stdout.write(
            f"messages_classify: {read} message(s) read, {changed} label(s) changed, "
            f"{raised} memory label(s) raised for {owners} owner(s)"
        )
