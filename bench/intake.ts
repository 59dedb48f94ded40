import { performance } from 'node:perf_hooks';
import { sql, type SQL } from 'drizzle-orm';
import { INTAKE_COUNT_CAP, INTAKE_DEFAULT_DAYS, INTAKE_PAGE_SIZE, INTAKE_TOTAL_COUNT_PAGES, type IntakeFilter } from '@clinicrelay/contracts/intake.ts';
import { queryRows, type Database } from '../apps/server/src/db/client.ts';
import { SCAN_BUDGET_PER_MATCH, SCAN_LIMIT_PER_MATCH } from '../apps/server/src/modules/intake/queries.ts';
import { benchApp, benchPostgresUrl, PASSWORD } from './bench-app.ts';
import { formatLoad, rawUnderLoad, routeUnderLoad } from './load.ts';
import { compare, measure, type Measurement } from './measure.ts';
import { sized } from './size.ts';

const MESSAGES = sized(100_000, 2_000);
// Timed runs per figure (after WARMUP untimed ones), 8 figures per database; BENCH_ITERATIONS overrides.
const ITERATIONS = Number(process.env.BENCH_ITERATIONS) || sized(30, 3);
const WARMUP = sized(5, 1);
const SEARCH_WORD = 'echo';
const DIRECT_ADDRESS = 'referrals@riverview.direct.example.org';
const FAX_NUMBER = '5035550202';
const DAY_MS = 86_400_000;
// The first page's total is counted this far (apps/server/src/modules/intake/service.ts).
const TOTAL_UP_TO = INTAKE_PAGE_SIZE * INTAKE_TOTAL_COUNT_PAGES;

interface Ids {
  org: string;
  admin: string;
  user: string;
}

// 100,000 inbound messages in Riverview, set-based: received over the last 60 days, Direct (60 %) or
// Fax, from one of 50 senders, subjects of 2-3 words of a small vocabulary and a number, a patient
// name on 30 %, Received/Read/Processed, 5 % assigned to the User and 3 % to the Administrator, 1 %
// deleted; half of them with 1-3 attachments (rows pointing at a handful of blob rows without files:
// the list never opens them). No patients rows: the list reads messages.patient_name only.
async function loadIntakeMessages(db: Database, ids: Ids) {
  await db.transaction(async (tx) => {
    await tx.execute(sql`select setseed(0.4242)`);
    await tx.execute(sql`
      with v as (
        select array['Referral', 'Cardiology', 'Echo', 'Consult', 'Lab', 'Results', 'Follow-up', 'Discharge', 'Summary', 'Imaging',
                     'Stress', 'Test', 'Holter', 'Report', 'Records', 'Request']::text[] as words,
               array['Garcia', 'Nguyen', 'Smith', 'Johnson', 'Patel', 'Kim', 'Brown', 'Lopez', 'Miller', 'Davis']::text[] as last_names,
               array['Maria', 'James', 'Linh', 'Robert', 'Priya', 'David', 'Sarah', 'Ahmed', 'Emily', 'Carlos']::text[] as first_names,
               array['Printed', 'StructuredExport', 'PDFExport', 'NativeExport']::text[] as processed_types
      ), r as (
        select g, now() - random() * interval '60 days' as received, random() < 0.6 as direct, floor(random() * 50)::int as sender,
               random() as status_roll, random() as assign_roll, random() as patient_roll,
               1 + floor(random() * 16)::int as w1, 1 + floor(random() * 16)::int as w2, 1 + floor(random() * 16)::int as w3, random() < 0.5 as three_words,
               1 + floor(random() * 10)::int as last_name, 1 + floor(random() * 10)::int as first_name, 1 + floor(random() * 4)::int as processed_type,
               random() < 0.01 as deleted, 1 + floor(random() * 12)::int as pages, random() * interval '2 days' as handled_after
        from generate_series(1, ${MESSAGES}) g
      )
      insert into messages (organization_id, direction, is_draft, status, source_type, subject, from_address, to_address, body, patient_name,
                            message_date, system_received_date, created_date, updated_date, is_read, is_processed, processed_type,
                            assigned_user_id, properties, deleted_at, delivery_key)
      select ${ids.org}, 'Inbound', false,
             case when status_roll < 0.4 then 'Received' when status_roll < 0.7 then 'Read' else 'Processed' end,
             case when direct then 'Direct' else 'Fax' end,
             words[w1] || ' ' || words[w2] || case when three_words then ' ' || words[w3] else '' end || ' ' || (1000 + g),
             case when direct then 'records' || sender || '@clinic' || (sender % 17) || '.direct.example.org' else (5035551000 + sender)::text end,
             case when direct then ${DIRECT_ADDRESS} else ${FAX_NUMBER} end,
             '',
             case when patient_roll < 0.3 then last_names[last_name] || ', ' || first_names[first_name] end,
             received - interval '3 minutes', received, received,
             case when status_roll < 0.4 then received else received + handled_after end,
             status_roll >= 0.4, status_roll >= 0.7,
             case when status_roll >= 0.7 then processed_types[processed_type] end,
             case when assign_roll < 0.05 then ${ids.user}::uuid when assign_roll < 0.08 then ${ids.admin}::uuid end,
             case when not direct then jsonb_build_object('includeCoverPage', false, 'includeMessageBody', false, 'includeAttachmentDescriptions', false, 'faxPageCount', pages) end,
             case when deleted then received + interval '1 hour' end,
             'bench-' || g
      from r cross join v`);
    await tx.execute(sql`
      insert into blobs (organization_id, size_in_bytes, sha256, iv, auth_tag)
      select ${ids.org}, 100000 + g, md5(g::text) || md5(g::text), 'aXYtYmVuY2g=', 'dGFnLWJlbmNo' from generate_series(1, 5) g`);
    await tx.execute(sql`
      insert into attachments (message_id, organization_id, position, file_name, mime_type, size_in_bytes, original_blob_id, current_blob_id, preview_blob_id, preview_status, is_read)
      select m.id, m.organization_id, p - 1, 'document-' || p || '.pdf', 'application/pdf', b.size_in_bytes, b.id, b.id, b.id, 'Available', m.is_read
      from (select id, organization_id, is_read, 1 + floor(random() * 3)::int as n from messages
            where organization_id = ${ids.org} and delivery_key like 'bench-%' and random() < 0.5) m
      cross join lateral generate_series(1, m.n) p
      cross join lateral (select id, size_in_bytes from blobs where organization_id = ${ids.org} order by id offset (p - 1) % 5 limit 1) b`);
  });
  // As autovacuum leaves a table that grew over weeks: statistics, and the visibility map index-only scans read.
  await db.execute(sql`vacuum analyze`);
}

