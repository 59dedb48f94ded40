import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { okResponse } from '@clinicrelay/contracts/account.ts';
import { adminDocumentSource, adminDocumentSourcePage, documentSourceCreate, documentSourceUpdate } from '@clinicrelay/contracts/document-sources.ts';
import { documentSource } from '@clinicrelay/contracts/messages.ts';
import type { ListState } from '../components/list-state.ts';
import { apiFetch } from './client.ts';

// Shared by Release (From), Intake (filters, triage) and the Send an Invite dialog (Direct address to share).
export const documentSourcesKeys = {
  all: ['documentSources'] as const,
};

type DocumentSource = z.infer<typeof documentSource>;

/** GET /api/documentsources: the organization's own Direct addresses and fax numbers. */
export const useDocumentSources = () =>
  useQuery({
    queryKey: documentSourcesKeys.all,
    queryFn: ({ signal }) => apiFetch('/api/documentsources', { schema: z.array(documentSource), signal }),
    staleTime: 5 * 60_000,
  });

// end-user §3 document source status: pending deletion (3) and deleted (4) addresses cannot be used; and the caller
// may send from it only when it is given to them, global, or they are an Administrator (issue 13 §2).
export const isUsableSource = (source: Pick<DocumentSource, 'status' | 'canSend'>) => source.canSend && source.status !== 3 && source.status !== 4;

// The back office's calls (end-user §7 "Fax and other"): one organization's addresses in its Direct tab.
export const adminDocumentSourceKeys = {
  all: ['adminDocumentSources'] as const,
};

export function fetchAdminDocumentSources(organizationId: string, state: ListState, signal: AbortSignal) {
  const params = new URLSearchParams({ organizationId, pageNumber: String(state.page), pageSize: String(state.pageSize), sortDir: state.sortDir });
  if (state.search) params.set('search', state.search);
  return apiFetch(`/api/admin/documentsources?${params.toString()}`, { schema: adminDocumentSourcePage, signal });
}
export const createAdminDocumentSource = (body: z.input<typeof documentSourceCreate>) => apiFetch('/api/admin/documentsources', { method: 'POST', body, schema: adminDocumentSource });
export const updateAdminDocumentSource = (body: z.input<typeof documentSourceUpdate>) => apiFetch('/api/admin/documentsources', { method: 'PUT', body, schema: adminDocumentSource });
export const activateAdminDocumentSource = (id: string) => apiFetch(`/api/admin/documentsources/activate/${id}`, { method: 'POST', schema: adminDocumentSource });
export const removeAdminDocumentSource = (id: string) => apiFetch(`/api/admin/documentsources?${new URLSearchParams({ id }).toString()}`, { method: 'DELETE', schema: okResponse });
