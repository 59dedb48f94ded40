// Introduces two ClinicRelay installations to each other for Direct: each one's demo certificate authority becomes a
// trust anchor of the other, through the back office's own calls (GET …/anchors/{id}/certificate, POST …/anchors) as
// the demo system administrator. Used by `npm run demo:peer` and the two-installation journey.

const ANCHORS = '/api/configuration/anchors';
const DEMO_CA_NAME = 'ClinicRelay Demo CA';
const PEER_ANCHOR_NAME = 'Demo peer CA';

async function call(baseUrl, path, init = {}) {
  const response = await fetch(new URL(path, baseUrl), init);
  if (!response.ok) {
    const error = new Error(`${init.method ?? 'GET'} ${path} on ${baseUrl}: ${response.status} ${await response.text()}`);
    error.status = response.status;
    throw error;
  }
  return response;
}

async function signIn(baseUrl, password) {
  const response = await call(baseUrl, '/api/account/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ userName: 'sysadmin@example.org', password }),
  });
  return { baseUrl, authorization: `Bearer ${(await response.json()).accessToken}` };
}

async function anchors(session) {
  const response = await call(session.baseUrl, `${ANCHORS}?pageNumber=1&pageSize=100`, { headers: { authorization: session.authorization } });
  return (await response.json()).items;
}

async function demoAnchorPem(session) {
  const demo = (await anchors(session)).find((anchor) => anchor.name === DEMO_CA_NAME);
  if (!demo) throw new Error(`${session.baseUrl} has no "${DEMO_CA_NAME}" trust anchor (is it a demo installation?)`);
  return (await call(session.baseUrl, `${ANCHORS}/${demo.id}/certificate`, { headers: { authorization: session.authorization } })).text();
}

async function trust(session, pem) {
  if ((await anchors(session)).some((anchor) => anchor.name === PEER_ANCHOR_NAME)) return false;
  const form = new FormData();
  form.append('name', PEER_ANCHOR_NAME);
  form.append('incoming', 'true');
  form.append('outgoing', 'true');
  form.append('file', new Blob([pem]), 'demo-peer-ca.pem');
  await call(session.baseUrl, ANCHORS, { method: 'POST', headers: { authorization: session.authorization }, body: form });
  return true;
}

/** Each installation trusts the other's demo CA (idempotent); says whether anything was added. */
export async function introduce(firstUrl, secondUrl, password) {
  const [first, second] = await Promise.all([signIn(firstUrl, password), signIn(secondUrl, password)]);
  const [firstPem, secondPem] = await Promise.all([demoAnchorPem(first), demoAnchorPem(second)]);
  const added = await Promise.all([trust(first, secondPem), trust(second, firstPem)]);
  return added.some(Boolean);
}
