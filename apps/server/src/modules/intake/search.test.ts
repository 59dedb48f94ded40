import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { INTAKE_COUNT_CAP, INTAKE_TOTAL_COUNT_PAGES } from '@clinicrelay/contracts/intake.ts';
import { messages } from '../../db/schema/messages.ts';
import { useTestApp } from '../../test/app.ts';
import { DEMO, sourceIdOf } from './test-inbound.ts';

const DAY_MS = 86_400_000;

describe('Intake search: words in any order, phone numbers with or without punctuation', () => {
  const t = useTestApp();
  const db = () => t.handle.db;
  const ids: Record<string, string> = {};
  // The story's messages arrived on a day of their own, so the demo world's (a Thomas Nguyen among them) stay out.
  const day = new Date(Date.parse(new Date().toISOString().slice(0, 10)) - 45 * DAY_MS);
  const onThatDay = { startDate: day.toISOString().slice(0, 10), endDate: day.toISOString().slice(0, 10) };

  const search = async (filter: string, user: string = DEMO.riverviewAdmin) => {
    const res = await t.call(user, 'POST', '/api/messages', { filter, ...onThatDay });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json().items as { id: string }[]).map((i) => Object.keys(ids).find((k) => ids[k] === i.id) ?? i.id).sort();
  };

  beforeAll(async () => {
    const riverview = (await sourceIdOf(db(), DEMO.riverviewDirect)).organizationId;
    const add = async (key: string, m: { subject: string; from: string; to?: string; patientName?: string | null; sourceType?: 'Direct' | 'Fax'; assignedToRay?: boolean }) => {
      const receivedAt = new Date(day.getTime() + 3_600_000);
      const [row] = await db()
        .insert(messages)
        .values({
          organizationId: riverview,
          direction: 'Inbound',
          subject: m.subject,
          fromAddress: m.from,
          toAddress: m.to ?? DEMO.riverviewDirect,
          patientName: m.patientName ?? null,
          isDraft: false,
          status: 'Received',
          sourceType: m.sourceType ?? 'Direct',
          messageDate: receivedAt,
          systemReceivedDate: receivedAt,
          createdDate: receivedAt,
          updatedDate: receivedAt,
        })
        .returning();
      ids[key] = row!.id;
    };
    // Lakeside's fax line (503-555-0101) sends Riverview's fax number a chart; a provider writes its own number with punctuation.
    await add('lakesideFax', { subject: 'Chart notes', from: DEMO.lakesideFax, to: DEMO.riverviewFax, sourceType: 'Fax', patientName: 'Nguyen, Thomas' });
    await add('providerFax', { subject: 'Imaging report', from: '+1 (971) 555-0142', to: DEMO.riverviewFax, sourceType: 'Fax' });
    await add('thomasSmith', { subject: 'Referral', from: 'clinic@elsewhere.direct.example.com', patientName: 'Smith, Thomas' });
    await add('linhNguyen', { subject: 'Discharge summary', from: 'clinic@elsewhere.direct.example.com', patientName: 'Nguyen, Linh' });
    await add('percent', { subject: 'Copay 100% covered', from: 'billing@elsewhere.direct.example.com' });
  });

  it('finds a fax number typed with or without dashes, spaces or country code', async () => {
    for (const typed of ['503-555-0101', '5035550101', '(503) 555-0101', '503.555.0101', '+1 503 555 0101']) {
      expect(await search(typed), typed).toEqual(['lakesideFax']);
    }
    // A number stored with a provider's punctuation is found by its digits, and as it was written.
    expect(await search('9715550142')).toEqual(['providerFax']);
    expect(await search('971-555-0142')).toEqual(['providerFax']);
    expect(await search('(971) 555-0142')).toEqual(['providerFax']);
    // Part of a number finds it too, as part of any text does.
    expect(await search('555-0101')).toEqual(['lakesideFax']);
  });

  it('finds a patient by name in either order, with or without the comma', async () => {
    for (const typed of ['Nguyen Thomas', 'Thomas Nguyen', 'thomas nguyen', 'Nguyen, Thomas', '  Thomas   NGUYEN ']) {
      expect(await search(typed), typed).toEqual(['lakesideFax']);
    }
    expect(await search('Nguyen')).toEqual(['lakesideFax', 'linhNguyen']);
    expect(await search('Thomas')).toEqual(['lakesideFax', 'thomasSmith']);
    expect(await search('Thomas Garcia')).toEqual([]);
  });

  it('needs every word, each in any of subject, from, to and patient name', async () => {
    expect(await search('chart nguyen')).toEqual(['lakesideFax']);
    expect(await search('imaging 971')).toEqual(['providerFax']);
    expect(await search('discharge thomas')).toEqual([]);
  });

  it('takes % and _ as the characters they are', async () => {
    expect(await search('100%')).toEqual(['percent']);
    expect(await search('10_%')).toEqual([]);
  });

  it('searches only what the caller may see', async () => {
    // Ray (user@riverview) is assigned Riverview's Direct address, not its fax number.
    expect(await search('Thomas', DEMO.riverviewUser)).toEqual(['thomasSmith']);
    expect(await search('503-555-0101', DEMO.riverviewUser)).toEqual([]);
    expect(await search('Nguyen Thomas', DEMO.lakesideAdmin)).toEqual([]);
  });
});

