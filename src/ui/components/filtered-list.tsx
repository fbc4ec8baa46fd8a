import { useEffect, useRef, useState, type RefObject } from 'react';

/** Rows shown at first and added by each "Show more": opening a list of thousands builds only these. */
export const ROWS_PER_PAGE = 100;
/** From this many items a list has a filter box. */
export const FILTER_FROM = 20;

export interface FilteredPage<T> {
  readonly filter: string;
  readonly setFilter: (text: string) => void;
  /** The items the filter matches. */
  readonly matching: readonly T[];
  /** The first page(s) of them, with the items `keep` holds wherever they are (first, or after the page). */
  readonly visible: readonly T[];
  /** Matching items shown. */
  readonly shown: number;
  /** Matching items not shown yet. */
  readonly more: number;
  readonly showMore: () => void;
}

export interface FilteredPageOptions<T> {
  /** Items shown beyond the page too (one being edited, the chosen ones); it is told the filter, lowercased. */
  readonly keep?: (item: T, filter: string) => boolean;
  /** The kept items go before the page rather than after it. */
  readonly keptFirst?: boolean;
  /** Called as the filter text changes. */
  readonly onFilterChange?: () => void;
}

/**
 * A long list shown a page at a time and filtered by text: an item matches when one of its texts holds the filter,
 * ignoring case.
 */
export function useFilteredPage<T>(
  items: readonly T[],
  textsOf: (item: T) => readonly string[],
  { keep, keptFirst = false, onFilterChange }: FilteredPageOptions<T> = {},
): FilteredPage<T> {
  const [filter, setFilterText] = useState('');
  const [pageSize, setPageSize] = useState(ROWS_PER_PAGE);
  const wanted = filter.trim().toLowerCase();
  const matches = (item: T) => textsOf(item).some((text) => text.toLowerCase().includes(wanted));
  const matching = wanted === '' ? items : items.filter(matches);
  const kept = keep ? items.filter((item) => keep(item, wanted)) : [];
  const keptSet = new Set(kept);
  // First, the kept items lead and the page is of the others; else the page keeps its order, the rest kept after it.
  const page = keptFirst
    ? matching.filter((item) => !keptSet.has(item)).slice(0, pageSize)
    : matching.slice(0, pageSize);
  const pageSet = new Set(page);
  const extra = keptFirst ? kept : kept.filter((item) => !pageSet.has(item));
  const shown = page.length + (wanted === '' ? extra.length : extra.filter(matches).length);
  return {
    filter,
    setFilter: (text) => {
      setFilterText(text);
      setPageSize(ROWS_PER_PAGE);
      onFilterChange?.();
    },
    matching,
    visible: keptFirst ? [...extra, ...page] : [...page, ...extra],
    shown,
    more: Math.max(0, matching.length - shown),
    showMore: () => setPageSize((n) => n + ROWS_PER_PAGE),
  };
}

/**
 * The filter box (from FILTER_FROM items), and a status line that says how many match (or that none does), present
 * before it has text so that screen readers announce it.
 */
export function ListFilter<T>({
  page,
  total,
  label,
  placeholder,
  noun,
  noMatch,
}: {
  page: FilteredPage<T>;
  total: number;
  label: string;
  placeholder: string;
  /** What the items are, in the plural ("tools"). */
  noun: string;
  noMatch: (filter: string) => string;
}) {
  // Kept while it has text, even when the list has shrunk below FILTER_FROM: its filter still applies.
  if (total < FILTER_FROM && page.filter === '') return null;
  const filter = page.filter.trim();
  const count = page.matching.length;
  return (
    <>
      <input
        type="search"
        className="list-filter"
        aria-label={label}
        placeholder={placeholder}
        value={page.filter}
        onChange={(event) => page.setFilter(event.target.value)}
      />
      <p className="muted field-hint list-filter-status" role="status">
        {filter === '' ? '' : count === 0 ? noMatch(filter) : `${count} of ${total} ${noun} match.`}
      </p>
    </>
  );
}

/**
 * "Showing 100 of 500 tools. Show 100 more", under a list (`list`) with more matching items than it shows. The focus
 * then goes to the first row shown by it (the button may be gone, and the rows come above it).
 */
export function ShowMore<T>({
  page,
  noun,
  list,
}: {
  page: FilteredPage<T>;
  noun: string;
  list: RefObject<HTMLElement | null>;
}) {
  const firstNew = useRef<number>(undefined);
  useEffect(() => {
    if (firstNew.current === undefined) return;
    const row = list.current?.children[firstNew.current];
    firstNew.current = undefined;
    row?.querySelector<HTMLElement>('input, button, a[href]')?.focus();
  }, [page.shown, list]);
  if (page.more === 0) return null;
  const showMore = () => {
    firstNew.current = list.current?.children.length;
    page.showMore();
  };
  return (
    <p className="muted field-hint list-more">
      Showing {page.shown} of {page.matching.length} {page.filter.trim() === '' ? noun : `matching ${noun}`}.{' '}
      <button type="button" className="link-button" onClick={showMore}>
        Show {Math.min(page.more, ROWS_PER_PAGE)} more
      </button>
    </p>
  );
}
