import { useMutation } from '@tanstack/react-query';
import { messageResponse } from '@clinicrelay/contracts/admin-users.ts';
import type { ChangePasswordRequest, ForgotPasswordRequest } from '@clinicrelay/contracts/passwords.ts';
import { apiFetch } from './client.ts';

// Issue 14 §5: the signed-in user's own password change (not in the spec).
export const useChangePassword = () =>
  useMutation({ mutationFn: (body: ChangePasswordRequest) => apiFetch('/api/account/changepassword', { method: 'POST', body, schema: messageResponse }) });

// "Forgot your password?": POST /api/users/resetpassword without a session; the answer is the same for any email.
export const useRequestPasswordReset = () =>
  useMutation({ mutationFn: (body: ForgotPasswordRequest) => apiFetch('/api/users/resetpassword', { method: 'POST', body, schema: messageResponse, auth: false }) });
