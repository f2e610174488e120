/**
 * A forward-only list read page by page (first/after): the first page when its key changes,
 * "Show more" appends the next. A page that arrives after the key changed is dropped, so a slow
 * answer for the previous session or agent never lands in the current one.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { describeError } from '../../api';

export interface Page<T> {
  edges: { node: T }[];
  pageInfo: { hasNextPage: boolean; endCursor?: string | null };
}

export interface Paged<T> {
  items: T[] | null;
  more: boolean;
  error: string | null;
  loadMore: () => Promise<void>;
  reload: () => Promise<void>;
}

/** `key` null: nothing to read (no agent or session chosen). */
export function usePaged<T>(key: string | null, fetchPage: (after: string | null) => Promise<Page<T>>): Paged<T> {
  const [items, setItems] = useState<T[] | null>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const [more, setMore] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const current = useRef(key);
  current.current = key;

  const load = async (after: string | null) => {
    const asked = key;
    if (asked === null) return;
    try {
      const page = await fetchPage(after);
      if (current.current !== asked) return;
      const nodes = page.edges.map((e) => e.node);
      setItems((old) => (after && old ? [...old, ...nodes] : nodes));
      setCursor(page.pageInfo.endCursor ?? null);
      setMore(page.pageInfo.hasNextPage);
      setError(null);
    } catch (e) {
      if (current.current === asked) setError(describeError(e));
    }
  };
  useEffect(() => {
    setItems(null);
    setMore(false);
    setError(null);
    void load(null);
  }, [key]);

  return { items, more, error, loadMore: () => load(cursor), reload: () => load(null) };
}
