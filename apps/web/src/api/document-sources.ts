import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { documentSource } from '@clinicrelay/contracts/messages.ts';
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

// end-user §3 document source status: pending deletion (3) and deleted (4) addresses cannot be used.
export const isUsableSource = (source: Pick<DocumentSource, 'status'>) => source.status !== 3 && source.status !== 4;
