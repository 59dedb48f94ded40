#!/usr/bin/env node
// Issue 29 §8: a check anyone can run from outside. A client application obtains a token by client credentials
// (discovered through RFC 8414 metadata) and lists its organization's Intake with it.
//   npm run oauth:check -- <base URL> <client id> <client secret>
//   (or OAUTH_CHECK_URL, OAUTH_CHECK_CLIENT_ID, OAUTH_CHECK_CLIENT_SECRET)
// Exit code 0 and one summary line on success; 1 and the failing step otherwise.

const [baseArg, idArg, secretArg] = process.argv.slice(2);
const base = (baseArg ?? process.env.OAUTH_CHECK_URL ?? '').replace(/\/+$/, '');
const clientId = idArg ?? process.env.OAUTH_CHECK_CLIENT_ID;
const clientSecret = secretArg ?? process.env.OAUTH_CHECK_CLIENT_SECRET;

function fail(step, detail) {
  console.error(`oauth-check: ${step} failed${detail ? `: ${detail}` : ''}`);
  process.exit(1);
}

if (!base || !clientId || !clientSecret) fail('arguments', 'usage: oauth-check.mjs <base URL> <client id> <client secret>');

async function main() {
  const metadataResponse = await fetch(`${base}/.well-known/oauth-authorization-server`);
  if (!metadataResponse.ok) fail('discovery', `HTTP ${metadataResponse.status}`);
  const metadata = await metadataResponse.json();
  // The endpoints' path from the metadata, on the base URL given (the issuer may name the public host).
  const tokenUrl = new URL(new URL(metadata.token_endpoint).pathname, `${base}/`);
  const basic = Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`).toString('base64');
  const tokenResponse = await fetch(tokenUrl, {
    method: 'POST',
    headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=client_credentials&scope=intake.read',
  });
  const token = await tokenResponse.json().catch(() => ({}));
  if (!tokenResponse.ok || !token.access_token) fail('token', `HTTP ${tokenResponse.status} ${token.error ?? ''} ${token.error_description ?? ''}`.trim());
  const intakeResponse = await fetch(`${base}/api/intake`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token.access_token}`, 'content-type': 'application/json' },
    body: '{}',
  });
  if (!intakeResponse.ok) fail('intake', `HTTP ${intakeResponse.status} ${await intakeResponse.text()}`);
  const intake = await intakeResponse.json();
  console.log(`oauth-check: ok: token scope "${token.scope}", expires in ${token.expires_in} s; Intake lists ${intake.totalCount} message(s)`);
}

main().catch((error) => fail('request', error instanceof Error ? error.message : String(error)));
