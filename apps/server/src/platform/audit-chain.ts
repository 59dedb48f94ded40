import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { queryRows, type DbOrTx } from '../db/client.ts';

// The audit trail is one hash chain per organization (the platform's own events: the nil uuid), linked by the
// insert trigger of migration 0027. This walks every chain again, independently of the database's functions, and
// names the first link that does not hold.

export const PLATFORM_CHAIN = '00000000-0000-0000-0000-000000000000';
export const GENESIS_HASH = '0'.repeat(64);
const BATCH = 5000;

export interface BrokenLink {
  chain: string;
  // The chain position where the break shows.
  seq: number;
  // The row found there (absent when the link itself is missing).
  id?: string;
  reason: 'missing' | 'edited' | 'relinked' | 'unchained' | 'truncated' | 'no-head';
  detail: string;
}

export interface ChainReport {
  chains: number;
  rows: number;
  // Each chain's last hash: kept somewhere else, it proves later that no one rewrote a chain whole.
  heads: { chain: string; seq: number; hash: string }[];
  broken: BrokenLink[];
}

interface ChainRow {
  id: string;
  chain_seq: string | null;
  prev_hash: string | null;
  hash: string | null;
  event_type: string;
  user_id: string | null;
  user_name: string | null;
  organization_id: string | null;
  ip: string | null;
  correlation_id: string | null;
  details: string | null;
  created_us: string;
}

// Each value as its UTF-8 byte length, ':' and itself; null as '~' (audit_chain_field in SQL).
const field = (v: string | null) => (v === null ? '~' : `${Buffer.byteLength(v, 'utf8')}:${v}`);

export function chainHash(row: Omit<ChainRow, 'hash'>): string {
  const text = [row.chain_seq, row.prev_hash, row.id, row.event_type, row.user_id, row.user_name, row.organization_id, row.ip, row.correlation_id, row.details, row.created_us]
    .map(field)
    .join('');
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

const chainKeyOf = sql.raw(`coalesce(organization_id, '${PLATFORM_CHAIN}'::uuid)`);

export async function verifyAuditChain(db: DbOrTx): Promise<ChainReport> {
  const heads = await queryRows<{ chain_key: string; seq: string; last_hash: string; pruned_through_seq: string; pruned_through_hash: string | null }>(
    db,
    sql`select chain_key, seq::text, last_hash, pruned_through_seq::text, pruned_through_hash from audit_chain_heads order by chain_key`,
  );
  const report: ChainReport = { chains: heads.length, rows: 0, heads: [], broken: [] };

  const unchained = await queryRows<{ id: string; chain: string }>(db, sql`select id, ${chainKeyOf}::text as chain from audit_events where chain_seq is null or hash is null limit 1`);
  if (unchained[0]) report.broken.push({ chain: unchained[0].chain, seq: 0, id: unchained[0].id, reason: 'unchained', detail: `row ${unchained[0].id} carries no link: it was written with the chain trigger off` });

  const headless = await queryRows<{ chain: string }>(
    db,
    sql`select distinct ${chainKeyOf}::text as chain from audit_events e where not exists (select 1 from audit_chain_heads h where h.chain_key = ${chainKeyOf}) limit 1`,
  );
  if (headless[0]) report.broken.push({ chain: headless[0].chain, seq: 0, reason: 'no-head', detail: `chain ${headless[0].chain} has rows but no head` });

  for (const head of heads) {
    const broken = await verifyOneChain(db, head, report);
    if (broken) report.broken.push(broken);
    report.heads.push({ chain: head.chain_key, seq: Number(head.seq), hash: head.last_hash });
  }
  return report;
}

async function verifyOneChain(
  db: DbOrTx,
  head: { chain_key: string; seq: string; last_hash: string; pruned_through_seq: string; pruned_through_hash: string | null },
  report: ChainReport,
): Promise<BrokenLink | undefined> {
  const chain = head.chain_key;
  let expectedSeq = Number(head.pruned_through_seq) + 1;
  let expectedPrev = Number(head.pruned_through_seq) > 0 ? (head.pruned_through_hash ?? '') : GENESIS_HASH;
  for (;;) {
    // Keyset paging over the chain's unique index: constant memory over any number of rows.
    const rows = await queryRows<ChainRow>(
      db,
      sql`select id::text, chain_seq::text, prev_hash, hash, event_type, user_id::text, user_name, organization_id::text, ip, correlation_id,
                 details::text, ((extract(epoch from created_at) * 1000000)::bigint)::text as created_us
          from audit_events
          where ${chainKeyOf} = ${chain}::uuid and audit_events.chain_seq >= ${expectedSeq}
          order by ${chainKeyOf}, audit_events.chain_seq limit ${BATCH}`,
    );
    for (const row of rows) {
      report.rows++;
      const seq = Number(row.chain_seq);
      if (seq !== expectedSeq)
        return { chain, seq: expectedSeq, id: row.id, reason: 'missing', detail: `link ${expectedSeq} is missing (deleted); the chain goes on at ${seq} with row ${row.id}` };
      if (row.prev_hash !== expectedPrev)
        return { chain, seq, id: row.id, reason: 'relinked', detail: `row ${row.id} (link ${seq}) does not point at link ${seq - 1}` };
      if (chainHash(row) !== row.hash) return { chain, seq, id: row.id, reason: 'edited', detail: `row ${row.id} (link ${seq}) was changed after it was written` };
      expectedPrev = row.hash;
      expectedSeq = seq + 1;
    }
    if (rows.length < BATCH) break;
  }
  const last = expectedSeq - 1;
  if (last !== Number(head.seq) || (last > Number(head.pruned_through_seq) && expectedPrev !== head.last_hash))
    return { chain, seq: last + 1, reason: 'truncated', detail: `the chain ends at link ${last} but its head says ${head.seq}: the last links were deleted` };
  return undefined;
}
