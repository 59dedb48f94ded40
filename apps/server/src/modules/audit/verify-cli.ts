import { loadConfig } from '../../config.ts';
import { openDatabase } from '../../db/client.ts';
import { verifyAuditChain } from '../../platform/audit-chain.ts';

// `npm run audit:verify`: walks every organization's audit chain in DATABASE_URL or the embedded database and
// names the first broken link of each; exits 1 when one is found.
const config = loadConfig();
const handle = await openDatabase(config);
try {
  const report = await verifyAuditChain(handle.db);
  console.log(`Audit trail: ${report.rows} rows in ${report.chains} chains checked.`);
  for (const head of report.heads) console.log(`  chain ${head.chain}: ${head.seq} links, head ${head.hash}`);
  if (report.broken.length === 0) {
    console.log('Every link holds.');
  } else {
    for (const b of report.broken) console.error(`BROKEN chain ${b.chain} at link ${b.seq} (${b.reason}): ${b.detail}`);
    process.exitCode = 1;
  }
} finally {
  await handle.close();
}
