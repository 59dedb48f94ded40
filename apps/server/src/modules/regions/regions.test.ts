import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { crosswalkMessages, regionMessages as text } from '@clinicrelay/contracts/regions.ts';
import { auditEvents } from '../../db/schema/audit.ts';
import { useTestApp, type TestContext } from '../../test/app.ts';

const ADMIN = 'sysadmin@example.org';
const REGIONS = '/api/healthreferralregion';
const AREAS = '/api/healthserviceareas';

// The shape of the Dartmouth Atlas crosswalk (ZipHsaHrr19.csv): ZIP codes without their leading zeros.
const HEADER = 'zipcode19,hsanum,hsacity,hsastate,hrrnum,hrrcity,hrrstate';
const atlas = [
  HEADER,
  '1001,1013,Springfield,MA,230,Springfield,MA',
  '1002,1001,Amherst,MA,230,Springfield,MA',
  '35004,1081,Birmingham,AL,1,Birmingham,AL',
  '36301,1052,Dothan,AL,2,Dothan,AL',
  '"36303",1052,Dothan,AL,2,Dothan,AL',
].join('\r\n');

async function upload(t: TestContext, content: string | Buffer | null, fileName = 'ZipHsaHrr19.csv', user = ADMIN) {
  const form = new FormData();
  if (content !== null) form.append('file', new Blob([typeof content === 'string' ? content : new Uint8Array(content)]), fileName);
  else form.append('note', 'no file');
  const request = new Response(form);
  const token = (await t.login(user)).accessToken;
  return t.app.inject({
    method: 'POST',
    url: `${AREAS}/crosswalk`,
    headers: { authorization: `Bearer ${token}`, 'content-type': request.headers.get('content-type')! },
    payload: Buffer.from(await request.arrayBuffer()),
  });
}

