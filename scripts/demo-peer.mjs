// `npm run demo:peer` (issue 12 §6): a second installation beside the one `npm start` runs, on its own port (8081),
// data folder (./data-peer), Direct domain (*.peer.example.net), SMTP port (2526) and CERT responder (5301). The two
// find each other through the development defaults (config.ts: the first routes peer.example.net to 2526 and asks the
// responders on 5300 and 5301) and are introduced by trusting each other's demo CA. Ctrl-C stops the peer.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { introduce } from './direct-introduce.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const mainUrl = process.env.MAIN_URL ?? 'http://localhost:8080';
const peerPort = process.env.PEER_PORT ?? '8081';
const peerUrl = `http://localhost:${peerPort}`;
const password = process.env.DEMO_PASSWORD ?? 'Demo-pass-2026!';

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
    ...process.env,
    NODE_ENV: 'development',
    PORT: peerPort,
    DATA_DIR: process.env.PEER_DATA_DIR ?? path.join(root, 'data-peer'),
    DEMO_WORLD: 'peer',
    DEMO_PASSWORD: password,
    DIRECT_HOSTNAME: 'peer.localhost',
    DIRECT_SMTP_PORT: '2526',
    DIRECT_DNS_PUBLISH_PORT: '5301',
    DIRECT_DNS_SERVERS: '127.0.0.1:5301,127.0.0.1:5300',
    DIRECT_SMARTHOSTS: 'direct.example.org=127.0.0.1:2525',
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
      `  Password for both: ${password}`,
    ].join('\n'),
  );
} catch (error) {
  console.error(`Could not introduce the installations: ${error.message}`);
}
