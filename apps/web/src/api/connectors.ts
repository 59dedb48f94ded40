import { okResponse } from '@clinicrelay/contracts/account.ts';
import { esignatureAccounts, externalLoginResponse } from '@clinicrelay/contracts/connectors.ts';
import { apiFetch } from './client.ts';

// back-office-b "E-signature connector" (/api/connectors, SysAdmin).

export const connectorKeys = { accounts: ['connectors', 'organization-accounts'] as const };

export const fetchEsignatureAccounts = (signal?: AbortSignal) => apiFetch('/api/connectors/organization-accounts', { schema: esignatureAccounts, signal });

export const fetchExternalLogin = () => apiFetch('/api/connectors/externallogin', { schema: externalLoginResponse });

export const deleteEsignatureAccount = (id: string) => apiFetch(`/api/connectors/organization-accounts/${id}`, { method: 'DELETE', schema: okResponse });
