import { okResponse } from '@clinicrelay/contracts/account.ts';
import { trustAnchorListItem, trustAnchorPage, trustBundle, trustBundlePage } from '@clinicrelay/contracts/trust-anchors.ts';
import { apiFetch } from '../../api/client.ts';
import type { ListState } from '../../components/list-state.ts';

// Issue 12 §1: the trust anchors and bundles calls (beside back-office-b §7's certificates calls).

// One key for both lists: a bundle's change changes the anchors list too.
export const trustKeys = {
  all: ['trust-anchors'] as const,
  anchors: () => [...trustKeys.all, 'anchors'] as const,
  bundles: () => [...trustKeys.all, 'bundles'] as const,
};

export interface AnchorScope {
  /** Empty or null: every domain hosted here. */
  domain: string | null;
  incoming: boolean;
  outgoing: boolean;
}

const pageParams = (state: ListState) => {
  const params = new URLSearchParams({ pageNumber: String(state.page), pageSize: String(state.pageSize), sortDir: state.sortDir });
  if (state.search) params.set('search', state.search);
  return params.toString();
};

const scopeFields = (form: FormData, scope: AnchorScope) => {
  form.append('domain', scope.domain ?? '');
  form.append('incoming', String(scope.incoming));
  form.append('outgoing', String(scope.outgoing));
};

export const fetchAnchors = (state: ListState, signal: AbortSignal) => apiFetch(`/api/configuration/anchors?${pageParams(state)}`, { schema: trustAnchorPage, signal });

export function addAnchor(values: AnchorScope & { name: string; file: File }) {
  const form = new FormData();
  form.append('name', values.name);
  scopeFields(form, values);
  form.append('file', values.file);
  return apiFetch('/api/configuration/anchors', { method: 'POST', body: form, schema: trustAnchorListItem });
}

export const updateAnchor = (id: string, values: AnchorScope & { name: string }) =>
  apiFetch(`/api/configuration/anchors/${id}`, { method: 'PUT', body: { name: values.name, domain: values.domain, incoming: values.incoming, outgoing: values.outgoing }, schema: trustAnchorListItem });

export const deleteAnchor = (id: string) => apiFetch(`/api/configuration/anchors/${id}`, { method: 'DELETE', schema: okResponse });

export const fetchBundles = (state: ListState, signal: AbortSignal) => apiFetch(`/api/configuration/bundles?${pageParams(state)}`, { schema: trustBundlePage, signal });

export interface BundleSettings extends AnchorScope {
  name: string;
  refreshIntervalMinutes: number;
}

/** A bundle from a URL (fetched by the server at once) or from a file. */
export function addBundle(values: BundleSettings & ({ url: string; file?: never } | { file: File; url?: never })) {
  const form = new FormData();
  form.append('name', values.name);
  scopeFields(form, values);
  if (values.file) form.append('file', values.file);
  else {
    form.append('url', values.url);
    form.append('refreshIntervalMinutes', String(values.refreshIntervalMinutes));
  }
  return apiFetch('/api/configuration/bundles', { method: 'POST', body: form, schema: trustBundle });
}

export const updateBundle = (id: string, values: BundleSettings & { url: string | null }) =>
  apiFetch(`/api/configuration/bundles/${id}`, {
    method: 'PUT',
    body: { name: values.name, url: values.url, domain: values.domain, incoming: values.incoming, outgoing: values.outgoing, refreshIntervalMinutes: values.refreshIntervalMinutes },
    schema: trustBundle,
  });

export const refreshBundle = (id: string) => apiFetch(`/api/configuration/bundles/${id}/refresh`, { method: 'POST', schema: trustBundle });

export const deleteBundle = (id: string) => apiFetch(`/api/configuration/bundles/${id}`, { method: 'DELETE', schema: okResponse });
