from django.db import models


class Certificate(models.Model):
    """Evidence that a capability met its thresholds, bound to the code and data it was met with.

    Content-free: metrics and digests only. A certificate matches while the
    capability's policy version and the digest of its policy code are still
    the ones it was issued for; any change to that code needs a new one.
    """

    capability = models.CharField(max_length=60)
    arm = models.CharField(max_length=60)
    policy_version = models.CharField(max_length=60)
    code_digest = models.CharField(max_length=64)
    dataset_digest = models.CharField(max_length=64)
    # For a capability that calls a provider: the server, model, prices and privacy
    # settings it was evaluated with ("" for the others), as one string. Another of any
    # of them needs a new certificate.
    provider_binding = models.CharField(max_length=400, blank=True, default="")
    # The same terms one by one ({"base_url", "model", "input_price", "output_price",
    # "privacy"}; {} for a capability that calls no provider), so that a refusal can say
    # which of them changed.
    provider_terms = models.JSONField(default=dict, blank=True)
    results_digest = models.CharField(max_length=64)
    metrics = models.JSONField()
    thresholds = models.JSONField()
    issued_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [models.Index(fields=["capability", "policy_version", "code_digest"])]

    def __str__(self) -> str:
        return f"{self.capability} ({self.policy_version}, {self.code_digest[:12]})"
