import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
application = get_wsgi_application()

# The certificate checks that flags make inside requests compare digests of the code this
# process runs: read it once, now, rather than in a request.
from evaluation.provenance import code_digests_read  # noqa: E402

code_digests_read()
