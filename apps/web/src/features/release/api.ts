import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { messageList } from '@clinicrelay/contracts/messages.ts';
import { apiFetch } from '../../api/client.ts';
import type { ListState } from '../../components/list-state.ts';

export type ReleaseView = 'all' | 'sent' | 'drafts';

export const releaseKeys = {
  all: ['release'] as const,
  list: (state: ListState, view: ReleaseView) => [...releaseKeys.all, 'list', state, view] as const,
};

// GET /api/messages: empty values are dropped from the query (end-user §5).
function listPath(state: ListState, view: ReleaseView) {
  const params = new URLSearchParams({ pageStart: String(state.page), pageSize: String(state.pageSize) });
  if (view !== 'all') params.set('isDraft', String(view === 'drafts'));
  if (state.search) params.set('search', state.search);
  if (state.startDate) params.set('startDate', state.startDate);
  if (state.endDate) params.set('endDate', state.endDate);
  return `/api/messages?${params.toString()}`;
}

export const releaseListQuery = (state: ListState, view: ReleaseView) =>
  queryOptions({
    queryKey: releaseKeys.list(state, view),
    queryFn: ({ signal }) => apiFetch(listPath(state, view), { schema: messageList, signal }),
    placeholderData: keepPreviousData,
  });

export const useReleaseList = (state: ListState, view: ReleaseView) => useQuery(releaseListQuery(state, view));
