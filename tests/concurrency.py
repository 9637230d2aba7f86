"""Two workers at once, each on its own database connection, for the race tests."""

import threading

from django.db import connection


def race(work, workers=2):
    """Run ``work()`` in ``workers`` threads released together; return what each returned.

    Each thread gets its own connection (closed when it ends), so the workers
    really are concurrent transactions; an exception in one is re-raised here.
    """
    results, errors, barrier = [], [], threading.Barrier(workers)

    def worker():
        try:
            barrier.wait()
            results.append(work())
        except Exception as error:
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=worker) for _ in range(workers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if errors:
        raise errors[0]
    return results
