from django.apps import AppConfig


class ProvidersConfig(AppConfig):
    name = "providers"
    verbose_name = "Language-model providers"

    def ready(self) -> None:
        from memory.embeddings import embedder_register

        from . import checks  # noqa: F401  (registers the system checks)
        from .embeddings import remote_embedder_build

        # REVERIE_EMBEDDINGS=remote: memory asks for its embedder without importing this app.
        embedder_register("remote", remote_embedder_build)
