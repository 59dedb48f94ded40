import { okResponse } from '@clinicrelay/contracts/account.ts';
import { brandPage } from '@clinicrelay/contracts/brands.ts';
import { download, downloadPage, downloadSortColumns, publishedDownloads, type DownloadInput } from '@clinicrelay/contracts/downloads.ts';
import type { ListState } from '../components/list-state.ts';
import { responseFileName } from '../components/save-file.ts';
import { apiFetch, apiResponse } from './client.ts';

// end-user §7 "Fax and other" (downloads) and back-office-b "Downloads": the organization's Downloads page and the
// back office's /admin/downloads share these calls.

export const downloadKeys = {
  all: ['downloads'] as const,
  published: () => [...downloadKeys.all, 'published'] as const,
};

export const fetchPublishedDownloads = (signal?: AbortSignal) => apiFetch('/api/downloads', { schema: publishedDownloads, signal });

export function fetchDownloads(state: ListState, signal: AbortSignal) {
  const params = new URLSearchParams({ pageNumber: String(state.page), pageSize: String(state.pageSize), sortDir: state.sortDir });
  if (state.search) params.set('search', state.search);
  if (state.sortCol && (downloadSortColumns as readonly string[]).includes(state.sortCol)) params.set('col', state.sortCol);
  return apiFetch(`/api/downloads/getpaged?${params.toString()}`, { schema: downloadPage, signal });
}

// The multipart form of POST /upload and PUT /{id}/update, its parts named as the server binds them (platform.os, …).
function formOf(values: DownloadInput, file: File | null) {
  const form = new FormData();
  const { platform, ...fields } = values;
  for (const [name, value] of Object.entries(fields)) if (value !== undefined && value !== null) form.append(name, String(value));
  for (const [name, value] of Object.entries(platform ?? {})) if (value) form.append(`platform.${name}`, value);
  if (file) form.append('file', file);
  return form;
}

/** POST /api/downloads/upload: a new download with its file, inactive until activated. */
export const uploadDownload = (values: DownloadInput, file: File) => apiFetch('/api/downloads/upload', { method: 'POST', body: formOf(values, file), schema: download });

/** PUT /api/downloads/{id}/update: the fields as JSON, or multipart when a new file replaces the stored one. */
export const updateDownload = (id: string, values: DownloadInput, file: File | null) =>
  apiFetch(`/api/downloads/${id}/update`, { method: 'PUT', body: file ? formOf(values, file) : values, schema: download });

export const setDownloadActive = (id: string, active: boolean) => apiFetch(`/api/downloads/${id}/${active ? 'activate' : 'deactivate'}`, { method: 'PUT', schema: download });

export const deleteDownload = (id: string) => apiFetch(`/api/downloads/${id}`, { method: 'DELETE', schema: okResponse });

/** GET /api/downloads/{id}/download: the file and the name the server gives it. */
export async function fetchDownloadFile(id: string, fallbackName: string) {
  const response = await apiResponse(`/api/downloads/${id}/download`, { accept: 'application/octet-stream' });
  return { blob: await response.blob(), fileName: responseFileName(response, fallbackName) };
}

// back-office-a §7 (pageSize=100): the brands a download may be limited to.
export const fetchBrandOptions = (signal?: AbortSignal) => apiFetch('/api/admin/brands?pageSize=100', { schema: brandPage, signal });