type Search = { word: string; sourceType: string } | null;

// What one list call executes (apps/server/src/modules/intake/queries.ts: findPage, the matches read in index
// order within a budget of rows, looked up another way when sparse, then the page's rows with their attachment
// counts; countFigures, the capped counts and, for a User, hasAssignments, in one statement), written by hand.
// Not included: the session lookup every authenticated request makes (bench/session.ts measures it) and the audit row.
function listQueries(ids: Ids, viewer: 'admin' | 'user', search: Search) {
  const recipients = sql.raw(`"messages"."recipients"`);
  // queries.ts inboundVisibleTo: assigned to the User, or brought by one of their rules (their own or a global one).
  const rules = sql`"intake_rules"."organization_id" = ${ids.org} and ("intake_rules"."is_global" or exists (select 1 from "user_intake_rules"
      where "user_intake_rules"."intake_rule_id" = "intake_rules"."id" and "user_intake_rules"."user_id" = ${ids.user} and "user_intake_rules"."organization_id" = ${ids.org}))`;
  const visibility =
    viewer === 'admin'
      ? undefined
      : sql`("messages"."assigned_user_id" = ${ids.user}
          or (exists (select 1 from "intake_rules" where ${rules})
            and exists (select 1 from "intake_rules" where ${rules}
            and (cardinality("intake_rules"."to_addresses") > 0 or "intake_rules"."from_address" is not null or "intake_rules"."source_type" is not null)
            and (cardinality("intake_rules"."to_addresses") = 0 or "intake_rules"."to_addresses" && ${recipients})
            and ("intake_rules"."from_address" is null or "intake_rules"."from_address" = lower("messages"."from_address"))
            and ("intake_rules"."source_type" is null or "intake_rules"."source_type" = "messages"."source_type"))))`;
  const readExpr = sql.raw(`("messages"."is_read" or coalesce((select bool_and(a."is_read") from "attachments" a where a."message_id" = "messages"."id"), false))`);
  const viewerId = viewer === 'admin' ? ids.admin : ids.user;
  // The route's default start: 30 days before now, at UTC start of day.
  const from = new Date(Date.parse(new Date().toISOString().slice(0, 10)) - INTAKE_DEFAULT_DAYS * DAY_MS).toISOString();
  const window: SQL[] = [sql`"messages"."organization_id" = ${ids.org}`, sql`"messages"."direction" = 'Inbound'`, sql`"messages"."deleted_at" is null`, sql`"messages"."system_received_date" >= ${from}`];
  const scope = visibility ? [...window, visibility] : window;
  const narrowing: SQL[] = visibility ? [visibility] : [];
  if (search) {
    narrowing.push(sql`"messages"."source_type" in (${search.sourceType})`);
    narrowing.push(sql`"messages"."search_text" like lower(${`%${search.word}%`})`);
  }
  const hit = narrowing.length ? sql.join(narrowing, sql` and `) : sql`true`;
  const upTo = (conditions: SQL[], limit: number) =>
    sql`(select count(*)::int from (select 1 from "messages" where ${sql.join(conditions, sql` and `)} limit ${limit}) "capped")`;
  const counted = (extra?: SQL) => upTo(extra ? [...scope, extra] : scope, INTAKE_COUNT_CAP + 1);
  const assignments =
    viewer === 'user'
      ? sql`(exists (select 1 from "intake_rules" where ${rules})
          or exists (select 1 from "messages" where "organization_id" = ${ids.org} and "assigned_user_id" = ${ids.user} and "direction" = 'Inbound' and "deleted_at" is null))`
      : sql`null`;
  const figures = sql`select ${counted()} as "all",
      ${counted(sql`"messages"."assigned_user_id" is null`)} as "unassigned",
      ${counted(sql`"messages"."assigned_user_id" = ${viewerId}`)} as "assignedToSelf",
      ${counted(sql`not ${readExpr}`)} as "unread",
      ${counted(sql`("messages"."status" = 'Failed' and "messages"."failed_acknowledged_at" is null)`)} as "failed",
      ${assignments} as "hasAssignments"`;
  return {
    // Rows of the window in date order from the start or after a row, and the matches among them.
    scanned: (budget: number, after: { at: string; id: string } | null) =>
      sql`select "id", "at"::text as "at", "hit", "boundary" from (
          select "id", "system_received_date" as "at", (${hit}) as "hit",
                 row_number() over (order by "system_received_date" desc, "id" desc) = ${budget} as "boundary"
          from "messages" where ${sql.join(after ? [...window, sql`("system_received_date", "id") < (${after.at}::timestamptz, ${after.id}::uuid)`] : window, sql` and `)}
          order by "system_received_date" desc, "id" desc limit ${budget}) as "scanned"
        where "hit" or "boundary" order by "at" desc, "id" desc limit ${TOTAL_UP_TO + 2}`,
    sparse: sql`with "matches" as materialized (select "id", "system_received_date" as "at" from "messages" where ${sql.join([...window, ...narrowing], sql` and `)})
        select "id", (count(*) over ())::int as "total" from "matches" order by "at" desc, "id" desc limit ${TOTAL_UP_TO + 1}`,
    rows: (messageIds: string[]) =>
      sql`select "id", "subject", "from_address", "to_address", "message_date", "system_received_date", "updated_date", "is_urgent", "is_processed",
                 "processed_type", "source_type", "patient_name", "status", "properties", "is_read",
                 (select count(*)::int from "attachments" a where a.message_id = "messages"."id") as "attachment_count",
                 (select count(*)::int from "attachments" a where a.message_id = "messages"."id" and not a.is_read) as "unread_attachment_count"
          from "messages" where "messages"."id" in (${sql.join(
            messageIds.map((id) => sql`${id}`),
            sql`, `,
          )})`,
    figures,
  };
}

