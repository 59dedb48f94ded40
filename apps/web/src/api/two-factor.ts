import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { messageResponse } from '@clinicrelay/contracts/admin-users.ts';
import { currentUser } from '@clinicrelay/contracts/session.ts';
import { tokenAuthSetup, twoFactorEnabled, verifyCodeResponse } from '@clinicrelay/contracts/two-factor.ts';
import { apiFetch } from './client.ts';
import { sessionKeys } from './session.ts';

// Issue 14 §6: the signed-in user's own two-factor sign-in (end-user §7 "Session and users").
export const twoFactorKeys = {
  all: ['two-factor'] as const,
  currentUser: () => [...twoFactorKeys.all, 'current-user'] as const,
};

export const currentUserQuery = () =>
  queryOptions({
    queryKey: twoFactorKeys.currentUser(),
    queryFn: ({ signal }) => apiFetch('/api/users/current', { schema: currentUser, signal }),
  });
export const useCurrentUser = () => useQuery(currentUserQuery());

// A change of two-factor: the user's record and the profile (twoFactorEnrolmentRequired) are read again.
function useRefreshAfter() {
  const queryClient = useQueryClient();
  return () => Promise.all([queryClient.invalidateQueries({ queryKey: twoFactorKeys.all }), queryClient.invalidateQueries({ queryKey: sessionKeys.profile() })]);
}

// GET, yet each call makes a new pending secret: a mutation, run when the user asks for it.
export const useStartTokenAuth = () => useMutation({ mutationFn: () => apiFetch('/api/users/enabletokenauth', { schema: tokenAuthSetup }) });

export const useConfirmTokenAuth = () =>
  useMutation({ mutationFn: (code: string) => apiFetch('/api/users/enabletokenauth', { method: 'POST', body: { code }, schema: twoFactorEnabled }) });

export const useSendCode = () => useMutation({ mutationFn: () => apiFetch('/api/users/sendcode?method=Email', { schema: messageResponse }) });

export const useEnableEmailCodes = () =>
  useMutation({ mutationFn: (code: string) => apiFetch(`/api/users/enabletfa?code=${encodeURIComponent(code)}`, { schema: twoFactorEnabled }) });

// Re-authentication with a code; with disable the user's own two-factor is turned off.
export function useVerifyCode(userId: string) {
  const refresh = useRefreshAfter();
  return useMutation({
    mutationFn: (body: { code: string; disable?: boolean }) => apiFetch(`/api/users/${userId}/verifycode`, { method: 'POST', body, schema: verifyCodeResponse }),
    onSuccess: (_, body) => (body.disable ? refresh() : undefined),
  });
}

// After the recovery codes were seen: the new state is read (the enrolment modal closes with the profile's flag).
export const useFinishEnrolment = useRefreshAfter;
