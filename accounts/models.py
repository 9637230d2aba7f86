import uuid

from django.conf import settings
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


class ApiToken(models.Model):
    """A credential an assistant runtime uses to act for one principal.

    Content-free and outside row-level security: authentication must find the
    principal before any principal is set. Only a SHA-256 digest of the secret
    is stored; the secret itself is shown once, when the token is created.
    """

    public_id = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    principal = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens"
    )
    name = models.CharField(max_length=100)
    # The first characters of the secret, to tell tokens apart in listings.
    prefix = models.CharField(max_length=16)
    digest = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = "API token"
        ordering = ["-created_at", "-id"]

    def __str__(self):
        return f"{self.name} ({self.prefix}…)"

    @property
    def is_active(self):
        return self.revoked_at is None
