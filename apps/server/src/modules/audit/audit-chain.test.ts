import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../db/client.ts';
import { queryRows } from '../../db/client.ts';
import { writeAudit } from '../../platform/audit.ts';
import { verifyAuditChain } from '../../platform/audit-chain.ts';
import { createTestDatabase } from '../../test/database.ts';

// The audit trail is tamper-evident: every row links to the one before it in its organization's chain, the
// application cannot change or delete a row, and the verifier names the first link an owner's edit broke.
describe('audit chain', () => {
  const opened: DatabaseHandle[] = [];
  const open = async () => {
    const handle = await createTestDatabase();
    opened.push(handle);
    return handle;
  };
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((h) => h.close()));
  });
  const orgId = async (handle: DatabaseHandle, subdomain: string) =>
    (await queryRows<{ id: string }>(handle.db, sql`select id from organizations where subdomain = ${subdomain}`))[0]!.id;
  // Three events of one organization, the middle one with details to edit.
  const threeEvents = async (handle: DatabaseHandle, organizationId: string) => {
    for (const [i, eventType] of ['MessageViewed', 'AttachmentViewed', 'MessageRead'].entries())
      await writeAudit(handle.db, { eventType, organizationId, userName: 'user@lakeside.example.org', details: { page: i + 1 }, correlationId: randomUUID() });
    return queryRows<{ id: string; chain_seq: string }>(
      handle.db,
      sql`select id, chain_seq::text from audit_events where organization_id = ${organizationId} order by chain_seq desc limit 3`,
    ).then((rows) => rows.reverse());
  };
  // What an attacker with the table owner's rights can do: turn the guard off.
  const asOwner = async (handle: DatabaseHandle, statement: ReturnType<typeof sql>) => {
    await handle.db.execute(sql`alter table audit_events disable trigger audit_events_immutable`);
    await handle.db.execute(statement);
    await handle.db.execute(sql`alter table audit_events enable trigger audit_events_immutable`);
  };

  it('links every row of the seeded world and of new writes, and the verifier finds every link holding', async () => {
    const handle = await open();
    const lakeside = await orgId(handle, 'lakeside');
    const rows = await threeEvents(handle, lakeside);
    expect(rows.map((r) => Number(r.chain_seq))).toEqual([Number(rows[0]!.chain_seq), Number(rows[0]!.chain_seq) + 1, Number(rows[0]!.chain_seq) + 2]);
    const report = await verifyAuditChain(handle.db);
    expect(report.broken).toEqual([]);
    expect(report.rows).toBeGreaterThanOrEqual(3);
    expect(report.heads.map((h) => h.chain)).toContain(lakeside);
  });

  it('refuses UPDATE, DELETE and TRUNCATE of audit rows to the application', async () => {
    const handle = await open();
    const [row] = await threeEvents(handle, await orgId(handle, 'lakeside'));
    const refused = /audit_events rows cannot be changed or deleted|Failed query/;
    await expect(handle.db.execute(sql`update audit_events set event_type = 'Nothing' where id = ${row!.id}`)).rejects.toThrow(refused);
    await expect(handle.db.execute(sql`delete from audit_events where id = ${row!.id}`)).rejects.toThrow(refused);
    await expect(handle.db.execute(sql`truncate audit_events`)).rejects.toThrow(refused);
    expect((await verifyAuditChain(handle.db)).broken).toEqual([]);
  });

  it('names an edited row', async () => {
    const handle = await open();
    const lakeside = await orgId(handle, 'lakeside');
    const [, middle] = await threeEvents(handle, lakeside);
    await asOwner(handle, sql`update audit_events set details = '{"page": 7}' where id = ${middle!.id}`);
    const report = await verifyAuditChain(handle.db);
    expect(report.broken).toEqual([{ chain: lakeside, seq: Number(middle!.chain_seq), id: middle!.id, reason: 'edited', detail: expect.stringContaining(middle!.id) }]);
  });

  it('names an edited row whose hash the editor recomputed, by the next link', async () => {
    const handle = await open();
    const lakeside = await orgId(handle, 'lakeside');
    const [, middle, last] = await threeEvents(handle, lakeside);
    await asOwner(
      handle,
      sql`update audit_events set user_name = 'someone.else', hash = audit_chain_hash(chain_seq, prev_hash, id, event_type, user_id, 'someone.else', organization_id, ip, correlation_id, details, created_at) where id = ${middle!.id}`,
    );
    expect((await verifyAuditChain(handle.db)).broken).toEqual([{ chain: lakeside, seq: Number(last!.chain_seq), id: last!.id, reason: 'relinked', detail: expect.any(String) }]);
  });

  it('names a deleted row, and a deleted last row', async () => {
    const handle = await open();
    const lakeside = await orgId(handle, 'lakeside');
    const [, middle, last] = await threeEvents(handle, lakeside);
    await asOwner(handle, sql`delete from audit_events where id = ${middle!.id}`);
    expect((await verifyAuditChain(handle.db)).broken).toEqual([
      { chain: lakeside, seq: Number(middle!.chain_seq), id: last!.id, reason: 'missing', detail: expect.stringContaining(`link ${middle!.chain_seq} is missing`) },
    ]);

    const other = await open();
    const riverview = await orgId(other, 'riverview');
    const [, , tail] = await threeEvents(other, riverview);
    await asOwner(other, sql`delete from audit_events where id = ${tail!.id}`);
    expect((await verifyAuditChain(other.db)).broken).toEqual([{ chain: riverview, seq: Number(tail!.chain_seq), reason: 'truncated', detail: expect.any(String) }]);
  });

  it('keeps one chain when many writers of one organization insert at once', async () => {
    const handle = await open();
    const lakeside = await orgId(handle, 'lakeside');
    const [head] = await queryRows<{ seq: string }>(handle.db, sql`select seq::text from audit_chain_heads where chain_key = ${lakeside}`);
    const before = Number(head?.seq ?? 0);
    // Each in its own transaction that does more work after its insert, so the next writer has to wait for it.
    await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        handle.db.transaction(async (tx) => {
          await writeAudit(tx, { eventType: 'MessageViewed', organizationId: lakeside, details: { writer: i } });
          await tx.execute(sql`select pg_sleep(0.005)`);
        }),
      ),
    );
    const seqs = await queryRows<{ chain_seq: string }>(
      handle.db,
      sql`select chain_seq::text from audit_events where organization_id = ${lakeside} and chain_seq > ${before} order by audit_events.chain_seq`,
    );
    expect(seqs.map((r) => Number(r.chain_seq))).toEqual(Array.from({ length: 40 }, (_, i) => before + 1 + i));
    expect((await verifyAuditChain(handle.db)).broken).toEqual([]);
  });

  it('lets the table owner prune old rows through audit_prune, and the chain still verifies from where it now starts', async () => {
    const handle = await open();
    const lakeside = await orgId(handle, 'lakeside');
    await writeAudit(handle.db, { eventType: 'MessageViewed', organizationId: lakeside }, new Date('2020-01-01T00:00:00Z'));
    await writeAudit(handle.db, { eventType: 'MessageViewed', organizationId: lakeside });
    await handle.db.transaction(async (tx) => {
      await tx.execute(sql`set local session_replication_role = replica`);
      await tx.execute(sql`select audit_prune(now() - interval '1 day')`);
    });
    const [oldest] = await queryRows<{ n: string }>(handle.db, sql`select count(*)::text as n from audit_events where created_at < '2020-01-02'`);
    expect(oldest!.n).toBe('0');
    expect((await verifyAuditChain(handle.db)).broken).toEqual([]);
  });
});
