import { z } from 'zod';
import { generatedReportPage, reportOrganizationOption, siftMetricRow } from '@clinicrelay/contracts/reports.ts';
import { responseFileName } from '../components/save-file.ts';
import { apiFetch, apiResponse } from './client.ts';

export const reportKeys = {
  all: ['reports'] as const,
  organizations: () => [...reportKeys.all, 'organizations'] as const,
  generated: (page: number, pageSize: number, search: string) => [...reportKeys.all, 'generated', page, pageSize, search] as const,
  sift: (start: string, end: string, col: string, sortDir: string) => [...reportKeys.all, 'sift', start, end, col, sortDir] as const,
};

export interface CsvDownload {
  blob: Blob;
  fileName: string;
}

/** GET /api/admin/reports/{path}[?query]: the CSV file the server names. */
export async function downloadReport(path: string, query?: Record<string, string>): Promise<CsvDownload> {
  const search = query ? `?${new URLSearchParams(query).toString()}` : '';
  const response = await apiResponse(`/api/admin/reports/${path}${search}`, { accept: 'text/csv' });
  return { blob: await response.blob(), fileName: responseFileName(response, `${path}.csv`) };
}

/** POST /api/admin/reports/{path} with the chosen organization ids; saved under the spec's file name. */
export async function downloadOrganizationsReport(path: string, organizationIds: string[], fileName: string): Promise<CsvDownload> {
  const response = await apiResponse(`/api/admin/reports/${path}`, { method: 'POST', body: organizationIds, accept: 'text/csv' });
  return { blob: await response.blob(), fileName };
}

export const fetchReportOrganizations = (signal?: AbortSignal) => apiFetch('/api/admin/reports/organizationoptions', { schema: z.array(reportOrganizationOption), signal });

export const fetchGeneratedReports = (page: number, pageSize: number, search: string, signal?: AbortSignal) =>
  apiFetch(`/api/admin/generated_reports?${new URLSearchParams({ pageNumber: String(page), pageSize: String(pageSize), ...(search ? { search } : {}) }).toString()}`, { schema: generatedReportPage, signal });

export async function downloadGeneratedReport(id: string, fallback: string): Promise<CsvDownload> {
  const response = await apiResponse(`/api/admin/generated_reports/${id}`, { accept: 'text/csv' });
  return { blob: await response.blob(), fileName: responseFileName(response, fallback) };
}

export const fetchSiftMetrics = (query: { start: string; end: string; col: string; sortDir: string }, signal?: AbortSignal) =>
  apiFetch(`/api/diagnostics/siftmetrics?${new URLSearchParams(query).toString()}`, { schema: z.array(siftMetricRow), signal });
