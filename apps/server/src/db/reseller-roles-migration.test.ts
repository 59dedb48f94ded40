import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { describe, expect, it } from 'vitest';
import { pgliteExtensions } from './client.ts';

const MIGRATIONS = path.join(import.meta.dirname, 'migrations');
const TAG = '0023_reseller_roles_network_names';

// Migration 0023 on a database made before it: each organization's one resellerId moves to the role its reseller's
// type says, network names that differ only in case are told apart before they become unique whatever the case, and
// an activated organization's records address left Provisioning goes into service.
describe('migration 0023 (affiliate and licensing reseller; network names)', () => {
  it('moves resellerId by type and keeps every network', { timeout: 60_000 }, async () => {
    const journal = JSON.parse(readFileSync(path.join(MIGRATIONS, 'meta', '_journal.json'), 'utf8')) as { entries: { tag: string }[] };
    const before = mkdtempSync(path.join(os.tmpdir(), 'clinicrelay-migrations-'));
    cpSync(MIGRATIONS, before, { recursive: true });
    const at = journal.entries.findIndex((e) => e.tag === TAG);
    expect(at).toBeGreaterThan(0);
    writeFileSync(path.join(before, 'meta', '_journal.json'), JSON.stringify({ ...journal, entries: journal.entries.slice(0, at) }));

    const client = await PGlite.create({ extensions: pgliteExtensions });
    const db = drizzle({ client });
    await migrate(db, { migrationsFolder: before });
    await client.exec(`
      insert into resellers (id, type, name) values ('00000000-0000-4000-8000-000000000001', 0, 'Referral Partners'), ('00000000-0000-4000-8000-000000000002', 1, 'Licensing Co');
      insert into organizations (name, subdomain, reseller_id) values ('A', 'a', '00000000-0000-4000-8000-000000000001'), ('B', 'b', '00000000-0000-4000-8000-000000000002'), ('C', 'c', null);
      insert into networks (name, created_at) values ('North', now() - interval '1 day'), ('NORTH', now()), ('South', now());
      update organizations set is_activated = true where subdomain in ('a', 'b');
      insert into document_sources (organization_id, type, full_address, status) select id, 'Direct', 'records@' || subdomain || '.direct.example.org', 0 from organizations;
      insert into document_sources (organization_id, type, full_address, status) select id, 'Direct', 'front@a.direct.example.org', 0 from organizations where subdomain = 'a';
    `);
    await migrate(db, { migrationsFolder: MIGRATIONS });

    const orgs = await client.query<{ subdomain: string; affiliate_reseller_id: string | null; licensing_reseller_id: string | null }>('select subdomain, affiliate_reseller_id, licensing_reseller_id from organizations order by subdomain');
    expect(orgs.rows).toEqual([
      { subdomain: 'a', affiliate_reseller_id: '00000000-0000-4000-8000-000000000001', licensing_reseller_id: null },
      { subdomain: 'b', affiliate_reseller_id: null, licensing_reseller_id: '00000000-0000-4000-8000-000000000002' },
      { subdomain: 'c', affiliate_reseller_id: null, licensing_reseller_id: null },
    ]);
    const names = (await client.query<{ name: string }>('select name from networks order by created_at, name')).rows.map((r) => r.name);
    expect(names[0]).toBe('North');
    expect(names.slice(1).sort()[0]).toMatch(/^NORTH \([0-9a-f-]{36}\)$/);
    expect(names).toContain('South');
    await expect(client.query("insert into networks (name) values ('south')")).rejects.toThrow();
    // An activated organization's records address left Provisioning is in service; other addresses and organizations keep theirs.
    const sources = await client.query<{ full_address: string; status: number; is_global: boolean }>('select full_address, status, is_global from document_sources order by full_address');
    expect(sources.rows).toEqual([
      { full_address: 'front@a.direct.example.org', status: 0, is_global: false },
      { full_address: 'records@a.direct.example.org', status: 1, is_global: true },
      { full_address: 'records@b.direct.example.org', status: 1, is_global: true },
      { full_address: 'records@c.direct.example.org', status: 0, is_global: false },
    ]);
    await client.close();
  });
});
