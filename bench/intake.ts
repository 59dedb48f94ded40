import { performance } from 'node:perf_hooks';
import { sql, type SQL } from 'drizzle-orm';
import { INTAKE_COUNT_CAP, INTAKE_DEFAULT_DAYS, INTAKE_PAGE_SIZE, type IntakeFilter } from '@clinicrelay/contracts/intake.ts';
import { queryRows, type Database } from '../apps/server/src/db/client.ts';
import { benchApp, benchPostgresUrl, PASSWORD } from './bench-app.ts';
import { compare, measure } from './measure.ts';

const MESSAGES = 100_000;
// Timed runs per figure (after WARMUP untimed ones), 8 figures per database; BENCH_ITERATIONS overrides.
const ITERATIONS = Number(process.env.BENCH_ITERATIONS) || 30;
const WARMUP = 5;
const SEARCH_WORD = 'echo';
const DIRECT_ADDRESS = 'referrals@riverview.direct.example.org';
const FAX_NUMBER = '5035550202';
const DAY_MS = 86_400_000;

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
  await db.execute(sql`analyze`);
}

type Search = { word: string; sourceType: string } | null;

// What one list call executes (apps/server/src/modules/intake/queries.ts: findPage, countAttachments,
// countCapped, and hasAssignments for a User), written by hand. Not included: the session lookup
// every authenticated request makes (bench/session.ts measures it).
function listQueries(ids: Ids, viewer: 'admin' | 'user', search: Search) {
  const recipients = sql.raw(`string_to_array(lower("messages"."to_address"), ';')`);
  const visibility =
    viewer === 'admin'
      ? undefined
      : sql`("messages"."assigned_user_id" = ${ids.user}
          or ${recipients} && array(select "document_sources"."full_address" from "user_document_sources" inner join "document_sources" on "document_sources"."id" = "user_document_sources"."document_source_id"
            where "user_document_sources"."user_id" = ${ids.user} and "user_document_sources"."organization_id" = ${ids.org})
          or exists (select 1 from "user_intake_rules" inner join "intake_rules" on "intake_rules"."id" = "user_intake_rules"."intake_rule_id"
            where "user_intake_rules"."user_id" = ${ids.user} and "user_intake_rules"."organization_id" = ${ids.org}
            and coalesce("intake_rules"."to_address", "intake_rules"."from_address", "intake_rules"."source_type") is not null
            and ("intake_rules"."to_address" is null or "intake_rules"."to_address" = any(${recipients}))
            and ("intake_rules"."from_address" is null or "intake_rules"."from_address" = lower("messages"."from_address"))
            and ("intake_rules"."source_type" is null or "intake_rules"."source_type" = "messages"."source_type")))`;
  const readExpr = sql.raw(`("messages"."is_read" or coalesce((select bool_and(a."is_read") from "attachments" a where a."message_id" = "messages"."id"), false))`);
  const viewerId = viewer === 'admin' ? ids.admin : ids.user;
  // The route's default start: 30 days before now, at UTC start of day.
  const from = new Date(Date.parse(new Date().toISOString().slice(0, 10)) - INTAKE_DEFAULT_DAYS * DAY_MS).toISOString();
  const scope: SQL[] = [sql`"messages"."organization_id" = ${ids.org}`, sql`"messages"."direction" = 'Inbound'`, sql`"messages"."deleted_at" is null`, sql`"messages"."system_received_date" >= ${from}`];
  if (visibility) scope.push(visibility);
  const where = [...scope];
  if (search) {
    const like = `%${search.word}%`;
    where.push(sql`"messages"."source_type" in (${search.sourceType})`);
    where.push(sql`("messages"."subject" ilike ${like} or "messages"."from_address" ilike ${like} or "messages"."to_address" ilike ${like} or "messages"."patient_name" ilike ${like})`);
  }
  const capped = (extra: SQL | undefined) =>
    sql`select count(*)::int as n from (select 1 from "messages" where ${sql.join(extra ? [...scope, extra] : scope, sql` and `)} limit ${INTAKE_COUNT_CAP + 1}) "capped"`;
  return {
    page: sql`select "id", "subject", "from_address", "to_address", "message_date", "system_received_date", "updated_date", "is_urgent", "is_processed",
                 "processed_type", "source_type", "patient_name", "status", "properties", "is_read"
          from "messages" where ${sql.join(where, sql` and `)}
          order by "messages"."system_received_date" desc, "messages"."id" desc limit ${INTAKE_PAGE_SIZE} offset 0`,
    total: sql`select count(*)::int as n from "messages" where ${sql.join(where, sql` and `)}`,
    attachments: (messageIds: string[]) =>
      sql`select "message_id", count(*)::int as total, cast(count(*) filter (where not "attachments"."is_read") as integer) as unread
          from "attachments" where "attachments"."message_id" in (${sql.join(
            messageIds.map((id) => sql`${id}`),
            sql`, `,
          )}) group by "attachments"."message_id"`,
    counts: {
      all: capped(undefined),
      unassigned: capped(sql`"messages"."assigned_user_id" is null`),
      assignedToSelf: capped(sql`"messages"."assigned_user_id" = ${viewerId}`),
      unread: capped(sql`not ${readExpr}`),
      failed: capped(sql`("messages"."status" = 'Failed' and "messages"."failed_acknowledged_at" is null)`),
    },
    assignments:
      viewer === 'user' ? sql`select "document_source_id" from "user_document_sources" where "user_id" = ${ids.user} and "organization_id" = ${ids.org} limit 1` : undefined,
  };
}