describe('health referral regions (back-office-b §3 Region, §5, §7)', () => {
  const t = useTestApp();

  it('creates, reads, lists, edits and deletes a region, each change audited', async () => {
    expect((await t.call(ADMIN, 'GET', REGIONS)).json()).toEqual({ items: [], totalCount: 0 });
    const created = await t.call(ADMIN, 'POST', REGIONS, { name: ' Portland, OR ', code: '340' });
    expect(created.statusCode, created.body).toBe(200);
    const region = created.json();
    expect(region).toEqual({ id: expect.any(String), name: 'Portland, OR', code: '340', modifiedDate: expect.any(String) });
    expect((await t.call(ADMIN, 'GET', `${REGIONS}/${region.id}`)).json()).toEqual(region);
    await t.call(ADMIN, 'POST', REGIONS, { name: 'Salem, OR', code: '341' });
    await t.call(ADMIN, 'POST', REGIONS, { name: 'Eugene, OR', code: '339' });
    const list = (query: string) => t.call(ADMIN, 'GET', `${REGIONS}${query}`).then((r) => r.json());
    expect((await list('')).items.map((r: { name: string }) => r.name)).toEqual(['Eugene, OR', 'Portland, OR', 'Salem, OR']);
    expect(await list('?search=34')).toMatchObject({ totalCount: 2 });
    expect(await list('?pageNumber=2&pageSize=2')).toMatchObject({ totalCount: 3, items: [{ name: 'Salem, OR' }] });
    expect((await list('?sortDir=desc')).items[0].name).toBe('Salem, OR');

    t.clock.now = new Date(t.clock.now.getTime() + 60_000);
    const edited = await t.call(ADMIN, 'PUT', `${REGIONS}/${region.id}`, { name: 'Portland, Oregon', code: '340' });
    expect(edited.json()).toEqual({ id: region.id, name: 'Portland, Oregon', code: '340', modifiedDate: t.clock.now.toISOString() });
    expect((await t.call(ADMIN, 'DELETE', `${REGIONS}/${region.id}`)).json()).toEqual({ ok: true });
    expect((await t.call(ADMIN, 'GET', `${REGIONS}/${region.id}`)).statusCode).toBe(404);
    expect((await t.call(ADMIN, 'PUT', `${REGIONS}/${region.id}`, { name: 'Gone', code: 'X' })).statusCode).toBe(404);
    expect((await t.call(ADMIN, 'DELETE', `${REGIONS}/${region.id}`)).statusCode).toBe(404);
    const audit = await t.handle.db.select({ eventType: auditEvents.eventType }).from(auditEvents).where(sql`${auditEvents.details}->>'id' = ${region.id}`);
    expect(audit.map((a) => a.eventType).sort()).toEqual(['HealthReferralRegionCreated', 'HealthReferralRegionDeleted', 'HealthReferralRegionUpdated']);
  });

  it('requires name and code, at most 255 characters, each unique whatever its case, with the messages at their fields', async () => {
    for (const [body, modelState] of [
      [{}, { name: ['Name is required.'], code: ['Code is required.'] }],
      [{ name: '  ', code: 'A1' }, { name: ['Name is required.'] }],
      [{ name: 'x'.repeat(256), code: 'y'.repeat(256) }, { name: ['Name must be at most 255 characters.'], code: ['Code must be at most 255 characters.'] }],
    ] as const) {
      const res = await t.call(ADMIN, 'POST', REGIONS, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().modelState, JSON.stringify(body)).toEqual(modelState);
    }
    expect((await t.call(ADMIN, 'POST', REGIONS, { name: 'x'.repeat(255), code: 'y'.repeat(255) })).statusCode).toBe(200);
    const first = (await t.call(ADMIN, 'POST', REGIONS, { name: 'Boise, ID', code: '183' })).json();
    const both = await t.call(ADMIN, 'POST', REGIONS, { name: 'BOISE, id', code: '183' });
    expect(both.statusCode).toBe(400);
    expect(both.json()).toEqual({ message: text.nameTaken, modelState: { name: [text.nameTaken], code: [text.codeTaken] } });
    const other = (await t.call(ADMIN, 'POST', REGIONS, { name: 'Spokane, WA', code: '440' })).json();
    const codeOnly = await t.call(ADMIN, 'PUT', `${REGIONS}/${other.id}`, { name: 'Spokane, WA', code: '183' });
    expect(codeOnly.json()).toEqual({ message: text.codeTaken, modelState: { code: [text.codeTaken] } });
    // Its own name and code are not a clash.
    expect((await t.call(ADMIN, 'PUT', `${REGIONS}/${first.id}`, { name: 'Boise, ID', code: '183' })).statusCode).toBe(200);
  });

  it('keeps two regions apart when two administrators save the same one at once', async () => {
    const both = await Promise.all([t.call(ADMIN, 'POST', REGIONS, { name: 'Race', code: 'R1' }), t.call(ADMIN, 'POST', REGIONS, { name: 'race', code: 'r1' })]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 400]);
  });

  it('answers system administrators only: SysAdminReporting and organization users get 403', async () => {
    const [some] = (await t.call(ADMIN, 'GET', REGIONS)).json().items;
    for (const user of ['reporting@example.org', 'admin@lakeside.example.org', 'user@lakeside.example.org']) {
      expect((await t.call(user, 'GET', REGIONS)).statusCode, user).toBe(403);
      expect((await t.call(user, 'POST', REGIONS, { name: 'Nope', code: 'N' })).statusCode, user).toBe(403);
      expect((await t.call(user, 'GET', `${REGIONS}/${some.id}`)).statusCode, user).toBe(403);
      expect((await t.call(user, 'PUT', `${REGIONS}/${some.id}`, { name: 'Nope', code: 'N' })).statusCode, user).toBe(403);
      expect((await t.call(user, 'DELETE', `${REGIONS}/${some.id}`)).statusCode, user).toBe(403);
      expect((await t.call(user, 'GET', AREAS)).statusCode, user).toBe(403);
      expect((await upload(t, atlas, 'ZipHsaHrr19.csv', user)).statusCode, user).toBe(403);
    }
  });
});

