import { z } from 'zod';
import { okResponse } from '@clinicrelay/contracts/account.ts';
import { alternateOid, directoryEntry, directoryEntryList, directorySyncResult, type AlternateOidSave, type DirectoryEntrySave } from '@clinicrelay/contracts/carequality.ts';
import { apiFetch } from './client.ts';

// back-office-a §7 "Organizations": the carequality tab's alternate OIDs and directory entries.
export const carequalityKeys = {
  all: ['carequality'] as const,
  oids: (organizationId: string) => [...carequalityKeys.all, organizationId, 'oids'] as const,
  entries: (organizationId: string) => [...carequalityKeys.all, organizationId, 'entries'] as const,
};

const base = (id: string) => `/api/admin/organizations/${id}`;
export const fetchOids = (organizationId: string, signal?: AbortSignal) => apiFetch(`${base(organizationId)}/oids`, { schema: z.array(alternateOid), signal });
export const saveOid = (organizationId: string, body: AlternateOidSave) =>
  apiFetch(`${base(organizationId)}/oids`, { method: body.id ? 'PUT' : 'POST', body: { ...body, organizationId }, schema: alternateOid });
export const deleteOid = (organizationId: string, oidId: string) => apiFetch(`${base(organizationId)}/oids/${oidId}`, { method: 'DELETE', schema: okResponse });
export const fetchDirectoryEntries = (organizationId: string, signal?: AbortSignal) => apiFetch(`${base(organizationId)}/directoryentries`, { schema: directoryEntryList, signal });
export const saveDirectoryEntry = (organizationId: string, body: DirectoryEntrySave) => apiFetch(`${base(organizationId)}/directoryentries`, { method: 'PUT', body, schema: directoryEntry });
export const syncDirectoryEntries = (organizationId: string, oids: string[]) => apiFetch(`${base(organizationId)}/directoryentries/sync`, { method: 'POST', body: { oids }, schema: directorySyncResult });