interface Figures {
  all: number;
  unassigned: number;
  assignedToSelf: number;
  unread: number;
  failed: number;
  hasAssignments: boolean | null;
}

type Scanned = { id: string; at: string; hit: boolean; boundary: boolean };

async function rawList(db: Database, ids: Ids, viewer: 'admin' | 'user', search: Search) {
  const queries = listQueries(ids, viewer, search);
  const want = TOTAL_UP_TO + 1;
  // As findMatches: a budget of rows in date order, more at the density seen if that stays within the limit, else the sparse lookup.
  const scan = async (budget: number, after: Scanned | null) => {
    const rows = await queryRows<Scanned>(db, queries.scanned(budget, after));
    return { hits: rows.filter((r) => r.hit).map((r) => r.id), last: rows.find((r) => r.boundary) ?? null };
  };
  const first = await scan(want * SCAN_BUDGET_PER_MATCH, null);
  let matches = first.hits;
  let last = first.last;
  let path = 'in date order';
  if (matches.length < want && last && matches.length > 0) {
    const needed = Math.ceil(((want - matches.length) * want * SCAN_BUDGET_PER_MATCH * 1.5) / matches.length);
    if (needed <= want * (SCAN_LIMIT_PER_MATCH - SCAN_BUDGET_PER_MATCH)) {
      const more = await scan(needed, last);
      matches = [...matches, ...more.hits];
      last = more.last;
      path = 'in date order, read on';
    }
  }
  matches = matches.slice(0, want);
  let total = matches.length;
  if (matches.length < want && last) {
    const sparse = await queryRows<{ id: string; total: number }>(db, queries.sparse);
    matches = sparse.map((r) => r.id);
    total = Math.min(sparse[0]?.total ?? 0, want);
    path = 'sparse, looked up by index';
  }
  const pageIds = matches.slice(0, INTAKE_PAGE_SIZE);
  const rows = pageIds.length ? await queryRows<{ id: string; attachment_count: number }>(db, queries.rows(pageIds)) : [];
  const [figures] = await queryRows<Figures>(db, queries.figures);
  const { hasAssignments: _assigned, ...counts } = figures!;
  return {
    totalCount: Math.min(total, TOTAL_UP_TO),
    totalCountCapped: total > TOTAL_UP_TO,
    ids: pageIds,
    attachments: rows.reduce((n, r) => n + r.attachment_count, 0),
    counts,
    path,
  };
}

