import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { releaseMessages } from '@clinicrelay/contracts/messages.ts';
import { messages } from '../../db/schema/messages.ts';
import type { WorkflowLogger } from '../../platform/workflows/context.ts';
import { workflowHandlers } from '../../platform/workflows/registry.ts';
import { runOnce } from '../../platform/workflows/runner.ts';
import { testConfig, useTestApp } from '../../test/app.ts';

const LAKESIDE_USER = 'user@lakeside.example.org';
const RIVERVIEW_USER = 'user@riverview.example.org';
const LAKESIDE_FROM = 'intake@lakeside.direct.example.org';
// Another organization's address: never a valid From for Lakeside.
const FORGED_FROM = 'referrals@riverview.direct.example.org';
const RIVERVIEW_DIRECT = 'referrals@riverview.direct.example.org';
const ROUNDS = 40;
const quiet: WorkflowLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };

// issue 8 §2: a save racing a send never changes what the send validated. On PostgreSQL
// (--project server-postgres) the two requests run on separate connections, truly at once.
describe('a draft saved while it is being sent', () => {
  const t = useTestApp();
  const config = testConfig();

  it(`delivers what the send validated in ${ROUNDS} rounds of send + forged save fired together`, async () => {
    const releaseTypeId = (await t.call(LAKESIDE_USER, 'GET', '/api/releasetypes')).json()[0].id as string;
    const validBody = 'Please see this patient for palpitations.';
    const outcomes: string[] = [];
    const sent: { id: string }[] = [];

    for (let round = 0; round < ROUNDS; round++) {
      const draft = await t.call(LAKESIDE_USER, 'PUT', '/api/messages', {
        subject: `Referral ${round}`,
        fromAddress: LAKESIDE_FROM,
        toAddress: RIVERVIEW_DIRECT,
        body: validBody,
        releaseTypeId,
        patient: { firstName: 'Maria', lastName: 'Alvarez', birthDate: '1958-04-12', gender: 'F' },
      });
      expect(draft.statusCode, draft.body).toBe(200);
      const id = draft.json().id as string;

      const [send, save] = await Promise.all([
        t.call(LAKESIDE_USER, 'POST', `/api/messages/${id}/send`),
        t.call(LAKESIDE_USER, 'PUT', `/api/messages/${id}`, { fromAddress: FORGED_FROM, body: `Forged body ${round}` }),
      ]);
      outcomes.push(`${send.statusCode}/${save.statusCode}`);
      // Either the send locked the draft first (the save then finds no draft) or the save won and the
      // send refused the forged From; nothing in between.
      if (send.statusCode === 200) {
        expect(save.statusCode, save.body).toBe(409);
        expect(save.json()).toEqual({ message: releaseMessages.notADraft });
        sent.push({ id });
      } else {
        expect(save.statusCode, save.body).toBe(200);
        expect(send.statusCode, send.body).toBe(400);
        expect(send.json().modelState.fromAddress).toEqual([releaseMessages.addressInvalid]);
      }
    }

    const db = t.handle.db;
    await runOnce({ db, handlers: workflowHandlers({ config, db, now: () => t.clock.now }), logger: quiet });
    for (const { id } of sent) {
      const [copy] = await db
        .select({ id: messages.id })
        .from(messages)
        .where(and(eq(messages.originalObjectId, id), eq(messages.direction, 'Inbound')));
      expect(copy, `the copy of ${id}`).toBeDefined();
      // What Riverview's Intake shows.
      const received = await t.call(RIVERVIEW_USER, 'GET', `/api/messages/${copy!.id}`);
      expect(received.statusCode).toBe(200);
      expect(received.json()).toMatchObject({ fromAddress: LAKESIDE_FROM, body: validBody });
    }
    // Forged drafts were never sent: no copy of them reached anyone.
    expect(sent.length + outcomes.filter((o) => o === '400/200').length).toBe(ROUNDS);
    console.info(`send/save outcomes over ${ROUNDS} rounds:`, Object.fromEntries(['200/409', '400/200'].map((k) => [k, outcomes.filter((o) => o === k).length])));
  }, 120_000);
});
