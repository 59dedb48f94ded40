import { apiCapturePage } from '@clinicrelay/contracts/api-capture.ts';
import { apiFetch } from '../../api/client.ts';

// back-office-b §7 "API capture": GET /api/diagnostics/apicapture with start, end, search, pageNumber, pageSize,
// sortDir ('1' newest first) and the §3 filters tenantId, networkId, statusCode, method.
export interface CaptureFilters {
  start: string;
  end: string;
  search: string;
  tenantId: string | null;
  networkId: string | null;
  statusCode: string | null;
  method: string | null;
  sortDir: '0' | '1';
  pageNumber: number;
  pageSize: number;
}

export const apiCaptureKeys = {
  all: ['api-capture'] as const,
  page: (filters: CaptureFilters) => [...apiCaptureKeys.all, filters] as const,
};

export function fetchCaptures(filters: CaptureFilters, signal: AbortSignal) {
  const params = new URLSearchParams({
    start: new Date(filters.start).toISOString(),
    end: new Date(filters.end).toISOString(),
    pageNumber: String(filters.pageNumber),
    pageSize: String(filters.pageSize),
    sortDir: filters.sortDir,
  });
  if (filters.search) params.set('search', filters.search);
  for (const key of ['tenantId', 'networkId', 'statusCode', 'method'] as const) {
    const value = filters[key];
    if (value) params.set(key, value);
  }
  return apiFetch(`/api/diagnostics/apicapture?${params.toString()}`, { schema: apiCapturePage, signal });
}
