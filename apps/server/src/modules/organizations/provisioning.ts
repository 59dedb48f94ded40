import type { DbOrTx } from '../../db/client.ts';
import { ensureSampleRule } from '../intake/sample-rule.ts';
import * as q from './queries.ts';

// The records an activated organization starts with (§4 "create default records address"): a Direct address
// records@{subdomain}.direct.{domain}.
export function defaultRecordsAddress(subdomain: string, publicUrl: string | undefined) {
  let domain = 'example.org';
  try {
    if (publicUrl) domain = new URL(publicUrl).hostname.replace(/^www\./, '');
  } catch {
    // An unparsable PUBLIC_URL was refused by the config already; keep the default.
  }
  return `records@${subdomain}.direct.${domain}`.toLowerCase();
}

/**
 * What activation does besides the flag (issue 26 §3b): the records address goes into service at once (this
 * installation is the organization's HISP, so no outside call is needed: Release offers it as From, local delivery
 * and Intake receive at it). Runs in the caller's transaction; answers the address when one was put in service.
 */
export async function provisionOnActivation(tx: DbOrTx, organization: { id: string; subdomain: string }, publicUrl: string | undefined, seedRecords: boolean) {
  if (!seedRecords) return null;
  const address = defaultRecordsAddress(organization.subdomain, publicUrl);
  if (!(await q.putRecordsAddressInService(tx, organization.id, address))) return null;
  await ensureSampleRule(tx, organization.id);
  return address;
}
