import { useMutation, useQuery } from '@tanstack/react-query';
import {
  registrationInvitation,
  registrationReseller,
  registrationResponse,
  verificationResponse,
  type RegistrationRequest,
} from '@clinicrelay/contracts/registration.ts';
import { apiFetch } from '../../api/client.ts';

// Issue 14 §1: the public calls of the registration and email-confirmation pages (no session, so auth: false).

export const registrationKeys = {
  all: ['registration'] as const,
  reseller: (urlCode: string) => [...registrationKeys.all, 'reseller', urlCode] as const,
  invitation: (code: string) => [...registrationKeys.all, 'invitation', code] as const,
};

export const useRegistrationReseller = (urlCode: string | undefined) =>
  useQuery({
    queryKey: registrationKeys.reseller(urlCode ?? ''),
    queryFn: ({ signal }) => apiFetch(`/api/account/register/reseller/${encodeURIComponent(urlCode!)}`, { schema: registrationReseller, signal, auth: false }),
    enabled: !!urlCode,
    retry: false,
    staleTime: Infinity,
  });

export const useRegistrationInvitation = (code: string | null) =>
  useQuery({
    queryKey: registrationKeys.invitation(code ?? ''),
    queryFn: ({ signal }) => apiFetch(`/api/account/register/invitation?${new URLSearchParams({ code: code! }).toString()}`, { schema: registrationInvitation, signal, auth: false }),
    enabled: !!code,
    retry: false,
    staleTime: Infinity,
  });

export const useRegister = () =>
  useMutation({ mutationFn: (body: RegistrationRequest) => apiFetch('/api/account/register', { method: 'POST', body, schema: registrationResponse, auth: false }) });

export const useVerifyEmail = () =>
  useMutation({ mutationFn: (token: string) => apiFetch('/api/account/verify', { method: 'POST', body: { token }, schema: verificationResponse, auth: false }) });

export const useResendVerification = () =>
  useMutation({ mutationFn: (email: string) => apiFetch('/api/account/verify/resend', { method: 'POST', body: { email }, schema: verificationResponse, auth: false }) });
