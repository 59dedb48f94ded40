import { randomUUID } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';
import type { EsignatureAccount } from '@clinicrelay/contracts/connectors.ts';
import type { Database } from '../../db/client.ts';
import { auditedByAdmin, writeAudit } from '../../platform/audit.ts';
import type { AdminCaller } from '../../platform/auth/guard.ts';
import { notFound } from '../../platform/errors.ts';
import { sealText } from '../../platform/sealed-text.ts';
import type { EsignatureConnector } from './connector.ts';
import * as q from './queries.ts';

export interface ConnectorsDeps {
  db: Database;
  now: () => Date;
  appUrl: string;
  signingKey: Uint8Array;
  connector: EsignatureConnector;
}

export const CALLBACK_PATH = '/api/connectors/callback';
const STATE_AUDIENCE = 'esignature-signin-state';
// The sign-in window is watched 120 s by the screen; the state outlives it a little (a slow typist).
const STATE_LIFETIME = '10m';
const TOKEN_PURPOSE = 'esignature-access-token';

// The sandbox is served here, so its redirect URI is our callback's path on the same origin (a real provider's is absolute).
const redirectUri = (deps: ConnectorsDeps) => (deps.connector.provider === 'sandbox' ? CALLBACK_PATH : `${deps.appUrl}${CALLBACK_PATH}`);

const toAccount = (row: q.AccountRow): EsignatureAccount => ({
  id: row.id,
  type: row.type,
  provider: row.provider as EsignatureAccount['provider'],
  accountName: row.accountName,
  email: row.email,
  createdAt: row.createdAt.toISOString(),
});

export const listAccounts = async (deps: ConnectorsDeps) => (await q.findAll(deps.db)).map(toAccount);

// GET /externallogin: the provider's sign-in URL, with a state naming the administrator who asked (signed, 10 minutes),
// so the callback, which arrives without a bearer token, knows whose sign-in it completes.
export async function externalLogin(deps: ConnectorsDeps, caller: AdminCaller) {
  const state = await new SignJWT({ userName: caller.session.userName })
    .setProtectedHeader({ alg: 'HS256' })
    .setAudience(STATE_AUDIENCE)
    .setSubject(caller.session.userId)
    .setJti(randomUUID())
    .setExpirationTime(STATE_LIFETIME)
    .sign(deps.signingKey);
  return { url: deps.connector.authorizeUrl({ state, redirectUri: redirectUri(deps) }), provider: deps.connector.provider };
}

/** The callback: checks the state, exchanges the code, records the account. Null when the state is not valid. */
export async function completeSignIn(deps: ConnectorsDeps, input: { code: string; state: string; ip: string }) {
  const verified = await jwtVerify(input.state, deps.signingKey, { audience: STATE_AUDIENCE, algorithms: ['HS256'] }).catch(() => null);
  const userId = verified?.payload.sub;
  if (!userId) return null;
  const { accessToken, account } = await deps.connector.exchangeCode({ code: input.code, redirectUri: redirectUri(deps) });
  const now = deps.now();
  const row = await q.upsert(deps.db, {
    provider: deps.connector.provider,
    type: deps.connector.accountType,
    externalAccountId: account.externalAccountId,
    accountName: account.accountName,
    email: account.email,
    accessTokenSealed: sealText(deps.signingKey, TOKEN_PURPOSE, accessToken, `${deps.connector.provider}:${account.externalAccountId}`),
    createdBy: userId,
    updatedAt: now,
  });
  await writeAudit(
    deps.db,
    { eventType: 'EsignatureAccountConnected', userId, userName: typeof verified.payload.userName === 'string' ? verified.payload.userName : null, ip: input.ip, details: { accountId: row.id, provider: row.provider } },
    now,
  );
  return toAccount(row);
}

export async function deleteAccount(deps: ConnectorsDeps, caller: AdminCaller, id: string) {
  const row = await q.remove(deps.db, id);
  if (!row) throw notFound();
  await writeAudit(deps.db, { eventType: 'EsignatureAccountRemoved', ...auditedByAdmin(caller), details: { accountId: id, provider: row.provider } }, deps.now());
  return { ok: true as const };
}