describe('Intake list totals: counted a few pages past the page, then "N+"', () => {
  const t = useTestApp();
  const db = () => t.handle.db;
  const TAG = 'bulk-story';
  const PAGE = 10;
  const REACH = PAGE * INTAKE_TOTAL_COUNT_PAGES;
  const MANY = REACH + 40;
  const list = (body: object) => t.call(DEMO.riverviewAdmin, 'POST', '/api/messages', { filter: TAG, pageSize: PAGE, ...body });

  beforeAll(async () => {
    const riverview = (await sourceIdOf(db(), DEMO.riverviewDirect)).organizationId;
    const receivedAt = new Date(Date.now() - 2 * DAY_MS).toISOString();
    // bulk-story 1 is the newest.
    await db().execute(sql`
      insert into messages (organization_id, direction, is_draft, status, source_type, subject, from_address, to_address,
                            message_date, system_received_date, created_date, updated_date)
      select ${riverview}, 'Inbound', false, 'Received', 'Direct', ${TAG} || ' ' || g || case when g % 20 = 0 then ' marker' else '' end,
             'clinic@elsewhere.direct.example.com', ${DEMO.riverviewDirect},
             ${receivedAt}::timestamptz, ${receivedAt}::timestamptz - g * interval '1 second', ${receivedAt}::timestamptz, ${receivedAt}::timestamptz
      from generate_series(1, ${MANY}) g`);
  });

  it(`says there are more than ${INTAKE_TOTAL_COUNT_PAGES} pages of matches past the page's start, and the exact total once within reach`, async () => {
    const first = (await list({})).json();
    expect(first).toMatchObject({ totalCount: REACH, totalCountCapped: true });
    expect(first.items.map((i: { subject: string }) => i.subject)).toEqual(Array.from({ length: PAGE }, (_, i) => `${TAG} ${i + 1}`));
    // Each page counts on from its own start: the pager always knows of pages ahead.
    const second = (await list({ pageStart: 2 })).json();
    expect(second).toMatchObject({ totalCount: PAGE + REACH, totalCountCapped: true });
    expect(second.items[0].subject).toBe(`${TAG} ${PAGE + 1}`);
    const fifth = (await list({ pageStart: 5 })).json();
    expect(fifth).toMatchObject({ totalCount: MANY, totalCountCapped: false });
    const last = (await list({ pageStart: MANY / PAGE })).json();
    expect(last).toMatchObject({ totalCount: MANY, totalCountCapped: false });
    expect(last.items.at(-1).subject).toBe(`${TAG} ${MANY} marker`);
    // Past the last page: no items, and the total still said.
    expect((await list({ pageStart: MANY / PAGE + 3 })).json()).toMatchObject({ items: [], totalCount: MANY, totalCountCapped: false });
    // Oldest first pages from the other end, with the same reach.
    const oldest = (await list({ orderDir: 'asc' })).json();
    expect(oldest).toMatchObject({ totalCount: REACH, totalCountCapped: true });
    expect(oldest.items[0].subject).toBe(`${TAG} ${MANY} marker`);
    // A narrower filter within reach is exact.
    expect((await list({ filter: `${TAG} 104` })).json()).toMatchObject({ totalCount: 1, totalCountCapped: false });
    expect((await list({ filter: `${TAG} 10` })).json()).toMatchObject({ totalCount: 1 + 10 + 1, totalCountCapped: false });
  });

  it('finds sparse matches deep in the date range in the same order, with the same reach', async () => {
    // A page of one reads a few rows in date order first; these matches lie beyond them.
    const one = (filter: string, pageStart = 1) => list({ filter, pageSize: 1, pageStart }).then((r) => r.json());
    expect(await one(`${TAG} 139`)).toMatchObject({ totalCount: 1, totalCountCapped: false, items: [{ subject: `${TAG} 139` }] });
    // 13, 113 and 130 to 139 match: twelve, more than ten pages of one.
    expect(await one(`${TAG} 13`)).toMatchObject({ totalCount: INTAKE_TOTAL_COUNT_PAGES, totalCountCapped: true, items: [{ subject: `${TAG} 13` }] });
    expect(await one(`${TAG} 13`, 2)).toMatchObject({ totalCount: 1 + INTAKE_TOTAL_COUNT_PAGES, totalCountCapped: true, items: [{ subject: `${TAG} 113` }] });
    expect(await one(`${TAG} 13`, 3)).toMatchObject({ totalCount: 12, totalCountCapped: false, items: [{ subject: `${TAG} 130` }] });
    expect(await one(`${TAG} 13`, 12)).toMatchObject({ totalCount: 12, totalCountCapped: false, items: [{ subject: `${TAG} 139` }] });
    expect(await one(`${TAG} 13`, 13)).toMatchObject({ totalCount: 12, items: [] });
  });

  it('reads on in date order when the first rows hold a few matches, either way round', async () => {
    // One in twenty is marked: the first rows read hold some, and reading on finds the rest.
    const marked = [20, 40, 60, 80, 100, 120, 140].map((n) => `${TAG} ${n} marker`);
    const pages = async (orderDir: 'asc' | 'desc') => {
      const seen: string[] = [];
      for (let pageStart = 1; pageStart <= marked.length; pageStart++) {
        const page = (await list({ filter: 'marker', pageSize: 1, pageStart, orderDir })).json();
        expect(page).toMatchObject({ totalCount: marked.length, totalCountCapped: false });
        seen.push(...page.items.map((i: { subject: string }) => i.subject));
      }
      return seen;
    };
    expect(await pages('desc')).toEqual(marked);
    expect(await pages('asc')).toEqual([...marked].reverse());
  });

  it('caps the counts beside the filters as before', async () => {
    const { counts } = (await list({})).json();
    expect(counts.all).toBe(INTAKE_COUNT_CAP + 1);
    expect(counts.unassigned).toBe(INTAKE_COUNT_CAP + 1);
    expect(counts.unread).toBe(INTAKE_COUNT_CAP + 1);
  });
});
