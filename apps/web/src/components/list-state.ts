import { useCallback, useLayoutEffect, useMemo, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { DEFAULT_PAGE_SIZE, PAGE_SIZES } from '@clinicrelay/contracts/constants.ts';
import type { ColumnFilterValue } from './column-filter.tsx';
import type { SortDir } from './sortable-header.tsx';

/** Everything that selects a page of a list; the parsed value is the react-query key. */
export interface ListState {
  search: string;
  sortCol: string | null;
  sortDir: SortDir;
  page: number;
  pageSize: number;
  filters: Record<string, ColumnFilterValue>;
  /** 'YYYY-MM-DD' or null. */
  startDate: string | null;
  endDate: string | null;
}

export type ListStatePatch = Partial<ListState>;

const baseDefaults: ListState = {
  search: '',
  sortCol: null,
  sortDir: 'asc',
  page: 1,
  pageSize: DEFAULT_PAGE_SIZE,
  filters: {},
  startDate: null,
  endDate: null,
};

const FILTER_PREFIX = 'filter_';
const isoDate = /^\d{4}-\d{2}-\d{2}$/;

// A present-but-empty parameter means "cleared", so a list whose default has a value can still be emptied.
function parseNullable(raw: string | null, fallback: string | null, valid: (value: string) => boolean) {
  if (raw === null) return fallback;
  return raw !== '' && valid(raw) ? raw : null;
}

function parseFilter(raw: string): ColumnFilterValue | null {
  if (raw === '') return null;
  const colon = raw.indexOf(':');
  const operator = raw.slice(0, colon);
  if (operator === 'equals' || operator === 'contains') return { operator, value: raw.slice(colon + 1) };
  return { operator: 'equals', value: raw };
}

const serializeFilter = (filter: ColumnFilterValue) => `${filter.operator}:${filter.value}`;

export function parseListState(params: URLSearchParams, defaults: ListState): ListState {
  const page = Number(params.get('page'));
  const size = Number(params.get('size'));
  const dir = params.get('dir');
  const filters: Record<string, ColumnFilterValue> = { ...defaults.filters };
  for (const [key, raw] of params) {
    if (!key.startsWith(FILTER_PREFIX)) continue;
    const column = key.slice(FILTER_PREFIX.length);
    const filter = parseFilter(raw);
    if (filter) filters[column] = filter;
    else delete filters[column];
  }
  return {
    search: params.get('search') ?? defaults.search,
    sortCol: parseNullable(params.get('sort'), defaults.sortCol, () => true),
    sortDir: dir === 'asc' || dir === 'desc' ? dir : defaults.sortDir,
    page: Number.isInteger(page) && page >= 1 ? page : defaults.page,
    pageSize: (PAGE_SIZES as readonly number[]).includes(size) ? size : defaults.pageSize,
    filters,
    startDate: parseNullable(params.get('from'), defaults.startDate, (value) => isoDate.test(value)),
    endDate: parseNullable(params.get('to'), defaults.endDate, (value) => isoDate.test(value)),
  };
}

/** Writes `state` into `params`, leaving out values equal to the defaults so URLs stay short. */
export function writeListState(params: URLSearchParams, state: ListState, defaults: ListState): void {
  const put = (key: string, value: string | null, fallback: string | null) => {
    if (value === fallback) params.delete(key);
    else params.set(key, value ?? '');
  };
  put('search', state.search, defaults.search);
  put('sort', state.sortCol, defaults.sortCol);
  put('dir', state.sortDir, defaults.sortDir);
  put('page', String(state.page), String(defaults.page));
  put('size', String(state.pageSize), String(defaults.pageSize));
  put('from', state.startDate, defaults.startDate);
  put('to', state.endDate, defaults.endDate);
  for (const key of [...params.keys()]) if (key.startsWith(FILTER_PREFIX)) params.delete(key);
  const columns = new Set([...Object.keys(defaults.filters), ...Object.keys(state.filters)]);
  for (const column of columns) {
    const filter = state.filters[column];
    const fallback = defaults.filters[column];
    put(FILTER_PREFIX + column, filter ? serializeFilter(filter) : null, fallback ? serializeFilter(fallback) : null);
  }
}

const pageResettingKeys: (keyof ListState)[] = ['search', 'filters', 'pageSize', 'startDate', 'endDate'];

/** Applies a change; narrowing or resizing the list goes back to its first page. */
export function applyListStatePatch(state: ListState, patch: ListStatePatch): ListState {
  const resetsPage = patch.page === undefined && pageResettingKeys.some((key) => key in patch);
  return { ...state, ...patch, ...(resetsPage ? { page: 1 } : {}) };
}

/**
 * List state kept in the URL search params (search, sort, dir, page, size, filter_<col>, from, to),
 * so a list survives reload, back and shared links. Returns the parsed state and a patch setter.
 */
export function useListState(defaults: ListStatePatch = {}): [ListState, (patch: ListStatePatch | ((current: ListState) => ListStatePatch)) => void] {
  const [searchParams, setSearchParams] = useSearchParams();
  // Callers usually pass a literal; key on its content so the memo below holds.
  const defaultsKey = JSON.stringify(defaults);
  const fullDefaults = useMemo<ListState>(() => ({ ...baseDefaults, ...(JSON.parse(defaultsKey) as ListStatePatch) }), [defaultsKey]);
  const paramsKey = searchParams.toString();
  const state = useMemo(
    () => parseListState(new URLSearchParams(paramsKey), fullDefaults),
    [paramsKey, fullDefaults],
  );

  // What this hook last wrote, ahead of the render that will show it: react-router hands a functional update the
  // parameters of the last render, so a debounced search landing between a filter's change and its render would
  // otherwise write the filter away. The render of one of its own earlier writes (two changes in quick succession
  // render one after the other) must not take it back either; any other URL (Back, a link) is adopted.
  const latest = useRef(searchParams);
  const pendingWrites = useRef<string[]>([]);
  const renderedKey = useRef(paramsKey);
  useLayoutEffect(() => {
    renderedKey.current = paramsKey;
    const index = pendingWrites.current.indexOf(paramsKey);
    if (index >= 0) {
      pendingWrites.current.splice(0, index + 1);
      return;
    }
    pendingWrites.current = [];
    latest.current = new URLSearchParams(paramsKey);
  }, [paramsKey]);

  const setState = useCallback(
    // A function patch reads the state as last written (a filter added to the others, not to a stale render's).
    (update: ListStatePatch | ((current: ListState) => ListStatePatch)) => {
      const current = parseListState(latest.current, fullDefaults);
      const patch = typeof update === 'function' ? update(current) : update;
      const next = new URLSearchParams(latest.current);
      writeListState(next, applyListStatePatch(current, patch), fullDefaults);
      latest.current = next;
      // A write that leaves the URL as rendered brings no render to wait for.
      if (next.toString() !== renderedKey.current) pendingWrites.current.push(next.toString());
      // Each debounced search would otherwise be a Back-button stop.
      setSearchParams(next, { replace: 'search' in patch });
    },
    [setSearchParams, fullDefaults],
  );

  return [state, setState];
}
