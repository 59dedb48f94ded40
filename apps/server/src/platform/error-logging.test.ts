import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages as texts } from '@clinicrelay/contracts/errors.ts';
import { buildApp, loggerOptions } from '../app.ts';
import type { DatabaseHandle, DbOrTx } from '../db/client.ts';
import { messages } from '../db/schema/messages.ts';
import { workflows } from '../db/schema/workflows.ts';
import { testConfig } from '../test/app.ts';
import { createTestDatabase } from '../test/database.ts';
import { enqueue } from './workflows/enqueue.ts';
import { runOnce } from './workflows/runner.ts';
import { eq } from 'drizzle-orm';

// What a release of a patient's record carries: none of it may ever reach a log line.
const phi = {
  patientName: 'Henrietta Quillfeather',
  subject: 'Oncology referral for Henrietta Quillfeather',
  body: 'Biopsy confirms adenocarcinoma; MRN 99812734.',
};
const phiValues = Object.values(phi).flatMap((v) => [v, ...v.split(/[\s;.,]+/).filter((w) => w.length > 6)]);

// A draft saved for an organization that does not exist: the insert fails on its foreign key, and the
// driver's error carries every parameter of the statement (patient name, subject, body).
const failingInsert = (db: DbOrTx) =>
  db.insert(messages).values({ organizationId: randomUUID(), direction: 'Outbound', ...phi });

describe('a failed query is logged with its code and constraint, never its values', () => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await createTestDatabase();
  });
  afterAll(() => handle.close());

  it('in the request log: the error handler and any `err` logged through the app logger', async () => {
    const lines: string[] = [];
    const logger = { ...(loggerOptions('info') as object), stream: { write: (line: string) => void lines.push(line) } };
    const app = await buildApp({ config: testConfig(), db: handle.db, logger });
    // A test-only route (outside /api, so not part of the API table): a save that fails in the database.
    app.post('/test/save-draft', async (request) => {
      try {
        await handle.db.transaction((tx) => failingInsert(tx));
      } catch (error) {
        request.log.warn({ err: error }, 'saving the draft failed');
        throw error;
      }
    });
    await app.ready();

    const res = await app.inject({ method: 'POST', url: '/test/save-draft' });
    await app.close();

    expect(res.statusCode).toBe(500);
    const { referenceId } = res.json<{ referenceId: string }>();
    expect(res.json()).toEqual({ message: `${texts.serverError} Reference id: ${referenceId}.`, referenceId });
    const log = lines.join('');
    const entries = lines.map((l) => JSON.parse(l) as { msg: string; err?: Record<string, unknown> });
    const logged = entries.filter((e) => e.msg === 'saving the draft failed' || e.msg === 'request failed');
    expect(logged).toHaveLength(2);
    for (const entry of logged) {
      expect(entry.err).toMatchObject({ type: 'DatabaseError', code: '23503', constraint: 'messages_organization_id_organizations_id_fk', table: 'messages' });
      expect(entry.err).not.toHaveProperty('detail');
      expect(entry.err).not.toHaveProperty('params');
    }
    for (const value of phiValues) expect(log).not.toContain(value);
    expect(log).not.toMatch(/insert into/i);
  });

  it('in the workflow runner log and the stored workflow error', async () => {
    const lines: { obj: object; msg: string }[] = [];
    const logger = {
      info: (obj: object, msg: string) => void lines.push({ obj, msg }),
      warn: (obj: object, msg: string) => void lines.push({ obj, msg }),
      error: (obj: object, msg: string) => void lines.push({ obj, msg }),
    };
    const type = `failing-insert-${randomUUID()}`;
    const id = await enqueue(handle.db, { type, payload: {}, maxAttempts: 1 });
    await runOnce({ db: handle.db, handlers: new Map([[type, (ctx) => ctx.step('save', 'draft', async () => void (await failingInsert(ctx.db)))]]), logger });

    const [row] = await handle.db.select().from(workflows).where(eq(workflows.id, id));
    expect(row?.status).toBe('Failed');
    expect(row?.lastError).toBe('Database query failed (SQLSTATE 23503, constraint messages_organization_id_organizations_id_fk)');
    const text = JSON.stringify(lines);
    expect(text).toContain('23503');
    for (const value of phiValues) expect(text).not.toContain(value);
  });
});
