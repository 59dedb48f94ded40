import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { tokenResponse, type LoginRequest } from '@clinicrelay/contracts/account.ts';
import {
  featuresResponse,
  profile,
  userPreferences,
  type Profile,
  type UserPreferences,
} from '@clinicrelay/contracts/session.ts';
import { apiFetch } from './client.ts';
import { clearTokens, saveTokens } from './tokens.ts';

export const sessionKeys = {
  all: ['session'] as const,
  profile: () => [...sessionKeys.all, 'profile'] as const,
  features: () => [...sessionKeys.all, 'features'] as const,
  preferences: () => [...sessionKeys.all, 'preferences'] as const,
};

// The session changes only on sign-in, organization switch or an explicit update, which all refresh it.
const SESSION_STALE_MS = 5 * 60 * 1000;

export const profileQuery = () =>
  queryOptions({
    queryKey: sessionKeys.profile(),
    queryFn: ({ signal }) => apiFetch('/api/users/profiledata', { schema: profile, signal }),
    staleTime: SESSION_STALE_MS,
  });

export const featuresQuery = () =>
  queryOptions({
    queryKey: sessionKeys.features(),
    queryFn: ({ signal }) => apiFetch('/api/features', { schema: featuresResponse, signal }),
    staleTime: SESSION_STALE_MS,
  });

export const preferencesQuery = () =>
  queryOptions({
    queryKey: sessionKeys.preferences(),
    queryFn: ({ signal }) => apiFetch('/api/users/preferences', { schema: userPreferences, signal }),
    staleTime: SESSION_STALE_MS,
  });

export function useProfile() {
  return useQuery(profileQuery());
}

export function useFeatures() {
  return useQuery(featuresQuery());
}

export function usePreferences() {
  return useQuery(preferencesQuery());
}

/** PUT /api/users/preferences with a partial update; applied optimistically so toggles feel instant. */
export function useUpdatePreferences() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (update: Partial<UserPreferences>) =>
      apiFetch('/api/users/preferences', { method: 'PUT', body: update, schema: userPreferences }),
    onMutate: async (update) => {
      await queryClient.cancelQueries({ queryKey: sessionKeys.preferences() });
      const previous = queryClient.getQueryData<UserPreferences>(sessionKeys.preferences());
      if (previous) queryClient.setQueryData<UserPreferences>(sessionKeys.preferences(), { ...previous, ...update });
      return { previous };
    },
    onError: (_error, _update, context) => {
      if (context?.previous) queryClient.setQueryData(sessionKeys.preferences(), context.previous);
    },
    onSuccess: (saved) => {
      queryClient.setQueryData(sessionKeys.preferences(), saved);
    },
  });
}

/**
 * POST /api/account/change (end-user §4 "Organization switching"): the new profile replaces the cached one
 * and everything else is refetched; null means the session could not move and the caller signs in again.
 */
export function useChangeOrganization() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (orgId: string) =>
      apiFetch('/api/account/change', { method: 'POST', body: { orgId }, schema: profile.nullable() }),
    onSuccess: async (next: Profile | null) => {
      if (next === null) {
        // The session no longer matches any organization: forget it so the user signs in again.
        clearTokens();
        queryClient.removeQueries({ queryKey: sessionKeys.profile() });
        return;
      }
      queryClient.setQueryData(sessionKeys.profile(), next);
      await queryClient.invalidateQueries({
        predicate: (query) => query.queryKey[0] !== sessionKeys.all[0] || query.queryKey[1] !== 'profile',
      });
    },
  });
}

/** POST /api/account/login; stores the token pair. Throws ApiError (twoFactorRequired when a code is needed). */
export async function login(request: LoginRequest): Promise<void> {
  const pair = await apiFetch('/api/account/login', {
    method: 'POST',
    body: request,
    schema: tokenResponse,
    auth: false,
  });
  saveTokens(pair);
}

/** POST /api/account/logout, then forgets the tokens whatever the server answered. */
export async function logout(): Promise<void> {
  try {
    await apiFetch('/api/account/logout', { method: 'POST', reportAuthFailure: false });
  } catch (error) {
    console.warn('Sign-out call failed; the local session is cleared anyway.', error);
  } finally {
    clearTokens();
  }
}
