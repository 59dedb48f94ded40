import { certificate, certificatePage } from '@clinicrelay/contracts/certificates.ts';
import type { ListState } from '../components/list-state.ts';
import { apiFetch } from './client.ts';

// back-office-b §7 "Certificates".

export const certificateKeys = {
  all: ['certificates'] as const,
  one: (name: string) => [...certificateKeys.all, 'one', name] as const,
};

const path = (name: string) => `/api/configuration/certificates/${encodeURIComponent(name)}`;

export function fetchCertificates(state: ListState, signal: AbortSignal) {
  const params = new URLSearchParams({ pageNumber: String(state.page), pageSize: String(state.pageSize), sortDir: state.sortDir });
  if (state.search) params.set('search', state.search);
  return apiFetch(`/api/configuration/certificates?${params.toString()}`, { schema: certificatePage, signal });
}

export const fetchCertificate = (name: string, signal?: AbortSignal) => apiFetch(path(name), { schema: certificate, signal });

/** The upload form: a new name, or (useExistingName) a new certificate for an existing one. */
export function uploadCertificate(values: { name: string; password: string; file: File; useExistingName: boolean }) {
  const form = new FormData();
  form.append('name', values.name);
  form.append('password', values.password);
  form.append('useExistingName', String(values.useExistingName));
  form.append('file', values.file);
  return apiFetch('/api/configuration/certificates', { method: 'POST', body: form, schema: certificate });
}

export const setCertificateEnabled = (name: string, enabled: boolean) => apiFetch(`${path(name)}/enable`, { method: 'PUT', body: { enabled }, schema: certificate });
