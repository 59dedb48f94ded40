import { okResponse } from '@clinicrelay/contracts/account.ts';
import { efaxAccountResult, faxAccounts, westfaxAccountResult, type EfaxAccountType } from '@clinicrelay/contracts/fax-accounts.ts';
import { apiFetch } from './client.ts';

// end-user §7 "Fax and other": the efax and westfax tabs of an organization (sandbox provider).
export const faxAccountKeys = {
  all: ['faxAccounts'] as const,
  of: (organizationId: string) => [...faxAccountKeys.all, organizationId] as const,
};

export const fetchFaxAccounts = (organizationId: string, signal?: AbortSignal) => apiFetch(`/api/organizations/${organizationId}/faxaccounts`, { schema: faxAccounts, signal });
export const saveEfaxAccount = (body: { organizationId: string; accountType: EfaxAccountType; groupName?: string }, create: boolean) =>
  apiFetch('/api/efax/account/kno2', { method: create ? 'POST' : 'PUT', body, schema: efaxAccountResult });
/** Generates the sub account, or resets its password when there is one. */
export const saveWestfaxAccount = (organizationId: string) => apiFetch('/api/westfax/account', { method: 'PUT', body: { organizationId }, schema: westfaxAccountResult });
export const syncWestfaxAccount = (organizationId: string) => apiFetch(`/api/westfax/account/${organizationId}/sync`, { method: 'POST', schema: westfaxAccountResult });
export const deleteWestfaxAccount = (organizationId: string) => apiFetch(`/api/westfax/account/${organizationId}`, { method: 'DELETE', schema: okResponse });
export const addWestfaxNumber = (organizationId: string, number: string) => apiFetch(`/api/westfax/account/${organizationId}`, { method: 'POST', body: { number }, schema: westfaxAccountResult });
export const removeWestfaxNumber = (organizationId: string, number: string) =>
  apiFetch(`/api/westfax/account/${organizationId}/${encodeURIComponent(number)}`, { method: 'DELETE', schema: westfaxAccountResult });
