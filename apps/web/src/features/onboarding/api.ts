import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { messageResponse } from '@clinicrelay/contracts/admin-users.ts';
import { acceptTermsRequest, currentTerms } from '@clinicrelay/contracts/eulas.ts';
import {
  identityDocumentResult,
  identityProofingResult,
  identityProofingStatus,
  type IdentityRequest,
  type QuizAnswers,
} from '@clinicrelay/contracts/identity-proofing.ts';
import { apiFetch } from '../../api/client.ts';
import { sessionKeys } from '../../api/session.ts';

export const onboardingKeys = {
  all: ['onboarding'] as const,
  terms: () => [...onboardingKeys.all, 'terms'] as const,
  proofing: () => [...onboardingKeys.all, 'proofing'] as const,
};

/** GET /api/eulas/current: the active terms document of the organization's brand (404 when there is none). */
export function useCurrentTerms(enabled: boolean) {
  return useQuery({
    queryKey: onboardingKeys.terms(),
    queryFn: ({ signal }) => apiFetch('/api/eulas/current', { schema: currentTerms, signal }),
    enabled,
    retry: false,
  });
}

export function useAcceptTerms() {
  return useMutation({
    mutationFn: (id: string) => apiFetch(`/api/eulas/${id}/accept`, { method: 'POST', body: acceptTermsRequest.parse({ accepted: true }), schema: messageResponse }),
  });
}

/** GET /api/identityproofing: the provider (the dialogs say "sandbox") and the latest decision. */
export function useIdentityProofingStatus(enabled: boolean) {
  return useQuery({
    queryKey: onboardingKeys.proofing(),
    queryFn: ({ signal }) => apiFetch('/api/identityproofing', { schema: identityProofingStatus, signal }),
    enabled,
  });
}

export function useSubmitIdentity() {
  return useMutation({
    mutationFn: (body: IdentityRequest) => apiFetch('/api/identityproofing/identity', { method: 'POST', body, schema: identityProofingResult }),
  });
}

export function useAnswerQuiz() {
  return useMutation({
    mutationFn: (body: QuizAnswers) => apiFetch('/api/identityproofing/answers', { method: 'POST', body, schema: identityProofingResult }),
  });
}

export function useUploadIdentityDocument() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (file: File) => {
      const form = new FormData();
      form.append('file', file);
      return apiFetch('/api/identityproofing/document', { method: 'POST', body: form, schema: identityDocumentResult });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: onboardingKeys.proofing() }),
  });
}

/** end-user §4: the profile is refreshed after the decision (and after the terms are accepted). */
export function useRefreshProfile() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: sessionKeys.profile() });
}
