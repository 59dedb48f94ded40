import { keepPreviousData, useInfiniteQuery, useMutation, useQuery, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import {
  DIRECTORY_PAGE_SIZE,
  DIRECTORY_VALIDATE_MAX,
  directorySearchResponse,
  directoryValidateResponse,
  type DirectoryAddressCheck,
  type DirectoryEntry,
  type DirectorySearchResponse,
} from '@clinicrelay/contracts/directory.ts';
import { invitationSent, type InvitationRequest } from '@clinicrelay/contracts/users.ts';
import { apiFetch } from './client.ts';

// Shared by the Find Provider and Send an Invite dialogs (components/directory) and Release's To field: in api/ and
// components/, not features/directory, because features may not import each other (DESIGN.md, scripts/check-imports.mjs).

export type DirectoryTab = 'providers' | 'organizations';

/** What the Find Provider form searches by, trimmed, empty fields left out (end-user §3 "Directory search request"). */
export type DirectoryCriteria = Partial<Record<'firstName' | 'lastName' | 'organizationName' | 'city' | 'state' | 'zip', string>>;

export const directoryKeys = {
  all: ['directory'] as const,
  searches: () => [...directoryKeys.all, 'search'] as const,
  search: (criteria: DirectoryCriteria, tab: DirectoryTab) => [...directoryKeys.searches(), criteria, tab] as const,
  firstPage: (criteria: DirectoryCriteria) => [...directoryKeys.searches(), criteria, 'firstPage'] as const,
  validations: () => [...directoryKeys.all, 'validate'] as const,
  validate: (addresses: readonly string[]) => [...directoryKeys.validations(), addresses] as const,
};

// Directory entries change rarely; scrolling back to a tab should not search again.
const SEARCH_STALE_MS = 5 * 60_000;

const tabParts = {
  providers: { items: (r: DirectorySearchResponse) => r.providers, total: (r: DirectorySearchResponse) => r.totalProvidersCount },
  organizations: { items: (r: DirectorySearchResponse) => r.organizations, total: (r: DirectorySearchResponse) => r.totalOrganizationsCount },
} as const;

/** POST /api/directory/search: one page of each tab, the other tab held at its first page. */
function searchPage(criteria: DirectoryCriteria, providerPageStart: number, organizationPageStart: number, signal: AbortSignal) {
  return apiFetch('/api/directory/search', {
    method: 'POST',
    body: { ...criteria, providerPageStart, organizationPageStart, pageSize: DIRECTORY_PAGE_SIZE },
    schema: directorySearchResponse,
    signal,
  });
}

export interface DirectoryResults {
  items: DirectoryEntry[];
  /** Counted up to DIRECTORY_COUNT_CAP by the server. */
  total: number;
}

/**
 * One tab of a directory search, 10 a page, each tab paging on its own (providerPageStart, organizationPageStart).
 * Both tabs' first page is the same call, made once and shared. `null` criteria: no search yet.
 */
export function useDirectorySearch(criteria: DirectoryCriteria | null, tab: DirectoryTab) {
  const queryClient = useQueryClient();
  const { items, total } = tabParts[tab];
  const search = criteria ?? {};
  return useInfiniteQuery({
    queryKey: directoryKeys.search(search, tab),
    enabled: criteria !== null,
    initialPageParam: 0,
    queryFn: ({ pageParam, signal }) =>
      pageParam === 0
        ? queryClient.fetchQuery({
            queryKey: directoryKeys.firstPage(search),
            queryFn: ({ signal: own }) => searchPage(search, 0, 0, own),
            staleTime: SEARCH_STALE_MS,
          })
        : searchPage(search, tab === 'providers' ? pageParam : 0, tab === 'organizations' ? pageParam : 0, signal),
    getNextPageParam: (last, pages, lastStart) => {
      const loaded = pages.reduce((count, page) => count + items(page).length, 0);
      return items(last).length === DIRECTORY_PAGE_SIZE && loaded < total(pages[0]!) ? lastStart + DIRECTORY_PAGE_SIZE : undefined;
    },
    select: (data: InfiniteData<DirectorySearchResponse, number>): DirectoryResults => ({
      items: data.pages.flatMap(items),
      total: total(data.pages[0]!),
    }),
    staleTime: SEARCH_STALE_MS,
  });
}

export type DirectorySearchQuery = ReturnType<typeof useDirectorySearch>;

const byAddress = (checks: DirectoryAddressCheck[]) => new Map(checks.map((check) => [check.address.toLowerCase(), check]));

/**
 * GET /api/directory/validate?addresses=a;b: who each Direct address belongs to, in one call for all of them.
 * The answer is kept while a changed list is being checked, so notes do not flicker as tags come and go.
 */
export function useDirectoryValidation(addresses: readonly string[]) {
  const asked = [...new Set(addresses.map((address) => address.toLowerCase()))].sort().slice(0, DIRECTORY_VALIDATE_MAX);
  return useQuery({
    queryKey: directoryKeys.validate(asked),
    queryFn: ({ signal }) =>
      apiFetch(`/api/directory/validate?${new URLSearchParams({ addresses: asked.join(';') }).toString()}`, { schema: directoryValidateResponse, signal }),
    enabled: asked.length > 0,
    select: byAddress,
    placeholderData: keepPreviousData,
    staleTime: SEARCH_STALE_MS,
  });
}

/** POST /api/users/sendinvitation (end-user §3 "Invitation"). */
export function useSendInvitation() {
  return useMutation({
    mutationFn: (body: InvitationRequest) => apiFetch('/api/users/sendinvitation', { method: 'POST', body, schema: invitationSent }),
  });
}
