"""gunicorn for Reverie's web processes (deploy/serve.sh).

Settings come from the environment so that one file serves every host:
REVERIE_BIND (127.0.0.1:8000), WEB_CONCURRENCY (2 worker processes),
REVERIE_THREADS (4 threads each) and FORWARDED_ALLOW_IPS (the proxy's address,
127.0.0.1), whose X-Forwarded-* headers gunicorn then trusts. Django reads the
client's address from the same proxy's X-Forwarded-For only when it is in
REVERIE_TRUSTED_PROXIES too.
"""

import gc
import os

bind = os.environ.get("REVERIE_BIND", "127.0.0.1:8000")
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
# Threads let a worker keep several keep-alive connections of an assistant
# runtime open while it waits on the database.
worker_class = "gthread"
threads = int(os.environ.get("REVERIE_THREADS", "4"))
keepalive = 5
timeout = 30
graceful_timeout = 10
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")
# No access log: request paths carry owners' memory and session ids. Errors
# go to stderr.
accesslog = None
errorlog = "-"
loglevel = os.environ.get("LOG_LEVEL", "info").lower()


def post_worker_init(worker):
    """Put what the worker loaded (Django, the apps, their modules) out of the cycle
    collector's reach once the application is ready. It lives as long as the worker, and
    a full collection would otherwise walk all of it: a pause of tens of milliseconds in
    whichever request sets one off (docs/benchmarks.md, API load)."""
    gc.freeze()
