/**
 * Following a `changed_since` feed (memories, operations) to its current end.
 *
 * The service hands out a change more than once while it is recent (at-least-once, so
 * that a write committing late is never skipped) and moves `next_changed_since` only
 * past settled changes (some seconds old). A feed therefore deduplicates by
 * `(id, revision)` and stops when a page brings nothing new; `cursor` then holds where
 * to resume next time. A full page of recent changes would hide the ones after it, so
 * the feed asks again for a larger page (up to the service's maximum) first.
 */

/** From the beginning: the feed takes a time as well as a cursor. */
export const EPOCH = "1970-01-01T00:00:00+00:00";
/** The service's largest page (REVERIE_API_PAGE_MAX, 200 by default). */
export const MAX_PAGE = 200;

export interface Changed {
  readonly id: string;
  readonly revision: number;
}

export type FetchPage<T> = (cursor: string, limit: number) => Promise<{ results: T[]; next: string | null }>;

export function sinceValue(since: string | Date | null | undefined): string {
  if (since === undefined || since === null) return EPOCH;
  return since instanceof Date ? since.toISOString() : since;
}

/** The items changed after `since` (a cursor, a time, or nothing for all): `for await`
 * over it; afterwards `cursor` is the value to pass as `since` next time. */
export class ChangeFeed<T extends Changed> implements AsyncIterable<T> {
  cursor: string;

  constructor(
    private readonly fetchPage: FetchPage<T>,
    since: string | Date | null | undefined,
    readonly pageSize = 50,
  ) {
    this.cursor = sinceValue(since);
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    const seen = new Set<string>();
    let limit = this.pageSize;
    for (;;) {
      const { results, next } = await this.fetchPage(this.cursor, limit);
      for (const item of results) {
        const key = `${item.id}@${item.revision}`;
        if (seen.has(key)) continue;
        seen.add(key);
        yield item;
      }
      if (next !== null && next !== this.cursor) {
        this.cursor = next;
        limit = this.pageSize;
      } else if (results.length === limit && limit < MAX_PAGE) {
        limit = Math.min(MAX_PAGE, limit * 2);
      } else {
        return;
      }
    }
  }
}

/** Every item of an offset-paged list, a page at a time. */
export async function* byOffset<T>(
  fetchPage: (limit: number, offset: number) => Promise<T[]>,
  pageSize: number,
): AsyncGenerator<T> {
  for (let offset = 0; ; offset += pageSize) {
    const page = await fetchPage(pageSize, offset);
    yield* page;
    if (page.length < pageSize) return;
  }
}