async function rawList(db: Database, ids: Ids, viewer: 'admin' | 'user', search: Search) {
  const queries = listQueries(ids, viewer, search);
  const page = await queryRows<{ id: string }>(db, queries.page);
  // As the route: a first page that is not full is its own total.
  const totalCount = page.length < INTAKE_PAGE_SIZE ? page.length : (await queryRows<{ n: number }>(db, queries.total))[0]!.n;
  const messageIds = page.map((r) => r.id);
  const attachmentCounts = messageIds.length ? await queryRows<{ message_id: string; total: number; unread: number }>(db, queries.attachments(messageIds)) : [];
  const counts: Record<string, number> = {};
  for (const [name, query] of Object.entries(queries.counts)) counts[name] = (await queryRows<{ n: number }>(db, query))[0]!.n;
  if (queries.assignments) await queryRows(db, queries.assignments);
  return { totalCount, ids: messageIds, attachments: attachmentCounts.reduce((n, r) => n + r.total, 0), counts };
}

// BENCH_EXPLAIN=1: the plans of the queries of one list call, with their timings.
async function explainList(db: Database, ids: Ids, viewer: 'admin' | 'user', search: Search): Promise<string[]> {
  const queries = listQueries(ids, viewer, search);
  const page = await queryRows<{ id: string }>(db, queries.page);
  const named: [string, SQL][] = [['page', queries.page], ['total', queries.total], ['attachments', queries.attachments(page.map((r) => r.id))], ...Object.entries(queries.counts).map(([n, q]): [string, SQL] => [`count ${n}`, q])];
  const lines: string[] = [];
  for (const [name, query] of named) {
    const plan = await queryRows<{ 'QUERY PLAN': string }>(db, sql`explain (analyze, costs off) ${query}`);
    lines.push(`    -- ${viewer}, ${search ? 'search' : 'default'}, ${name}`, ...plan.map((r) => `    ${r['QUERY PLAN']}`));
  }
  return lines;
}

interface ListResponse {
  totalCount: number;
  counts: Record<string, number>;
  items: { id: string; attachmentCount: number }[];
}

async function onDatabase(label: string, databaseUrl: string | undefined): Promise<string[]> {
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
      `Intake list (POST /api/messages, page of ${INTAKE_PAGE_SIZE}) on ${label}: ${size!.messages} inbound messages in Riverview, ${size!.attachments} attachments, loaded and analyzed in ${loadSeconds.toFixed(1)} s; ${ITERATIONS} timed runs per figure after ${WARMUP} warm-up runs; baseline: the same queries as raw SQL (no session lookup)`,
    ];
    const filters: { name: string; body: IntakeFilter; search: Search }[] = [
      { name: 'default filter {}', body: {}, search: null },
      { name: `search '${SEARCH_WORD}' in Fax`, body: { filter: SEARCH_WORD, sourceTypes: ['Fax'] }, search: { word: SEARCH_WORD, sourceType: 'Fax' } },
    ];
    for (const viewer of ['admin', 'user'] as const) {
      const login = await app.inject({ method: 'POST', url: '/api/account/login', payload: { userName: `${viewer}@riverview.example.org`, password: PASSWORD } });
      if (login.statusCode !== 200) throw new Error(`login failed: ${login.body}`);
      const authorization = `Bearer ${login.json<{ accessToken: string }>().accessToken}`;
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
          JSON.stringify(viaRoute.items.map((i) => i.id)) === JSON.stringify(viaSql.ids) &&
          viaRoute.items.reduce((n, i) => n + i.attachmentCount, 0) === viaSql.attachments &&
          JSON.stringify(viaRoute.counts) === JSON.stringify(viaSql.counts);
        if (!same) throw new Error(`raw SQL differs from the route for ${viewer}, ${filter.name}: ${JSON.stringify({ route: { totalCount: viaRoute.totalCount, counts: viaRoute.counts }, raw: { totalCount: viaSql.totalCount, counts: viaSql.counts } })}`);
        const who = viewer === 'admin' ? 'Administrator' : 'User (visibility by assignment)';
        const route = await measure(`${label}, ${who}, ${filter.name} (${viaRoute.totalCount} matches), route`, ITERATIONS, call, WARMUP);
        const baseline = await measure('raw SQL, same queries', ITERATIONS, () => rawList(handle.db, ids!, viewer, filter.search), WARMUP);
        lines.push(compare(route, baseline));
        if (process.env.BENCH_EXPLAIN) lines.push(...(await explainList(handle.db, ids!, viewer, filter.search)));
      }
    }
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
