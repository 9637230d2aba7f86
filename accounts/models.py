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
    # The owner's choice, and only theirs (the review site; no operator page
    # offers it): nothing of theirs is ever sent to a language model while it
    # is set. Read it through ``accounts.selectors.model_processing_allowed``.
    model_processing_opt_out = models.BooleanField(
        "opted out of model processing", default=False, editable=False
    )

    # django-stubs declares no Meta on AbstractUser; Django's abstract model has one.
    class Meta(AbstractUser.Meta):  # type: ignore[name-defined]
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
    # Set while its owner has paused it: it is refused on every route until
    # resumed, and keeps its secret, name and scope meanwhile.
    paused_at = models.DateTimeField(null=True, blank=True)
    # What the token may reach (memory.reach): every scope of the principal,
    # or "assistant:<slug>" (that assistant's memories and the principal-wide
    # ones); whether it may write; whether recall and lists show memories
    # marked sensitive. Tokens made before these existed reach everything.
    scope = models.CharField(max_length=80, default="principal")
    read_only = models.BooleanField(default=False)
    include_sensitive = models.BooleanField(default=True)

    class Meta:
        verbose_name = "API token"
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"

    @property
    def is_active(self) -> bool:
        return self.revoked_at is None


class OperatorAction(models.Model):
    """What an operator or the machine's administrator did: content-free, written in the
    transaction of the action.

    The owner's own choices about how their data may be processed (opting out
    of model processing) and about their tokens (pausing and resuming one) are
    recorded here too, ``via`` the review site or the API with the owner as
    actor: operators must be able to see why nothing of that account reaches a
    model, or why an assistant is refused, and when that changed.

    Operators read the whole trail in their admin; an owner reads the rows that
    concern their account on the review site. Rows about a principal go with
    that principal's account when it is erased.
    """

    class Action(models.TextChoices):
        TOKEN_ISSUED = "token_issued", "issued an API token"
        TOKEN_ROTATED = "token_rotated", "rotated an API token"
        TOKEN_REVOKED = "token_revoked", "revoked an API token"
        TOKEN_PAUSED = "token_paused", "paused an API token"
        TOKEN_RESUMED = "token_resumed", "resumed an API token"
        PRINCIPAL_ACTIVATED = "principal_activated", "activated the account"
        PRINCIPAL_DEACTIVATED = "principal_deactivated", "deactivated the account"
        PASSWORD_LINK_ISSUED = "password_link_issued", "issued a set-password link"
        FLAG_SET = "flag_set", "set a flag"
        OWNER_CONTENT_READ = "owner_content_read", "read the account's memories from the shell"
        OWNER_CONTENT_CHANGED = (
            "owner_content_changed",
            "acted on the account's memories from the shell",
        )
        MODEL_PROCESSING_OPTED_OUT = (
            "model_processing_opted_out",
            "opted out of model processing",
        )
        MODEL_PROCESSING_ALLOWED = "model_processing_allowed", "allowed model processing"
        ADMIN_LOOKUP_REFUSED = (
            "admin_lookup_refused",
            "was refused a lookup an admin list does not offer",
        )
        SIGN_IN_UNLOCKED = "sign_in_unlocked", "cleared failed sign-ins"

    class Via(models.TextChoices):
        ADMIN = "admin", "operator admin"
        SHELL = "shell", "administrator's shell"
        REVIEW = "review", "owner's review site"
        API = "api", "owner through the API"

    created_at = models.DateTimeField(auto_now_add=True)
    # The operator's account, and their username at the time: the trail stays
    # readable if the operator's account goes.
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    actor_name = models.CharField(max_length=150)
    via = models.CharField(max_length=10, choices=Via.choices)
    action = models.CharField(max_length=30, choices=Action.choices)
    principal = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="operator_actions",
    )
    # Public ids, flag keys, command names: never memory text.
    target = models.CharField(max_length=100, blank=True)
    details = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["principal", "-created_at"])]
        verbose_name = "operator action"

    def __str__(self) -> str:
        return f"{self.actor_name} {self.get_action_display()}"
