import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { encode } from 'fast-png';
import { PDFDocument } from 'pdf-lib';
import { queryRows } from '../apps/server/src/db/client.ts';
import { workflowHandlers } from '../apps/server/src/platform/workflows/registry.ts';
import { runOnce } from '../apps/server/src/platform/workflows/runner.ts';
import { benchApp, PASSWORD } from './bench-app.ts';
import { compare, measure, measurePair, type Measurement } from './measure.ts';
import { sized } from './size.ts';

const SENDS = sized(10, 2);
const DRAFT_SAVES = sized(100, 5);

// A one-page PDF of about 1 MB: an image of noise, which no compression shrinks.
async function onePdfMegabyte(): Promise<Uint8Array> {
  const side = 600;
  const data = new Uint8Array(side * side * 3);
  for (let i = 0; i < data.length; i++) data[i] = (Math.random() * 256) | 0;
  const doc = await PDFDocument.create();
  const png = await doc.embedPng(encode({ width: side, height: side, data, channels: 3 }));
  doc.addPage([side, side]).drawImage(png, { x: 0, y: 0, width: side, height: side });
  return doc.save();
}

// Release: draft save latency, and messages per second sent with a 1 MB PDF through local delivery
// (send call + the workflow that makes Riverview's copy). Baselines write the same rows with raw SQL.
export async function releaseBenchmarks(): Promise<string[]> {
  const { app, handle, config, close } = await benchApp();
  const login = await app.inject({ method: 'POST', url: '/api/account/login', payload: { userName: 'user@lakeside.example.org', password: PASSWORD } });
  const authorization = `Bearer ${login.json<{ accessToken: string }>().accessToken}`;
  const [ids] = await queryRows<{ org: string; user: string; rv: string }>(
    handle.db,
    sql`select (select id from organizations where subdomain = 'lakeside') as org, (select id from users where user_name = 'user@lakeside.example.org') as "user", (select id from organizations where subdomain = 'riverview') as rv`,
  );
  const draft = {
    subject: 'Cardiology referral',
    fromAddress: 'intake@lakeside.direct.example.org',
    toAddress: 'referrals@riverview.direct.example.org',
    body: 'Please see this patient.',
    releaseTypeId: (await queryRows<{ id: string }>(handle.db, sql`select id from release_types where name = 'Referral'`))[0]!.id,
    patient: { firstName: 'Maria', lastName: 'Alvarez', birthDate: '1958-04-12', gender: 'F' },
  };
  const saveDraft = () => app.inject({ method: 'PUT', url: '/api/messages', headers: { authorization }, payload: draft });

  // The rows the route writes for it (modules/messages/service.ts createDraft): the message with its sender's address
  // and release type, its DraftCreated event, the patient and the PatientChanged audit row, one statement each.
  const [source] = await queryRows<{ id: string }>(handle.db, sql`select id from document_sources where organization_id = ${ids!.org} and full_address = ${draft.fromAddress}`);
  const writeRows = () =>
    handle.db.transaction(async (tx) => {
      const [m] = await queryRows<{ id: string }>(
        tx,
        sql`insert into messages (organization_id, direction, created_by, subject, from_address, from_document_source_id, to_address, body, release_type_id, patient_name)
            values (${ids!.org}, 'Outbound', ${ids!.user}, ${draft.subject}, ${draft.fromAddress}, ${source?.id ?? null}, ${draft.toAddress}, ${draft.body}, ${draft.releaseTypeId}, 'Alvarez, Maria') returning id`,
      );
      await tx.execute(sql`insert into message_events (message_id, organization_id, user_id, event_type) values (${m!.id}, ${ids!.org}, ${ids!.user}, 'DraftCreated')`);
      await tx.execute(sql`insert into patients (message_id, organization_id, first_name, last_name, birth_date, gender) values (${m!.id}, ${ids!.org}, 'Maria', 'Alvarez', '1958-04-12', 'F')`);
      await tx.execute(
        sql`insert into audit_events (event_type, user_id, user_name, organization_id, ip, correlation_id) values ('PatientChanged', ${ids!.user}, 'user@lakeside.example.org', ${ids!.org}, '127.0.0.1', ${m!.id})`,
      );
    });
  // In turns, so a busy machine weighs on both alike.
  const [draftSave, rawDraft] = await measurePair(
    { name: 'PUT /api/messages (draft with patient)', op: saveDraft },
    { name: 'raw SQL: the same rows (message, event, patient, audit)', op: writeRows },
    DRAFT_SAVES,
  );

  // Drafts with a 1 MB PDF each, made before timing: the figure is sending and delivering.
  const pdf = await onePdfMegabyte();
  const drafts: string[] = [];
  for (let i = 0; i < SENDS; i++) {
    const id = (await saveDraft()).json<{ id: string }>().id;
    const form = new FormData();
    form.append('attachmentMeta', JSON.stringify({ confidentiality: 'Normal', documentDateType: 'today', documentDate: new Date().toISOString().slice(0, 10), documentType: 'Referral Letter' }));
    form.append('file', new Blob([Buffer.from(pdf)]), 'referral.pdf');
    const body = new Response(form);
    const up = await app.inject({ method: 'POST', url: `/api/messages/${id}/attachments`, headers: { authorization, 'content-type': body.headers.get('content-type')! }, payload: Buffer.from(await body.arrayBuffer()) });
    if (up.statusCode !== 200) throw new Error(`upload failed: ${up.body}`);
    drafts.push(id);
  }
  const handlers = workflowHandlers({ config, db: handle.db, now: () => new Date() });
  const logger = { info: () => {}, warn: () => {}, error: () => {} };
  const started = performance.now();
  for (const id of drafts) {
    const sent = await app.inject({ method: 'POST', url: `/api/messages/${id}/send`, headers: { authorization } });
    if (sent.statusCode !== 200) throw new Error(`send failed: ${sent.body}`);
  }
  await runOnce({ db: handle.db, handlers, logger });
  const elapsed = performance.now() - started;
  const [delivered] = await queryRows<{ n: number }>(handle.db, sql`select count(*)::int as n from deliveries where status = 'Delivered'`);
  if (delivered!.n !== SENDS) throw new Error(`expected ${SENDS} deliveries, got ${delivered!.n}`);
  const sendRate: Measurement = { name: `send + local delivery, 1 MB PDF (${SENDS} messages)`, perOpMs: elapsed / SENDS, opsPerSecond: (SENDS * 1000) / elapsed };

  const [attachment] = await queryRows<{ blob: string }>(handle.db, sql`select current_blob_id as blob from attachments limit 1`);
  const rawDelivery = await measure('raw SQL: the same rows (inbound message, patient, attachment, delivery)', SENDS * 5, () =>
    handle.db.transaction(async (tx) => {
      const [m] = await queryRows<{ id: string }>(
        tx,
        sql`insert into messages (organization_id, direction, is_draft, status, source_type, subject, from_address, to_address, body, patient_name) values (${ids!.rv}, 'Inbound', false, 'Received', 'Direct', ${draft.subject}, ${draft.fromAddress}, ${draft.toAddress}, ${draft.body}, 'Alvarez, Maria') returning id`,
      );
      await tx.execute(sql`insert into patients (message_id, organization_id, first_name, last_name) values (${m!.id}, ${ids!.rv}, 'Maria', 'Alvarez')`);
      await tx.execute(sql`insert into attachments (message_id, organization_id, file_name, mime_type, size_in_bytes, original_blob_id, current_blob_id, preview_blob_id, preview_status) values (${m!.id}, ${ids!.rv}, 'referral.pdf', 'application/pdf', ${pdf.length}, ${attachment!.blob}, ${attachment!.blob}, ${attachment!.blob}, 'Available')`);
      await tx.execute(sql`update deliveries set status = 'Delivered', delivered_at = now() where id = (select id from deliveries limit 1)`);
    }),
  );

  await close();
  return [compare(draftSave, rawDraft), compare(sendRate, rawDelivery)];
}
