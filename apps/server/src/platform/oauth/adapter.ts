import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { Database, DbOrTx } from '../../db/client.ts';
import { clientApplications, oauthModels } from '../../db/schema/client-applications.ts';
import { OAUTH_SCOPE_LIST } from './scopes.ts';

// The metadata oidc-provider reads for a client application. client_secret is the SHA-256 of the secret: the
// provider's compareClientSecret is replaced to hash what the client sends (provider.ts).
export async function clientMetadata(db: Database, clientId: string): Promise<AdapterPayload | undefined> {
  const [row] = await db.select().from(clientApplications).where(eq(clientApplications.clientId, clientId));
  if (!row) return undefined;
  return {
    client_id: row.clientId,
    client_secret: row.secretHash,
    client_name: row.name,
    logo_uri: row.logoUrl,
    client_uri: row.applicationUrl,
    redirect_uris: [row.redirectUri],
    response_types: ['code'],
    // Without a bound organization there is no one for a client-credentials token to act for.
    grant_types: ['authorization_code', 'refresh_token', ...(row.organizationId && row.integrationUserId ? ['client_credentials'] : [])],
    token_endpoint_auth_method: 'client_secret_basic',
    scope: OAUTH_SCOPE_LIST,
  };
}

// oidc-provider's storage (codes, tokens, grants, sessions, interactions) in one table of the product's database, so
// every server process sees the same tokens and a revocation applies to all at once.
export function databaseAdapter(db: Database, now: () => Date) {
  return class DatabaseAdapter implements Adapter {
    constructor(readonly kind: string) {}

    async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
      const row = {
        kind: this.kind,
        id,
        payload: payload as Record<string, unknown>,
        grantId: payload.grantId ?? null,
        userCode: payload.userCode ?? null,
        uid: payload.uid ?? null,
        clientId: payload.clientId ?? null,
        expiresAt: expiresIn ? new Date(now().getTime() + expiresIn * 1000) : null,
      };
      await db.insert(oauthModels).values(row).onConflictDoUpdate({ target: [oauthModels.kind, oauthModels.id], set: row });
      // Expired rows of this kind go as new ones come: no sweep to schedule, and the table stays the size of what is live.
      if (Math.random() < 0.02) await db.delete(oauthModels).where(and(eq(oauthModels.kind, this.kind), lt(oauthModels.expiresAt, now())));
    }

    async findWhere(condition: ReturnType<typeof eq>): Promise<AdapterPayload | undefined> {
      const [row] = await db
        .select()
        .from(oauthModels)
        .where(and(eq(oauthModels.kind, this.kind), condition, or(isNull(oauthModels.expiresAt), sql`${oauthModels.expiresAt} > ${now().toISOString()}::timestamptz`)));
      if (!row) return undefined;
      return { ...row.payload, ...(row.consumedAt ? { consumed: Math.floor(row.consumedAt.getTime() / 1000) } : {}) };
    }

    async find(id: string): Promise<AdapterPayload | undefined> {
      if (this.kind === 'Client') return clientMetadata(db, id);
      return this.findWhere(eq(oauthModels.id, id));
    }

    findByUserCode(userCode: string) {
      return this.findWhere(eq(oauthModels.userCode, userCode));
    }

    findByUid(uid: string) {
      return this.findWhere(eq(oauthModels.uid, uid));
    }

    async consume(id: string): Promise<void> {
      await db.update(oauthModels).set({ consumedAt: now() }).where(and(eq(oauthModels.kind, this.kind), eq(oauthModels.id, id)));
    }

    async destroy(id: string): Promise<void> {
      await db.delete(oauthModels).where(and(eq(oauthModels.kind, this.kind), eq(oauthModels.id, id)));
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await db.delete(oauthModels).where(eq(oauthModels.grantId, grantId));
    }
  };
}

// Regenerated credentials: every code, token and grant of the client goes at once (each row carries its client id).
export async function destroyClientModels(db: DbOrTx, clientId: string): Promise<void> {
  await db.delete(oauthModels).where(eq(oauthModels.clientId, clientId));
}