// BENCH_EXPLAIN=1: the plans of the queries of one list call, with their timings.
async function explainList(db: Database, ids: Ids, viewer: 'admin' | 'user', search: Search): Promise<string[]> {
  const queries = listQueries(ids, viewer, search);
  const named: [string, SQL][] = [['matches in date order, within the first budget', queries.scanned((TOTAL_UP_TO + 1) * SCAN_BUDGET_PER_MATCH, null)], ['matches of a sparse list', queries.sparse], ['counts', queries.figures]];
  const lines: string[] = [];
  for (const [name, query] of named) {
    const plan = await queryRows<{ 'QUERY PLAN': string }>(db, sql`explain (analyze, costs off) ${query}`);
    lines.push(`    -- ${viewer}, ${search ? 'search' : 'default'}, ${name}`, ...plan.map((r) => `    ${r['QUERY PLAN']}`));
  }
  return lines;
}

interface ListResponse {
  totalCount: number;
  totalCountCapped?: boolean;
  counts: Record<string, number>;
  items: { id: string; attachmentCount: number }[];
}

// Issue 9 §4: p95 of a list call, for both roles, with or without a search.
const TARGET_P95_MS = { PGlite: 60, PostgreSQL: 25 } as const;
type DatabaseLabel = keyof typeof TARGET_P95_MS;
const targetLine = (label: DatabaseLabel, m: Measurement) =>
  `  target p95 <= ${TARGET_P95_MS[label]} ms on ${label}: ${m.p95Ms! <= TARGET_P95_MS[label] ? 'met' : 'NOT met'} (p95 ${m.p95Ms!.toFixed(1)} ms)`;

// Under load (load.ts): the route beside the raw SQL with as many concurrent callers.
const LOAD_CONNECTIONS = sized(150, 10);

