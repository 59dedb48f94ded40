import { z } from 'zod';
import { batchImportAccepted, batchStatusPage, type BatchImportMetadata } from '@clinicrelay/contracts/batch-imports.ts';
import { documentSourceProviderPage } from '@clinicrelay/contracts/document-sources.ts';
import { organizationType } from '@clinicrelay/contracts/organizations.ts';
import type { ListState } from '../components/list-state.ts';
import { apiFetch } from './client.ts';

// back-office-b §7 "Batch imports" (/admin/batchimports). Plans, brands and resellers come from the organization
// form's choices (api/organizations.ts fetchChoices), specialties from fetchSpecialtyOptions.

export const batchImportKeys = {
  all: ['batch-imports'] as const,
  types: () => [...batchImportKeys.all, 'types'] as const,
  hisps: () => [...batchImportKeys.all, 'hisps'] as const,
};

/** GET /api/admin/import: the rows of every imported file, newest file first. */
export function fetchBatchItems(state: ListState, signal: AbortSignal) {
  const params = new URLSearchParams({ pageNumber: String(state.page), pageSize: String(state.pageSize) });
  if (state.search) params.set('search', state.search);
  return apiFetch(`/api/admin/import?${params.toString()}`, { schema: batchStatusPage, signal });
}

/** POST /api/admin/import/organization: multipart with the file and the metadata as one JSON part. */
export function importOrganizations(metadata: BatchImportMetadata, file: File) {
  const form = new FormData();
  form.append('metadata', JSON.stringify(metadata));
  form.append('file', file);
  return apiFetch('/api/admin/import/organization', { method: 'POST', body: form, schema: batchImportAccepted });
}

export const fetchOrganizationTypes = (signal?: AbortSignal) => apiFetch('/api/organizations/types', { schema: z.array(organizationType), signal });

// §7: the HISPs are the DirectMessaging document-source providers (page 1 of 100 holds them all).
export const fetchDirectMessagingProviders = (signal?: AbortSignal) =>
  apiFetch(`/api/admin/documentsources/documentsourceproviders?${new URLSearchParams({ pageNumber: '1', pageSize: '100', type: 'DirectMessaging' }).toString()}`, { schema: documentSourceProviderPage, signal });
