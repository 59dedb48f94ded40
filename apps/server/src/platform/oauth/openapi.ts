import { oauthScopeDescriptions, oauthScopes, type OAuthScope } from '@clinicrelay/contracts/oauth.ts';

// Issue 29 §1: the security schemes of /api/docs, so a vendor can "Authorize" with a client application's
// credentials and try a call. Relative URLs: they resolve against the server the document was served from.
export function oauthOpenApi() {
  const scopes = Object.fromEntries(oauthScopes.map((s) => [s, oauthScopeDescriptions[s]]));
  return {
    oauth2: {
      type: 'oauth2' as const,
      description: 'A client application registered by a system administrator (Admin > Client applications).',
      flows: {
        authorizationCode: { authorizationUrl: '/oauth/authorize', tokenUrl: '/oauth/token', refreshUrl: '/oauth/token', scopes: { ...scopes, offline_access: oauthScopeDescriptions.offline_access } },
        clientCredentials: { tokenUrl: '/oauth/token', scopes },
      },
    },
  };
}

// A route an application may call: a session's bearer token, or an OAuth token with the route's scope.
export const oauthRouteSecurity = (scope: OAuthScope): Record<string, string[]>[] => [{ bearer: [] }, { oauth2: [scope] }];