describe('health service areas and the crosswalk upload (back-office-b §3, §5, §7)', () => {
  const t = useTestApp();
  const areas = async (query = '') => (await t.call(ADMIN, 'GET', `${AREAS}${query}`)).json();

  it('loads the Atlas crosswalk: every ZIP code with its HSA and HRR, creating the regions it names', async () => {
    const existing = (await t.call(ADMIN, 'POST', REGIONS, { name: 'Springfield (western Massachusetts)', code: '230' })).json();
    // An operator's region already has the name the file would give HRR 2: the new one says its code too.
    await t.call(ADMIN, 'POST', REGIONS, { name: 'Dothan, AL', code: 'DOT' });
    const res = await upload(t, atlas);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ serviceAreas: 5, regionsCreated: 2, message: crosswalkMessages.loaded(5, 2) });
    const page = await areas();
    expect(page.totalCount).toBe(5);
    expect(page.items[0]).toEqual({
      code: '1013',
      zipCode: '01001',
      name: 'Springfield, MA',
      healthReferralRegionCode: '230',
      healthReferralRegion: 'Springfield (western Massachusetts)',
      lastUpdated: expect.any(String),
    });
    expect((await areas('?search=dothan')).items.map((a: { zipCode: string; healthReferralRegion: string }) => [a.zipCode, a.healthReferralRegion])).toEqual([
      ['36301', 'Dothan, AL (2)'],
      ['36303', 'Dothan, AL (2)'],
    ]);
    expect((await areas('?search=Birmingham')).items).toMatchObject([{ zipCode: '35004', healthReferralRegionCode: '1', healthReferralRegion: 'Birmingham, AL' }]);
    expect(await areas('?pageNumber=2&pageSize=2')).toMatchObject({ totalCount: 5, items: [{ zipCode: '35004' }, { zipCode: '36301' }] });
    expect((await t.call(ADMIN, 'GET', `${REGIONS}/${existing.id}`)).json().name).toBe('Springfield (western Massachusetts)');
    // A region its service areas point to stays.
    const del = await t.call(ADMIN, 'DELETE', `${REGIONS}/${existing.id}`);
    expect(del.statusCode).toBe(400);
    expect(del.json()).toEqual({ message: text.inUse(2), modelState: { id: [text.inUse(2)] } });
  });

  it('replaces the whole map with the next file, in one piece', async () => {
    const res = await upload(t, ['zipcode,hsanum,hsacity,hsastate,hrrnum,hrrcity,hrrstate', '97201,38050,Portland,OR,340,Portland,OR'].join('\n'));
    expect(res.json()).toMatchObject({ serviceAreas: 1, regionsCreated: 1 });
    expect((await areas()).items.map((a: { zipCode: string }) => a.zipCode)).toEqual(['97201']);
  });

  it('refuses a file with any bad row, names every error with its line, and loads nothing', async () => {
    const before = await areas();
    const regionsBefore = (await t.call(ADMIN, 'GET', REGIONS)).json().totalCount;
    const bad = [
      HEADER,
      '1001,1013,Springfield,MA,230,Springfield,MA',
      'ABCDE,1013,Springfield,MA,230,Springfield,MA',
      '1002,x,Amherst,Massachusetts,230,Springfield,MA',
      '',
      '1001,1013,Springfield,MA,230,Springfield,MA',
      '35004,1081,Birmingham,AL',
      '35005,1013,Somewhere,MA,230,Springfield,MA',
      '35006,1081,Birmingham,AL,999,Birmingham,AL',
      '35007,,Nowhere,AL,1,,AL',
      '99999,5000,New HSA,AL,7777,New region,AL',
    ].join('\n');
    const res = await upload(t, bad);
    expect(res.statusCode).toBe(400);
    const errors = res.json().modelState.file as string[];
    expect(res.json().message).toBe(crosswalkMessages.invalid(errors.length));
    expect(errors).toEqual([
      'Line 3: zipcode "ABCDE" is not a ZIP code.',
      'Line 4: hsanum "x" is not a number.',
      'Line 4: hsastate "Massachusetts" is not a two-letter state code.',
      'Line 6: ZIP code 01001 is already on line 2.',
      'Line 7: expected 7 columns, found 4.',
      'Line 8: HSA 1013 is "Springfield, MA" on line 2, not "Somewhere, MA".',
      'Line 10: hsanum "" is not a number.',
      'Line 10: hrrcity is required.',
    ]);
    // HSA 1081 first appears on line 9 (line 7 was refused) in HRR 999: nothing to compare with yet.
    expect(await areas()).toEqual(before);
    expect((await t.call(ADMIN, 'GET', REGIONS)).json().totalCount).toBe(regionsBefore);
    expect((await t.call(ADMIN, 'GET', `${REGIONS}?search=7777`)).json().totalCount).toBe(0);
  });

  it('refuses what is not a crosswalk: no file, not .csv, no header, no rows, a broken quote, too large', async () => {
    for (const [content, fileName] of [
      [null, 'x.csv'],
      ['', 'empty.csv'],
      [atlas, 'ZipHsaHrr19.xlsx'],
    ] as const) {
      const res = await upload(t, content, fileName);
      expect(res.statusCode, fileName).toBe(400);
      expect(res.json(), fileName).toEqual({ message: crosswalkMessages.fileRequired, modelState: { file: [crosswalkMessages.fileRequired] } });
    }
    const notCsv = await t.app.inject({ method: 'POST', url: `${AREAS}/crosswalk`, headers: { authorization: `Bearer ${(await t.login(ADMIN)).accessToken}` }, payload: {} });
    expect(notCsv.json().message).toBe(crosswalkMessages.fileRequired);
    const header = await upload(t, 'zip,hsa\n1001,1013\n');
    expect(header.json().modelState.file).toEqual(['Line 1: the header must name the columns zipcode, hsanum, hsacity, hsastate, hrrnum, hrrcity, hrrstate; missing: zipcode, hsanum, hsacity, hsastate, hrrnum, hrrcity, hrrstate.']);
    expect((await upload(t, `${HEADER}\n`)).json()).toEqual({ message: crosswalkMessages.empty, modelState: { file: [crosswalkMessages.empty] } });
    const quote = await upload(t, `${HEADER}\n"1001,1013,Springfield,MA,230,Springfield,MA\n`);
    expect(quote.json().modelState.file[0]).toMatch(/^Line 2: unreadable CSV/);
    const huge = await upload(t, Buffer.alloc(21 * 1024 * 1024, 'a'));
    expect(huge.statusCode).toBe(413);
    expect(huge.json().message).toBe(crosswalkMessages.tooLarge);
  });

  it('lists only the first errors of a file full of them, and counts them all', async () => {
    const rows = Array.from({ length: 120 }, (_, i) => `bad${i},1,A,AL,1,B,AL`);
    const res = await upload(t, [HEADER, ...rows].join('\n'));
    expect(res.json().message).toBe(crosswalkMessages.invalid(120));
    expect(res.json().modelState.file).toHaveLength(50);
  });

  it('loads a crosswalk of every US ZIP code (about 41,000 rows) in one transaction', async () => {
    const lines = [HEADER];
    for (let zip = 1000; zip < 42000; zip++) {
      const hsa = 1000 + (zip % 3400);
      lines.push(`${zip},${hsa},City ${hsa},AL,${hsa % 306},Region ${hsa % 306},AL`);
    }
    const res = await upload(t, lines.join('\n'));
    expect(res.statusCode, res.body.slice(0, 500)).toBe(200);
    expect(res.json()).toMatchObject({ serviceAreas: 41000 });
    expect((await areas('?pageSize=1')).totalCount).toBe(41000);
  }, 120_000);
});
