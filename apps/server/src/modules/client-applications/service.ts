import { randomBytes, randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { clientApplicationMessages as text, type clientApplicationInput, type ClientApplicationQuery } from '@clinicrelay/contracts/client-applications.ts';
import type { Database, DbOrTx } from '../../db/client.ts';
import { auditedByAdmin, writeAudit } from '../../platform/audit.ts';
import type { AdminCaller } from '../../platform/auth/guard.ts';
import { AppError } from '../../platform/errors.ts';
import { destroyClientModels } from '../../platform/oauth/adapter.ts';
import { hashClientSecret } from '../../platform/oauth/provider.ts';
import * as q from './queries.ts';

export interface ClientApplicationsDeps {
  db: Database;
  now: () => Date;
}

type Input = z.output<typeof clientApplicationInput>;

// back-office-b §8: the screens show the server's exceptionMessage for every failure of these calls.
const failure = (status: number, message: string, modelState?: Record<string, string[]>) =>
  new AppError(status, message, { exceptionMessage: message, ...(modelState ? { modelState } : {}) });
const notFound = () => failure(404, text.notFound);

const present = (row: q.ClientApplicationRow, secret?: string) => ({
  id: row.id,
  name: row.name,
  logoUrl: row.logoUrl,
  redirectURI: row.redirectURI,
  applicationUrl: row.applicationUrl,
  clientId: row.clientId,
  organizationId: row.organizationId,
  organizationName: row.organizationName,
  credentialsIssuedAt: row.credentialsIssuedAt.toISOString(),
  ...(secret ? { secret } : {}),
});

// 256 random bits: unguessable, so a fast hash (SHA-256) stores it safely.
const newSecret = () => randomBytes(32).toString('base64url');

export async function listClientApplications(deps: ClientApplicationsDeps, query: ClientApplicationQuery) {
  const page = await q.findClientApplicationPage(deps.db, query);
  return { items: page.items.map((row) => present(row)), totalCount: page.totalCount };
}

export async function getClientApplication(deps: ClientApplicationsDeps, id: string) {
  const row = await q.findClientApplication(deps.db, id);
  if (!row) throw notFound();
  return present(row);
}

async function checkInput(db: DbOrTx, input: Input, exceptId?: string) {
  if (await q.nameTaken(db, input.name, exceptId)) throw failure(400, text.nameExists, { name: [text.nameExists] });
  if (input.organizationId && !(await q.organizationExists(db, input.organizationId))) {
    throw failure(400, text.organizationNotFound, { organizationId: [text.organizationNotFound] });
  }
}

// The integration user follows the bound organization (created the first time one is chosen).
async function bindIntegrationUser(tx: DbOrTx, caller: AdminCaller, app: { clientId: string; name: string; integrationUserId: string | null }, organizationId: string | null) {
  let userId = app.integrationUserId;
  if (!userId && organizationId) userId = await q.insertIntegrationUser(tx, { clientId: app.clientId, name: app.name, by: caller.session.userId });
  if (userId) await q.setIntegrationMembership(tx, userId, organizationId, !organizationId);
  return userId;
}

// The first save makes the credentials; the answer is the only time the secret is shown.
export async function createClientApplication(deps: ClientApplicationsDeps, caller: AdminCaller, input: Input) {
  const secret = newSecret();
  const id = await deps.db.transaction(async (tx) => {
    await checkInput(tx, input);
    const clientId = randomUUID();
    const id = await q.insertClientApplication(tx, {
      name: input.name,
      logoUrl: input.logoUrl,
      redirectUri: input.redirectURI,
      applicationUrl: input.applicationUrl,
      clientId,
      secretHash: hashClientSecret(secret),
      organizationId: input.organizationId ?? null,
      credentialsIssuedAt: deps.now(),
      createdBy: caller.session.userId,
      modifiedBy: caller.session.userId,
    });
    const integrationUserId = await bindIntegrationUser(tx, caller, { clientId, name: input.name, integrationUserId: null }, input.organizationId ?? null);
    if (integrationUserId) await q.updateClientApplication(tx, id, { integrationUserId });
    await writeAudit(tx, { eventType: 'ClientApplicationCreated', ...auditedByAdmin(caller), details: { id, clientId, name: input.name, organizationId: input.organizationId ?? null } });
    return id;
  });
  return present((await q.findClientApplication(deps.db, id))!, secret);
}

export async function updateClientApplication(deps: ClientApplicationsDeps, caller: AdminCaller, id: string, input: Input) {
  await deps.db.transaction(async (tx) => {
    const existing = await q.findClientApplication(tx, id);
    if (!existing) throw notFound();
    await checkInput(tx, input, id);
    const organizationId = input.organizationId ?? null;
    const integrationUserId = await bindIntegrationUser(tx, caller, existing, organizationId);
    await q.updateClientApplication(tx, id, {
      name: input.name,
      logoUrl: input.logoUrl,
      redirectUri: input.redirectURI,
      applicationUrl: input.applicationUrl,
      organizationId,
      integrationUserId,
      modifiedBy: caller.session.userId,
      modifiedAt: deps.now(),
    });
    // A new organization: tokens issued for the old one must not read the new one's mail, nor the reverse.
    if (existing.organizationId !== organizationId) await destroyClientModels(tx, existing.clientId);
    await writeAudit(tx, { eventType: 'ClientApplicationUpdated', ...auditedByAdmin(caller), details: { id, clientId: existing.clientId, name: input.name, organizationId } });
  });
  return getClientApplication(deps, id);
}

export async function deleteClientApplication(deps: ClientApplicationsDeps, caller: AdminCaller, id: string) {
  await deps.db.transaction(async (tx) => {
    const row = await q.deleteClientApplication(tx, id);
    if (!row) throw notFound();
    await destroyClientModels(tx, row.clientId);
    if (row.integrationUserId) await q.setIntegrationMembership(tx, row.integrationUserId, null, true);
    await writeAudit(tx, { eventType: 'ClientApplicationDeleted', ...auditedByAdmin(caller), details: { id, clientId: row.clientId, name: row.name } });
  });
  return { ok: true as const };
}

// A new secret: the old one, and every code, token and grant issued under it, stop working at once.
export async function regenerateCredentials(deps: ClientApplicationsDeps, caller: AdminCaller, id: string) {
  const secret = newSecret();
  await deps.db.transaction(async (tx) => {
    const existing = await q.findClientApplication(tx, id);
    if (!existing) throw notFound();
    await q.updateClientApplication(tx, id, {
      secretHash: hashClientSecret(secret),
      credentialsVersion: (await q.credentialsVersion(tx, id)) + 1,
      credentialsIssuedAt: deps.now(),
      modifiedBy: caller.session.userId,
      modifiedAt: deps.now(),
    });
    await destroyClientModels(tx, existing.clientId);
    await writeAudit(tx, { eventType: 'ClientApplicationCredentialsReset', ...auditedByAdmin(caller), details: { id, clientId: existing.clientId } });
  });
  return present((await q.findClientApplication(deps.db, id))!, secret);
}
