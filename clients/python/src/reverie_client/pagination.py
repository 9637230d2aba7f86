"""Following a ``changed_since`` feed (memories, operations) to its current end.

The service hands out a change more than once while it is recent (at-least-once, so
that a write committing late is never skipped) and moves ``next_changed_since`` only
past settled changes (some seconds old). A feed therefore deduplicates by
``(id, revision)`` and stops when a page brings nothing new; ``cursor`` then holds
where to resume next time. A full page of recent changes would hide the ones after
it, so the feed asks again for a larger page (up to the service's maximum) first.
"""

from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from datetime import UTC, datetime
from typing import Any, Generic, TypeVar

T = TypeVar("T")

# From the beginning: the feed takes a time as well as a cursor.
EPOCH = datetime(1970, 1, 1, tzinfo=UTC).isoformat()

Page = tuple[list[Any], str | None]
# The service's largest page (REVERIE_API_PAGE_MAX, 200 by default).
MAX_PAGE = 200


def _since(since: datetime | str | None) -> str:
    if since is None:
        return EPOCH
    return since.isoformat() if isinstance(since, datetime) else since


class ChangeFeed(Generic[T]):
    """Iterate the items changed after ``since`` (a cursor, a time, or ``None`` for all);
    afterwards ``cursor`` is the value to pass as ``since`` next time.

    ``fetch(cursor, limit)`` returns one page and the next cursor.
    """

    def __init__(
        self,
        fetch: Callable[[str, int], Page],
        since: datetime | str | None = None,
        page_size: int = 50,
    ):
        self._fetch = fetch
        self.cursor = _since(since)
        self.page_size = page_size

    def __iter__(self) -> Iterator[T]:
        seen: set[tuple[str, int]] = set()
        limit = self.page_size
        while True:
            results, following = self._fetch(self.cursor, limit)
            fresh = [item for item in results if (item.id, item.revision) not in seen]
            for item in fresh:
                seen.add((item.id, item.revision))
                yield item
            if following is not None and following != self.cursor:
                self.cursor = following
                limit = self.page_size
            elif len(results) == limit and limit < MAX_PAGE:
                limit = min(MAX_PAGE, limit * 2)
            else:
                return


class AsyncChangeFeed(Generic[T]):
    """``ChangeFeed`` for the asynchronous client: ``async for item in feed``."""

    def __init__(
        self,
        fetch: Callable[[str, int], Awaitable[Page]],
        since: datetime | str | None = None,
        page_size: int = 50,
    ):
        self._fetch = fetch
        self.cursor = _since(since)
        self.page_size = page_size

    async def __aiter__(self) -> AsyncIterator[T]:
        seen: set[tuple[str, int]] = set()
        limit = self.page_size
        while True:
            results, following = await self._fetch(self.cursor, limit)
            fresh = [item for item in results if (item.id, item.revision) not in seen]
            for item in fresh:
                seen.add((item.id, item.revision))
                yield item
            if following is not None and following != self.cursor:
                self.cursor = following
                limit = self.page_size
            elif len(results) == limit and limit < MAX_PAGE:
                limit = min(MAX_PAGE, limit * 2)
            else:
                return
