import {
  directoryDownload,
  directoryDownloadLogMessage,
  directoryDownloadPage,
  type DirectoryDownloadRequest,
} from '@clinicrelay/contracts/directory-downloads.ts';
import type { ListState } from '../components/list-state.ts';
import { responseFileName } from '../components/save-file.ts';
import { apiFetch, apiResponse } from './client.ts';

// back-office-b "Directory download requests" (/api/directory/downloads, SysAdmin).

export const directoryDownloadKeys = {
  all: ['directory-downloads'] as const,
  logMessage: (id: string) => [...directoryDownloadKeys.all, 'log', id] as const,
};

export function fetchDirectoryDownloads(state: ListState, signal: AbortSignal) {
  const params = new URLSearchParams({ pageNumber: String(state.page), pageSize: String(state.pageSize), sortDirection: state.sortDir });
  if (state.search) params.set('search', state.search);
  return apiFetch(`/api/directory/downloads?${params.toString()}`, { schema: directoryDownloadPage, signal });
}

export const fetchDirectoryDownloadLog = (id: string, signal?: AbortSignal) =>
  apiFetch(`/api/directory/downloads/${id}/logmessage`, { schema: directoryDownloadLogMessage, signal });

export const requestDirectoryDownload = (request: DirectoryDownloadRequest) =>
  apiFetch('/api/directory/downloads/request', { method: 'POST', body: request, schema: directoryDownload });

/** The download's CSV (its fileUrl) and the name the server gives it. */
export async function fetchDirectoryDownloadFile(fileUrl: string) {
  const response = await apiResponse(fileUrl, { accept: 'text/csv' });
  return { blob: await response.blob(), fileName: responseFileName(response, 'directory.csv') };
}