async function onDatabase(label: DatabaseLabel, databaseUrl: string | undefined): Promise<string[]> {
  const started = performance.now();
  const { app, handle, close } = await benchApp({ databaseUrl });
  try {
    const [ids] = await queryRows<Ids>(
      handle.db,
      sql`select (select id from organizations where subdomain = 'riverview') as org,
                 (select id from users where user_name = 'admin@riverview.example.org') as admin,
                 (select id from users where user_name = 'user@riverview.example.org') as "user"`,
    );
    const loadStart = performance.now();
    await loadIntakeMessages(handle.db, ids!);
    const loadSeconds = (performance.now() - loadStart) / 1000;
    const [size] = await queryRows<{ messages: number; attachments: number }>(
      handle.db,
      sql`select (select count(*)::int from messages where organization_id = ${ids!.org} and direction = 'Inbound') as messages,
                 (select count(*)::int from attachments where organization_id = ${ids!.org}) as attachments`,
    );
    const lines = [
      `Intake list (POST /api/messages, page of ${INTAKE_PAGE_SIZE}) on ${label}: ${size!.messages} inbound messages in Riverview, ${size!.attachments} attachments, loaded, vacuumed and analyzed in ${loadSeconds.toFixed(1)} s; ${ITERATIONS} timed runs per figure after ${WARMUP} warm-up runs; baseline: the same queries as raw SQL (no session lookup)`,
    ];
    const filters: { name: string; body: IntakeFilter; search: Search }[] = [
      { name: 'default filter {}', body: {}, search: null },
      { name: `search '${SEARCH_WORD}' in Fax`, body: { filter: SEARCH_WORD, sourceTypes: ['Fax'] }, search: { word: SEARCH_WORD, sourceType: 'Fax' } },
    ];
    let adminAuthorization = '';
    for (const viewer of ['admin', 'user'] as const) {
      const login = await app.inject({ method: 'POST', url: '/api/account/login', payload: { userName: `${viewer}@riverview.example.org`, password: PASSWORD } });
      if (login.statusCode !== 200) throw new Error(`login failed: ${login.body}`);
      const authorization = `Bearer ${login.json<{ accessToken: string }>().accessToken}`;
      if (viewer === 'admin') adminAuthorization = authorization;
      for (const filter of filters) {
        const call = async () => {
          const res = await app.inject({ method: 'POST', url: '/api/messages', headers: { authorization }, payload: filter.body });
          if (res.statusCode !== 200) throw new Error(`list failed: ${res.statusCode} ${res.body}`);
          return res.json<ListResponse>();
        };
        // The baseline must read what the route answers.
        const [viaRoute, viaSql] = [await call(), await rawList(handle.db, ids!, viewer, filter.search)];
        const same =
          viaRoute.totalCount === viaSql.totalCount &&
          !!viaRoute.totalCountCapped === viaSql.totalCountCapped &&
          JSON.stringify(viaRoute.items.map((i) => i.id)) === JSON.stringify(viaSql.ids) &&
          viaRoute.items.reduce((n, i) => n + i.attachmentCount, 0) === viaSql.attachments &&
          JSON.stringify(viaRoute.counts) === JSON.stringify(viaSql.counts);
        if (!same) throw new Error(`raw SQL differs from the route for ${viewer}, ${filter.name}: ${JSON.stringify({ route: { totalCount: viaRoute.totalCount, counts: viaRoute.counts }, raw: { totalCount: viaSql.totalCount, counts: viaSql.counts } })}`);
        const who = viewer === 'admin' ? 'Administrator' : 'User (visibility by assignment)';
        const matches = `${viaRoute.totalCount}${viaRoute.totalCountCapped ? '+' : ''} matches, found ${viaSql.path}`;
        const route = await measure(`${label}, ${who}, ${filter.name} (${matches}), route`, ITERATIONS, call, WARMUP);
        const baseline = await measure('raw SQL, same queries', ITERATIONS, () => rawList(handle.db, ids!, viewer, filter.search), WARMUP);
        lines.push(compare(route, baseline), targetLine(label, route));
        if (process.env.BENCH_EXPLAIN) lines.push(...(await explainList(handle.db, ids!, viewer, filter.search)));
      }
    }
    const load = { connections: LOAD_CONNECTIONS };
    const loaded = await routeUnderLoad(app, { url: '/api/messages', method: 'POST', authorization: adminAuthorization, body: {} }, `${label}, Administrator, default filter`, load);
    const rawLoaded = await rawUnderLoad(() => rawList(handle.db, ids!, 'admin', null), 'raw SQL, same queries', load);
    lines.push(`${formatLoad(loaded)}\n  baseline ${formatLoad(rawLoaded)}`);
    lines.push(`  (${label} half took ${((performance.now() - started) / 1000).toFixed(0)} s)`);
    return lines;
  } finally {
    await close();
  }
}

// Intake list with 100,000 messages in one organization, on PGlite and (when BENCH_DATABASE_URL or
// TEST_DATABASE_URL answers) on PostgreSQL, each beside the same queries as raw SQL from this process.
export async function intakeBenchmarks(): Promise<string[]> {
  const lines = await onDatabase('PGlite', undefined);
  const url = await benchPostgresUrl();
  if (url) lines.push(...(await onDatabase('PostgreSQL', url)));
  else lines.push('Intake list on PostgreSQL: skipped (set BENCH_DATABASE_URL or TEST_DATABASE_URL to a server that answers)');
  return lines;
}
