import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { exportJWK, generateKeyPair } from 'jose';
import Provider, { errors, type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import { oauthScopes } from '@clinicrelay/contracts/oauth.ts';
import type { Database } from '../../db/client.ts';
import { clientApplications, oauthKeys } from '../../db/schema/client-applications.ts';
import { databaseAdapter } from './adapter.ts';

export interface OAuthSettings {
  accessTokenSeconds: number;
  clientCredentialsSeconds: number;
  refreshTokenSeconds: number;
  authorizationCodeSeconds: number;
  rateLimitPerMinute: number;
}

export interface OAuthServerDeps {
  db: Database;
  // The issuer: this server's public URL (PUBLIC_URL, else http://localhost:PORT).
  issuer: string;
  cookieSecret: Uint8Array;
  trustProxy: boolean;
  settings: OAuthSettings;
  now: () => Date;
  // The product's users: does the account still exist and may it sign in.
  accountExists: (userId: string) => Promise<boolean>;
}

// The SPA's consent page (apps/web/src/features/oauth): the provider sends the browser there for sign-in and consent.
export const CONSENT_PATH = '/consent';
// The access tokens' audience: the product's API.
export const apiResource = (issuer: string) => `${issuer}/api`;

// The account an authorization-code token acts as: the user, within the organization current when they consented.
export const accountIdOf = (userId: string, organizationId: string | null) => `${userId}:${organizationId ?? ''}`;
export function parseAccountId(accountId: string): { userId: string; organizationId: string | null } {
  const [userId = '', organizationId = ''] = accountId.split(':');
  return { userId, organizationId: organizationId || null };
}

export const hashClientSecret = (secret: string) => createHash('sha256').update(secret, 'utf8').digest('hex');

// One RS256 key shared by every server process: the first one to start makes it.
async function signingKey(db: Database) {
  const [existing] = await db.select().from(oauthKeys).where(eq(oauthKeys.id, 'signing'));
  if (existing) return existing.jwk;
  const { privateKey } = await generateKeyPair('RS256', { extractable: true, modulusLength: 2048 });
  const jwk = { ...(await exportJWK(privateKey)), alg: 'RS256', use: 'sig', kid: `k${Date.now().toString(36)}` };
  await db.insert(oauthKeys).values({ id: 'signing', jwk }).onConflictDoNothing();
  const [stored] = await db.select().from(oauthKeys).where(eq(oauthKeys.id, 'signing'));
  return stored!.jwk;
}

// oidc-provider (panva), OpenID Certified: the authorization-code flow with PKCE, client credentials, rotating refresh
// tokens, revocation (RFC 7009), introspection (RFC 7662) and discovery (RFC 8414), configured for the product.
export async function createOAuthProvider(deps: OAuthServerDeps): Promise<Provider> {
  const { db, issuer, settings } = deps;
  const resource = apiResource(issuer);
  const jwk = await signingKey(db);
  const credentialsVersion = async (clientId: string) =>
    (await db.select({ v: clientApplications.credentialsVersion }).from(clientApplications).where(eq(clientApplications.clientId, clientId)))[0]?.v;

  const configuration: Configuration = {
    adapter: databaseAdapter(db, deps.now),
    clients: [],
    jwks: { keys: [jwk] },
    cookies: { keys: [Buffer.from(createHmac('sha256', deps.cookieSecret).update('oauth-cookies').digest()).toString('base64')] },
    findAccount: async (_ctx, id) => {
      const { userId } = parseAccountId(id);
      if (!(await deps.accountExists(userId))) return undefined;
      return { accountId: id, claims: () => ({ sub: id }) };
    },
    scopes: ['openid', 'offline_access', ...oauthScopes],
    claims: { openid: ['sub'] },
    clientAuthMethods: ['client_secret_basic', 'client_secret_post'],
    pkce: { required: () => true },
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      introspection: {
        enabled: true,
        // A client learns about its own tokens only (the default answers any confidential client).
        allowedPolicy: (_ctx, client, token) => token.clientId === client.clientId,
      },
      // A client revokes its own tokens only.
      revocation: { enabled: true, allowedPolicy: (_ctx, client, token) => token.clientId === client.clientId },
      rpInitiatedLogout: { enabled: false },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => resource,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, requested) => {
          if (requested !== resource) throw new errors.InvalidTarget();
          // Opaque tokens are looked up on every call: a revoked token or a regenerated secret is refused at once.
          return { scope: oauthScopes.join(' '), audience: resource, accessTokenFormat: 'opaque', accessTokenTTL: settings.accessTokenSeconds };
        },
      },
    },
    // The consent screen is asked every time: the provider's own session may belong to whoever used this browser
    // before, while the consent page shows (and grants as) the user signed in to the product now.
    // Only the grant the consent page has just made counts, never one kept in the provider's session.
    loadExistingGrant: async (ctx) => {
      const grantId = (ctx.oidc.result?.consent as { grantId?: string } | undefined)?.grantId;
      return grantId ? ctx.oidc.provider.Grant.find(grantId) : undefined;
    },
    interactions: { url: (_ctx: KoaContextWithOIDC, interaction) => `${CONSENT_PATH}/${interaction.uid}` },
    routes: {
      authorization: '/oauth/authorize',
      token: '/oauth/token',
      jwks: '/oauth/jwks',
      revocation: '/oauth/revoke',
      introspection: '/oauth/introspect',
      userinfo: '/oauth/userinfo',
      end_session: '/oauth/session/end',
      code_verification: '/oauth/device',
      device_authorization: '/oauth/device/auth',
      pushed_authorization_request: '/oauth/par',
      registration: '/oauth/reg',
      backchannel_authentication: '/oauth/backchannel',
    },
    ttl: {
      AccessToken: settings.accessTokenSeconds,
      ClientCredentials: settings.clientCredentialsSeconds,
      AuthorizationCode: settings.authorizationCodeSeconds,
      RefreshToken: settings.refreshTokenSeconds,
      Grant: settings.refreshTokenSeconds,
      IdToken: settings.accessTokenSeconds,
      Interaction: 600,
      Session: 600,
    },
    issueRefreshToken: (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    rotateRefreshToken: true,
    // The credentials version the token was issued under: a regeneration raises it and the guard refuses older ones.
    extraTokenClaims: async (_ctx, token) => ({ cv: await credentialsVersion(token.clientId!) }),
    renderError: (ctx, out) => {
      ctx.type = 'html';
      const escape = (s: unknown) => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
      ctx.body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Authorization error</title></head><body><h1>Authorization error</h1><p>${escape(out.error)}</p><p>${escape(out.error_description ?? '')}</p></body></html>`;
    },
  };
  const provider = new Provider(issuer, configuration);
  provider.proxy = deps.trustProxy;
  // client_secret holds the secret's SHA-256: hash what the client sends and compare in constant time.
  provider.Client.prototype.compareClientSecret = function compareClientSecret(this: { clientSecret?: string }, actual: string) {
    const expected = Buffer.from(this.clientSecret ?? '', 'hex');
    const given = Buffer.from(hashClientSecret(actual), 'hex');
    return expected.length === given.length && timingSafeEqual(expected, given);
  };
  return provider;
}
