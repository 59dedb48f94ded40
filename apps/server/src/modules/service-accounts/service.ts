import { isIP } from 'node:net';
import { serviceAccountMessages as text } from '@clinicrelay/contracts/service-accounts.ts';
import type { Database } from '../../db/client.ts';
import { auditedByAdmin, writeAudit } from '../../platform/audit.ts';
import type { AdminCaller } from '../../platform/auth/guard.ts';
import { badRequest, notFound } from '../../platform/errors.ts';
import * as q from './queries.ts';

export interface ServiceAccountsDeps {
  db: Database;
}

async function limitOf(deps: ServiceAccountsDeps, organizationId: string) {
  const row = await q.findLimit(deps.db, organizationId);
  if (!row) throw notFound();
  return row;
}

export async function accountsOf(deps: ServiceAccountsDeps, organizationId: string) {
  await limitOf(deps, organizationId);
  return q.findAccounts(deps.db, organizationId);
}

export const getLimit = (deps: ServiceAccountsDeps, organizationId: string) => limitOf(deps, organizationId);

// The organization-level limit: how many service accounts it may have, never below how many it has.
export async function setLimit(deps: ServiceAccountsDeps, caller: AdminCaller, organizationId: string, count: number) {
  await deps.db.transaction(async (tx) => {
    if (!(await q.findLimit(tx, organizationId))) throw notFound();
    const existing = (await q.findAccounts(tx, organizationId)).length;
    if (count < existing) throw badRequest(text.limitTooLow(existing), { count: [text.limitTooLow(existing)] });
    await q.updateLimit(tx, organizationId, count);
    await writeAudit(tx, { eventType: 'ServiceAccountLimitChanged', ...auditedByAdmin(caller), details: { organizationId, count } });
  });
  return { count };
}

async function changeAccount(
  deps: ServiceAccountsDeps,
  caller: AdminCaller,
  organizationId: string,
  accountId: string,
  change: (account: NonNullable<Awaited<ReturnType<typeof q.findAccountForUpdate>>>) => { allowedAddressCount?: number; clientIpAddresses?: string[] },
) {
  return deps.db.transaction(async (tx) => {
    const account = await q.findAccountForUpdate(tx, organizationId, accountId);
    if (!account) throw notFound();
    const values = change(account);
    const row = await q.updateAccount(tx, accountId, values);
    await writeAudit(tx, { eventType: 'ServiceAccountChanged', ...auditedByAdmin(caller), details: { organizationId, serviceAccountId: accountId, clientId: account.clientId, ...values } });
    return row;
  });
}

// §5: the allowed address count never drops below the addresses the account lists.
export const setAddressCount = (deps: ServiceAccountsDeps, caller: AdminCaller, organizationId: string, accountId: string, count: number) =>
  changeAccount(deps, caller, organizationId, accountId, (account) => {
    const listed = account.clientIpAddresses.length;
    if (count < listed) throw badRequest(text.addressCountTooLow(listed), { count: [text.addressCountTooLow(listed)] });
    return { allowedAddressCount: count };
  });

/** An IPv4 or IPv6 address, or a CIDR range of either with a prefix within the family's bits. */
export function isIpAddressOrRange(value: string): boolean {
  const [address = '', prefix, ...rest] = value.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  return prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128));
}

// The ipaddresses tab replaces an account's list: each entry an address or range, none twice, at most the allowed count.
export const setAddresses = (deps: ServiceAccountsDeps, caller: AdminCaller, organizationId: string, accountId: string, addresses: string[]) =>
  changeAccount(deps, caller, organizationId, accountId, (account) => {
    const modelState: Record<string, string[]> = {};
    const seen = new Set<string>();
    addresses.forEach((value, index) => {
      const key = value.toLowerCase();
      if (!isIpAddressOrRange(value)) modelState[`clientIpAddresses.${index}`] = [text.addressInvalid(value)];
      else if (seen.has(key)) modelState[`clientIpAddresses.${index}`] = [text.duplicateAddress(value)];
      seen.add(key);
    });
    const problems = Object.values(modelState).flat();
    if (problems.length > 0) throw badRequest(problems[0]!, modelState);
    if (addresses.length > account.allowedAddressCount) {
      const message = text.tooManyAddresses(account.allowedAddressCount);
      throw badRequest(message, { clientIpAddresses: [message] });
    }
    return { clientIpAddresses: addresses };
  });
