import { useState } from 'react';

/** Rows shown at first and added by each "Show more": opening a list of thousands builds only these. */
export const ROWS_PER_PAGE = 100;
/** From this many items a list has a filter box. */
export const FILTER_FROM = 20;

export interface FilteredPage<T> {
  readonly filter: string;
  readonly setFilter: (text: string) => void;
  /** The items the filter matches. */
  readonly matching: readonly T[];
  /** The first page(s) of them, and the items `keep` holds wherever they are. */
  readonly visible: readonly T[];
  /** Matching items not shown yet. */
  readonly more: number;
  readonly showMore: () => void;
}

/**
 * A long list shown a page at a time and filtered by text: an item matches when one of its texts holds the filter,
 * ignoring case. Items `keep` holds (one being edited, say; it is told the filter) are shown beyond the page too.
 */
export function useFilteredPage<T>(
  items: readonly T[],
  textsOf: (item: T) => readonly string[],
  keep: (item: T, filter: string) => boolean = () => false,
): FilteredPage<T> {
  const [filter, setFilterText] = useState('');
  const [shown, setShown] = useState(ROWS_PER_PAGE);
  const wanted = filter.trim().toLowerCase();
  const matching =
    wanted === '' ? items : items.filter((item) => textsOf(item).some((text) => text.toLowerCase().includes(wanted)));
  const page = matching.slice(0, shown);
  const visible = [...page, ...items.filter((item) => keep(item, wanted) && !page.includes(item))];
  return {
    filter,
    setFilter: (text) => {
      setFilterText(text);
      setShown(ROWS_PER_PAGE);
    },
    matching,
    visible,
    more: Math.max(0, matching.length - shown),
    showMore: () => setShown((n) => n + ROWS_PER_PAGE),
  };
}

/** The filter box (from FILTER_FROM items) and, when nothing matches, a line that says so. */
export function ListFilter<T>({
  page,
  total,
  label,
  placeholder,
  noMatch,
}: {
  page: FilteredPage<T>;
  total: number;
  label: string;
  placeholder: string;
  noMatch: (filter: string) => string;
}) {
  if (total < FILTER_FROM) return null;
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
      {page.matching.length === 0 && (
        <p className="muted field-hint" role="status">
          {noMatch(page.filter.trim())}
        </p>
      )}
    </>
  );
}

/** "Showing 100 of 500 tools. Show 100 more", under a list with more matching items than it shows. */
export function ShowMore<T>({ page, noun }: { page: FilteredPage<T>; noun: string }) {
  if (page.more === 0) return null;
  const shown = page.matching.length - page.more;
  return (
    <p className="muted field-hint list-more">
      Showing {shown} of {page.matching.length} {page.filter.trim() === '' ? noun : `matching ${noun}`}.{' '}
      <button type="button" className="link-button" onClick={page.showMore}>
        Show {Math.min(page.more, ROWS_PER_PAGE)} more
      </button>
    </p>
  );
}
