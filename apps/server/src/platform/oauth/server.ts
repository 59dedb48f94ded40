import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type Provider from 'oidc-provider';
import { oauthScopes, type OAuthScope } from '@clinicrelay/contracts/oauth.ts';
import type { Role } from '@clinicrelay/contracts/roles.ts';
import type { Database } from '../../db/client.ts';
import { clientApplications } from '../../db/schema/client-applications.ts';
import { organizations } from '../../db/schema/organizations.ts';
import { memberships, users } from '../../db/schema/users.ts';
import { accountIdOf, apiResource, createOAuthProvider, parseAccountId, type OAuthServerDeps } from './provider.ts';

// Who calls the API with an OAuth access token: the application, and the user (or integration user) it acts as.
export interface OAuthCaller {
  clientId: string;
  applicationName: string;
  scopes: OAuthScope[];
  // 'user': the authorization-code flow (a person consented); 'client': client credentials (a system integration).
  grant: 'user' | 'client';
  tokenId: string;
  userId: string;
  userName: string;
  organizationId: string | null;
  roles: Role[];
  organizationCancelled: boolean;
}

export interface ConsentRequest {
  clientId: string;
  clientName: string;
  logoUrl: string;
  applicationUrl: string;
  scopes: string[];
}

export interface OAuthServer {
  provider: Provider;
  verify(token: string): Promise<OAuthCaller | null>;
  consentRequest(uid: string): Promise<ConsentRequest | null>;
  // Records the user's answer; returns where the browser resumes the authorization (null: no such interaction).
  decide(uid: string, decision: { allow: false } | { allow: true; userId: string; organizationId: string | null }): Promise<string | null>;
  mount(app: FastifyInstance, options?: { rateLimitPerMinute: number }): Promise<void>;
}

// A client-credentials integration acts for its whole organization, as an Administrator does: it sees all of the
// organization's Intake (a User sees only what visibility rules assign to them). Its scopes still confine it to the
// Intake, Release and directory routes, so it can never administer the organization (users, settings, billing). Its
// membership row stays 'User' so it is never listed or notified as one of the organization's administrators.
const INTEGRATION_ROLES: Role[] = ['Administrator'];

