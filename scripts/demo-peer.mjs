// `npm run demo:peer` (issue 12 §6): a second installation beside the one `npm start` runs, on its own port (8081),
// data folder (./data-peer), Direct domain (*.peer.example.net), SMTP port (2526) and CERT responder (5301). The two
// find each other through the development defaults (config.ts: the first routes peer.example.net to 2526 and asks the
// responders on 5300 and 5301) and are introduced by trusting each other's demo CA. Ctrl-C stops the peer.
// The first installation is found where `npm start` put it with the same PORT, DIRECT_SMTP_PORT and
// DIRECT_DNS_PUBLISH_PORT (issue 26); PEER_PORT, PEER_SMTP_PORT, PEER_DNS_PUBLISH_PORT and PEER_DATA_DIR move the peer.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { introduce } from './direct-introduce.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const env = process.env;
// The first installation's ports: the variables it was started with, else its development defaults.
const mainUrl = env.MAIN_URL ?? `http://localhost:${env.PORT || '8080'}`;
const mainSmtpPort = env.DIRECT_SMTP_PORT || '2525';
const mainDnsPort = env.DIRECT_DNS_PUBLISH_PORT || '5300';
const peerPort = env.PEER_PORT || '8081';
const peerSmtpPort = env.PEER_SMTP_PORT || '2526';
const peerDnsPort = env.PEER_DNS_PUBLISH_PORT || '5301';
// The peer's emergency-organization service (issue 29 §6): beside the first installation's 8090.
const peerEmergencyPort = env.PEER_EMERGENCY_SERVICE_PORT || '8091';
const peerUrl = `http://localhost:${peerPort}`;
const movedPeer = peerSmtpPort !== '2526' || peerDnsPort !== '5301';
const password = process.env.DEMO_PASSWORD ?? 'Demo-pass-2026!';

// What the peer inherits: not the first installation's own address, data or database.
function peerEnvironment(given) {
  const inherited = { ...given };
  for (const name of ['PUBLIC_URL', 'DATABASE_URL', 'DIRECT_SMTP_HOST', 'DIRECT_TLS_CERT_FILE', 'DIRECT_TLS_KEY_FILE', 'EMERGENCY_SERVICE_URL']) delete inherited[name];
  return inherited;
}

async function healthy(url) {
  try {
    const response = await fetch(new URL('/api/health', url), { signal: AbortSignal.timeout(2000) });
    return response.ok;
  } catch {
    return false;
  }
}

if (!(await healthy(mainUrl))) {
  console.error(`The first installation is not answering at ${mainUrl}. Start it with \`npm start\` (or set MAIN_URL), then run \`npm run demo:peer\`.`);
  process.exit(1);
}

const peer = spawn(process.execPath, [path.join(root, 'scripts/start.mjs')], {
  cwd: root,
  stdio: 'inherit',
  env: {
    ...peerEnvironment(env),
    NODE_ENV: 'development',
    PORT: peerPort,
    DATA_DIR: env.PEER_DATA_DIR ?? path.join(root, 'data-peer'),
    DEMO_WORLD: 'peer',
    DEMO_PASSWORD: password,
    DIRECT_HOSTNAME: 'peer.localhost',
    DIRECT_SMTP_PORT: peerSmtpPort,
    DIRECT_DNS_PUBLISH_PORT: peerDnsPort,
    DIRECT_DNS_SERVERS: `127.0.0.1:${peerDnsPort},127.0.0.1:${mainDnsPort}`,
    DIRECT_SMARTHOSTS: `direct.example.org=127.0.0.1:${mainSmtpPort}`,
    EMERGENCY_SERVICE_PORT: peerEmergencyPort,
  },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => peer.kill(signal));
peer.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));

const deadline = Date.now() + 180_000;
while (!(await healthy(peerUrl))) {
  if (Date.now() > deadline) {
    console.error(`The peer did not start at ${peerUrl} within 3 minutes.`);
    peer.kill('SIGTERM');
    process.exit(1);
  }
  await new Promise((resolve) => setTimeout(resolve, 500));
}
try {
  const added = await introduce(mainUrl, peerUrl, password);
  console.log(
    [
      '',
      `Demo peer running at ${peerUrl}; ${added ? 'the two installations now trust each other’s demo CA' : 'the two installations already trusted each other'}.`,
      `  Send: sign in at ${mainUrl} as user@lakeside.example.org and send to referrals@riverview.peer.example.net`,
      `  Receive: sign in at ${peerUrl} as user@riverview.example.org (Summit Cardiology (peer)) and open Intake`,
      '  The sender’s message page shows each recipient’s timeline: queued, sent, processed, dispatched.',
      ...(movedPeer
        ? [`  The peer is not on its default ports: start the first installation with DIRECT_SMARTHOSTS=peer.example.net=127.0.0.1:${peerSmtpPort} DIRECT_DNS_SERVERS=127.0.0.1:${mainDnsPort},127.0.0.1:${peerDnsPort} so it finds the peer.`]
        : []),
      `  Password for both: ${password}`,
    ].join('\n'),
  );
} catch (error) {
  console.error(`Could not introduce the installations: ${error.message}`);
}
