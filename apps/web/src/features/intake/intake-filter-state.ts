import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import {
  INTAKE_DEFAULT_DAYS,
  INTAKE_PAGE_SIZE,
  intakeColumnFilterKeys,
  intakeSourceTypes,
  processedTypes,
  type IntakeFilter,
} from '@clinicrelay/contracts/intake.ts';
import type { ListState } from '../../components/list-state.ts';

// The Intake filters beyond the shared list state, kept in the URL too (DESIGN.md "Lists"):
// status, sourceType, processedType, source (comma lists) and assign.

export type Assignment = 'all' | 'unassigned' | 'mine';
export type IntakeSort = 'receiveDate' | 'updatedDate';

export interface IntakeExtraFilters {
  statuses: number[];
  sourceTypes: (typeof intakeSourceTypes)[number][];
  processedTypes: (typeof processedTypes)[number][];
  sources: string[];
  assignment: Assignment;
}

/** 30 days before now at UTC start of day, as YYYY-MM-DD (end-user §9). */
export function defaultStartDate(now: Date = new Date()): string {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) - INTAKE_DEFAULT_DAYS * 86_400_000);
  return start.toISOString().slice(0, 10);
}

export const intakeListDefaults = (now?: Date): Partial<ListState> => ({
  pageSize: INTAKE_PAGE_SIZE,
  sortCol: 'receiveDate',
  sortDir: 'desc',
  startDate: defaultStartDate(now),
});

const list = (params: URLSearchParams, key: string) => (params.get(key) ?? '').split(',').filter(Boolean);
const oneOf = <T extends string>(allowed: readonly T[]) => (value: string): value is T => (allowed as readonly string[]).includes(value);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function parseExtraFilters(params: URLSearchParams): IntakeExtraFilters {
  const assign = params.get('assign');
  return {
    statuses: list(params, 'status').map(Number).filter((n) => Number.isInteger(n) && n >= 0 && n <= 12),
    sourceTypes: list(params, 'sourceType').filter(oneOf(intakeSourceTypes)),
    processedTypes: list(params, 'processedType').filter(oneOf(processedTypes)),
    sources: list(params, 'source').filter((id) => UUID.test(id)),
    assignment: assign === 'unassigned' || assign === 'mine' ? assign : 'all',
  };
}

const EXTRA_KEYS: Record<Exclude<keyof IntakeExtraFilters, 'assignment'>, string> = {
  statuses: 'status',
  sourceTypes: 'sourceType',
  processedTypes: 'processedType',
  sources: 'source',
};

/** The extra filters and a setter that writes them to the URL and goes back to the first page. */
export function useIntakeExtraFilters(): [IntakeExtraFilters, (patch: Partial<IntakeExtraFilters>) => void] {
  const [params, setParams] = useSearchParams();
  const key = params.toString();
  const filters = useMemo(() => parseExtraFilters(new URLSearchParams(key)), [key]);
  const set = useCallback(
    (patch: Partial<IntakeExtraFilters>) =>
      setParams((previous) => {
        const next = new URLSearchParams(previous);
        for (const [field, param] of Object.entries(EXTRA_KEYS) as [keyof typeof EXTRA_KEYS, string][]) {
          const value = patch[field];
          if (value === undefined) continue;
          if (value.length === 0) next.delete(param);
          else next.set(param, value.join(','));
        }
        if (patch.assignment !== undefined) {
          if (patch.assignment === 'all') next.delete('assign');
          else next.set('assign', patch.assignment);
        }
        next.delete('page');
        return next;
      }),
    [setParams],
  );
  return [filters, set];
}

type ColumnFilters = NonNullable<IntakeFilter['columnFilters']>;

/** The list's column filters (filter_<key> in the URL) on Subject, From, To and Patient; null when none is set. */
export function toColumnFilters(filters: ListState['filters']): ColumnFilters | null {
  const result: ColumnFilters = {};
  for (const key of intakeColumnFilterKeys) {
    const filter = filters[key];
    const value = filter?.value.trim().slice(0, 200);
    if (filter && value) result[key] = { value, operator: filter.operator };
  }
  return Object.keys(result).length > 0 ? result : null;
}

/** The body of POST /api/messages for a list state: empty values mean "no filter". */
export function toIntakeFilter(state: ListState, extra: IntakeExtraFilters): IntakeFilter {
  return {
    pageStart: state.page,
    pageSize: state.pageSize,
    orderDir: state.sortDir,
    orderBy: state.sortCol === 'updatedDate' ? 'updatedDate' : 'receiveDate',
    startDate: state.startDate,
    endDate: state.endDate,
    filter: state.search.trim() || null,
    columnFilters: toColumnFilters(state.filters),
    statuses: extra.statuses.length > 0 ? extra.statuses : null,
    sourceTypes: extra.sourceTypes.length > 0 ? extra.sourceTypes : null,
    processedTypes: extra.processedTypes.length > 0 ? extra.processedTypes : null,
    sources: extra.sources.length > 0 ? extra.sources : null,
    isAll: extra.assignment === 'all',
    isUnassigned: extra.assignment === 'unassigned',
    isAssignedToSelf: extra.assignment === 'mine',
  };
}