export async function createOAuthServer(deps: Omit<OAuthServerDeps, 'accountExists'>): Promise<OAuthServer> {
  const { db } = deps;
  const resource = apiResource(deps.issuer);
  const provider = await createOAuthProvider({
    ...deps,
    accountExists: async (userId) => !!(await userRow(db, userId)),
  });

  async function verify(token: string): Promise<OAuthCaller | null> {
    if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return null;
    const found = (await provider.AccessToken.find(token)) ?? (await provider.ClientCredentials.find(token));
    if (!found || found.isExpired || !found.clientId || found.aud !== resource) return null;
    const [application] = await db.select().from(clientApplications).where(eq(clientApplications.clientId, found.clientId));
    if (!application || found.extra?.cv !== application.credentialsVersion) return null;
    const granted = new Set(String(found.scope ?? '').split(' '));
    const base = { clientId: application.clientId, applicationName: application.name, scopes: oauthScopes.filter((s) => granted.has(s)), tokenId: found.jti };
    if (found.kind === 'ClientCredentials') {
      if (!application.organizationId || !application.integrationUserId) return null;
      const org = await organizationRow(db, application.organizationId);
      const user = await userRow(db, application.integrationUserId);
      if (!org?.isEnabled || !user) return null;
      return { ...base, grant: 'client', userId: user.id, userName: user.userName, organizationId: org.id, roles: INTEGRATION_ROLES, organizationCancelled: cancelled(org, new Date()) };
    }
    const accountId = (found as { accountId?: string }).accountId;
    if (!accountId) return null;
    const { userId, organizationId } = parseAccountId(accountId);
    const user = await userRow(db, userId);
    if (!user) return null;
    // The user's roles now, not at consent: a changed role or a removed membership applies to the application at once.
    const roles = [...user.systemRoles] as Role[];
    let organizationCancelled = false;
    if (organizationId) {
      const [member] = await db
        .select({ role: memberships.role })
        .from(memberships)
        .where(and(eq(memberships.userId, userId), eq(memberships.organizationId, organizationId)));
      const org = await organizationRow(db, organizationId);
      if (member && org?.isEnabled) roles.push(member.role);
      organizationCancelled = !!org && cancelled(org, new Date()) && !roles.includes('SysAdmin');
    }
    if (!roles.length) return null;
    return { ...base, grant: 'user', userId, userName: user.userName, organizationId, roles, organizationCancelled };
  }

  async function consentRequest(uid: string): Promise<ConsentRequest | null> {
    const interaction = await provider.Interaction.find(uid);
    if (!interaction || interaction.result || interaction.isExpired) return null;
    const clientId = ((interaction.params.client_id as string | undefined) ?? '');
    const [application] = await db.select().from(clientApplications).where(eq(clientApplications.clientId, clientId));
    if (!application) return null;
    const requested = new Set(((interaction.params.scope as string | undefined) ?? '').split(' '));
    const scopes = ['openid', 'offline_access', ...oauthScopes].filter((s) => requested.has(s));
    return { clientId, clientName: application.name, logoUrl: application.logoUrl, applicationUrl: application.applicationUrl, scopes };
  }

  const decide: OAuthServer['decide'] = async (uid, decision) => {
    const interaction = await provider.Interaction.find(uid);
    if (!interaction || interaction.result || interaction.isExpired) return null;
    if (!decision.allow) {
      interaction.result = { error: 'access_denied', error_description: 'The user denied the authorization request.' };
    } else {
      const accountId = accountIdOf(decision.userId, decision.organizationId);
      const grant = new provider.Grant({ accountId, clientId: interaction.params.client_id as string });
      const requested = new Set(((interaction.params.scope as string | undefined) ?? '').split(' '));
      // The API scopes are also listed as the provider's static scopes (so discovery names them): granted both ways.
      const api = oauthScopes.filter((s) => requested.has(s));
      const oidc = [...['openid', 'offline_access'].filter((s) => requested.has(s)), ...api];
      if (oidc.length) grant.addOIDCScope(oidc.join(' '));
      if (api.length) grant.addResourceScope(resource, api.join(' '));
      interaction.result = { login: { accountId }, consent: { grantId: await grant.save() } };
    }
    await interaction.save(Math.max(1, (interaction.exp ?? 0) - Math.floor(Date.now() / 1000)));
    return interaction.returnTo;
  };

  // The provider is a Koa application: its paths get the raw request, body unread (it parses its own forms).
  async function mount(app: FastifyInstance, options?: { rateLimitPerMinute: number }) {
    const handler = provider.callback();
    await app.register(async (scope) => {
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
      const config = { roles: 'public' as const, ...(options ? { rateLimit: { max: options.rateLimitPerMinute, timeWindow: 60_000 } } : {}) };
      for (const url of ['/oauth/*', '/.well-known/openid-configuration', '/.well-known/oauth-authorization-server']) {
        scope.route({
          method: ['GET', 'POST', 'OPTIONS'],
          url,
          config,
          schema: { hide: true },
          handler: async (request, reply) => {
            reply.hijack();
            await handler(request.raw, reply.raw);
          },
        });
      }
    });
  }

  return { provider, verify, consentRequest, decide, mount };
}

const cancelled = (org: { cancelledAt: Date | null; gracePeriodEndsAt: Date | null }, now: Date) =>
  !!org.cancelledAt && !(org.gracePeriodEndsAt && org.gracePeriodEndsAt > now);

async function userRow(db: Database, userId: string) {
  if (!/^[0-9a-f-]{36}$/i.test(userId)) return undefined;
  const [row] = await db
    .select({
      id: users.id,
      userName: users.userName,
      systemRoles: sql<string[]>`array(select r.role from user_system_roles r where r.user_id = ${users.id} order by r.role)`,
    })
    .from(users)
    .where(and(eq(users.id, userId), eq(users.isDisabled, false)));
  return row;
}

async function organizationRow(db: Database, organizationId: string) {
  const [row] = await db
    .select({ id: organizations.id, isEnabled: organizations.isEnabled, cancelledAt: organizations.cancelledAt, gracePeriodEndsAt: organizations.gracePeriodEndsAt })
    .from(organizations)
    .where(eq(organizations.id, organizationId));
  return row;
}
