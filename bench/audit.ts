import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { queryRows } from '../apps/server/src/db/client.ts';
import { writeAudit } from '../apps/server/src/platform/audit.ts';
import { verifyAuditChain } from '../apps/server/src/platform/audit-chain.ts';
import { benchApp } from './bench-app.ts';
import { compare, measure, measurePair } from './measure.ts';
import { sized } from './size.ts';

const WRITES = sized(1000, 20);
const VERIFY_ROWS = sized(20_000, 200);

// The price of the tamper-evident audit trail (migration 0027): one audit write through the chain trigger (lock the
// organization's chain head, hash, update the head) beside the same insert into a copy of the table without triggers.
// Then `npm run audit:verify`'s walk over the rows, beside a plain scan of them.
export async function auditBenchmarks(): Promise<string[]> {
  const { handle, close } = await benchApp();
  const db = handle.db;
  const [org] = await queryRows<{ id: string }>(db, sql`select id from organizations where subdomain = 'lakeside'`);
  await db.execute(sql`create table audit_events_plain (like audit_events including defaults)`);
  const row = () => ({ eventType: 'MessageViewed', userName: 'user@lakeside.example.org', organizationId: org!.id, correlationId: randomUUID(), details: { list: 'Intake' } });

  const [chained, plain] = await measurePair(
    { name: 'audit write (hash chain trigger)', op: () => writeAudit(db, row()) },
    {
      name: 'raw insert, no trigger',
      op: () => {
        const r = row();
        return db.execute(
          sql`insert into audit_events_plain (id, event_type, user_name, organization_id, correlation_id, details) values (${randomUUID()}, ${r.eventType}, ${r.userName}, ${r.organizationId}, ${r.correlationId}, ${JSON.stringify(r.details)}::jsonb)`,
        );
      },
    },
    WRITES,
  );

  await db.execute(sql`insert into audit_events (event_type, organization_id, details) select 'Bulk', ${org!.id}::uuid, jsonb_build_object('n', g) from generate_series(1, ${VERIFY_ROWS}) g`);
  const [{ n } = { n: '0' }] = await queryRows<{ n: string }>(db, sql`select count(*)::text as n from audit_events`);
  const verify = await measure(`audit:verify over ${n} rows`, sized(3, 1), async () => {
    const report = await verifyAuditChain(db);
    if (report.broken.length) throw new Error(`chain broken: ${JSON.stringify(report.broken[0])}`);
  }, 0);
  const scan = await measure(`raw SQL read of the same ${n} rows`, sized(3, 1), () => db.execute(sql`select id::text, hash, details::text from audit_events order by organization_id, chain_seq`), 0);

  await close();
  return [compare(chained, plain), compare(verify, scan)];
}
