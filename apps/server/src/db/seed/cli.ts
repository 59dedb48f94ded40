import { loadConfig } from '../../config.ts';
import { terminateOcr } from '../../modules/extraction/ocr.ts';
import { createBlobStore } from '../../platform/blobs/blob-store.ts';
import type { WorkflowLogger } from '../../platform/workflows/context.ts';
import { workflowHandlers } from '../../platform/workflows/registry.ts';
import { runOnce } from '../../platform/workflows/runner.ts';
import { openDatabase } from '../client.ts';
import { demoSignInLines, seedDemo, seedDemoFeatures } from './demo.ts';
import { seedDemoResellers } from './demo-resellers.ts';
import { seedDemoDirectory } from './demo-directory.ts';
import { seedDemoCertificates } from './demo-certificates.ts';
import { makePeerWorld, PEER_DEMO_CA_NAME, peerOrganizationName } from './demo-peer.ts';
import { seedDemoMessages } from './demo-messages.ts';
import { seedDemoEmergencies } from './demo-emergencies.ts';

// `npm run seed:demo`: seeds the demo world into DATABASE_URL or the embedded database (idempotent),
// then, since no workers run here, runs the queued workflows so the demo messages are delivered
// when the command ends.
const config = loadConfig();
if (config.env === 'production') {
  console.error('Refusing to seed the demo world in production mode.');
  process.exit(1);
}
const handle = await openDatabase(config);
try {
  await handle.migrate();
  await seedDemo(handle.db, config);
  const peer = config.demoWorld === 'peer';
  if (peer) await makePeerWorld(handle.db);
  await seedDemoFeatures(handle.db);
  await seedDemoResellers(handle.db);
  await seedDemoCertificates(handle.db, config.blobEncryptionKey, new Date(), peer ? PEER_DEMO_CA_NAME : undefined);
  const directory = await seedDemoDirectory(handle);
  await seedDemoEmergencies(handle.db);
  if (directory) console.log(`Demo directory: ${directory} generated NPPES entries loaded.`);
  const now = () => new Date();
  // The peer's world starts with an empty Intake (as on a first `npm run demo:peer`).
  const created = peer ? 0 : await seedDemoMessages({ db: handle.db, blobs: createBlobStore({ db: handle.db, dataDir: config.dataDir, key: config.blobEncryptionKey }), now });
  const logger: WorkflowLogger = {
    info: () => undefined,
    warn: (obj, msg) => console.warn(msg, obj),
    error: (obj, msg) => console.error(msg, obj),
  };
  const handlers = workflowHandlers({ config, db: handle.db, now });
  let ran = 0;
  for (;;) {
    const batch = await runOnce({ db: handle.db, handlers, logger, now });
    if (batch === 0) break;
    ran += batch;
  }
  console.log(`Demo messages: ${created} added; ${ran} queued workflow${ran === 1 ? '' : 's'} run.`);
  console.log(demoSignInLines(config.demoPassword, peer ? peerOrganizationName : undefined).join('\n'));
} finally {
  // A drained extraction may have started the OCR worker; it would keep the command alive.
  await terminateOcr();
  await handle.close();
}
