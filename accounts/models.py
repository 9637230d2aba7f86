import uuid

from django.contrib.auth.models import AbstractUser
from django.db import models


class User(AbstractUser):
    """A principal: the person memories are about, who owns them.

    Operators are principals with ``is_staff``; being staff never grants access
    to another principal's memories.
    """

    public_id = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)

    class Meta(AbstractUser.Meta):
        swappable = "AUTH_USER_MODEL"
        verbose_name = "principal"
        verbose_name_plural = "principals"
