import { randomBytes } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';
import type { EsignatureConnector } from './connector.ts';

// The sandbox e-signature provider (ESIGNATURE_PROVIDER=sandbox): behaves like a provider's test ("demo") mode. Its
// sign-in page is served by this server under /api/connectors/sandbox/ (routes.ts); accepting it sends the browser to
// the redirect URI with an authorization code, a signed token naming the test account, valid 5 minutes, which
// exchangeCode checks as the provider's token endpoint would. No network call, nothing leaves the machine.
export const SANDBOX_CLIENT_ID = 'clinicrelay-sandbox';
export const SANDBOX_SIGN_IN_PATH = '/api/connectors/sandbox/oauth/auth';
export const SANDBOX_APPROVE_PATH = '/api/connectors/sandbox/oauth/approve';
export const SANDBOX_ACCOUNT_TYPE = 'DocuSign (sandbox)';
const CODE_AUDIENCE = 'esignature-sandbox-code';
const CODE_LIFETIME = '5m';

export interface SandboxAccount {
  accountName: string;
  email: string;
}

export function createSandboxEsignatureConnector(deps: { appUrl: string; signingKey: Uint8Array }): EsignatureConnector & {
  issueCode(input: SandboxAccount & { redirectUri: string }): Promise<string>;
} {
  return {
    provider: 'sandbox',
    accountType: SANDBOX_ACCOUNT_TYPE,
    authorizeUrl: ({ state, redirectUri }) => {
      const params = new URLSearchParams({ response_type: 'code', client_id: SANDBOX_CLIENT_ID, redirect_uri: redirectUri, state, scope: 'signature' });
      // Relative: the sandbox is served by the origin the back office runs on, so the sign-in window stays same-origin
      // with the screen that watches it (a window on another origin would read as closed at once).
      return `${SANDBOX_SIGN_IN_PATH}?${params.toString()}`;
    },
    // The sandbox's "authorization server": the code carries the account the tester accepted.
    issueCode: ({ accountName, email, redirectUri }) =>
      new SignJWT({ accountName, email, redirectUri })
        .setProtectedHeader({ alg: 'HS256' })
        .setAudience(CODE_AUDIENCE)
        .setSubject(`sandbox-${Buffer.from(email.toLowerCase()).toString('hex').slice(0, 32)}`)
        .setExpirationTime(CODE_LIFETIME)
        .sign(deps.signingKey),
    async exchangeCode({ code, redirectUri }) {
      const { payload } = await jwtVerify(code, deps.signingKey, { audience: CODE_AUDIENCE, algorithms: ['HS256'] });
      if (payload.redirectUri !== redirectUri || typeof payload.sub !== 'string') throw new Error('The authorization code does not match the redirect URI.');
      return {
        accessToken: `sandbox-${randomBytes(24).toString('base64url')}`,
        account: { externalAccountId: payload.sub, accountName: String(payload.accountName), email: String(payload.email) },
      };
    },
  };
}
