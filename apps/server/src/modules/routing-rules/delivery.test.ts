import net from 'node:net';
import { Hl7Message } from '@medplum/core';
import { Hl7Connection } from '@medplum/hl7';
import { and, eq, sql } from 'drizzle-orm';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RoutingRule } from '@clinicrelay/contracts/routing-rules.ts';
import { documentSources } from '../../db/schema/document-sources.ts';
import { attachments, messages } from '../../db/schema/messages.ts';
import { workflowSteps, workflows } from '../../db/schema/workflows.ts';
import { createBlobStore } from '../../platform/blobs/blob-store.ts';
import type { WorkflowHandlers, WorkflowLogger } from '../../platform/workflows/context.ts';
import { workflowHandlers } from '../../platform/workflows/registry.ts';
import { runOnce } from '../../platform/workflows/runner.ts';
import { attachReadyPdf } from '../../test/attach-pdf.ts';
import { useTestApp } from '../../test/app.ts';
import { createSandboxFaxProvider } from '../../transports/fax/sandbox-fax-provider.ts';
import { localFaxLine } from '../../transports/local.ts';
import { sendMessageWorkflow } from '../delivery/send-workflow.ts';
import { SEND_WORKFLOW } from '../delivery/service.ts';
import { MLLP_ATTEMPTS, routeByRule } from './delivery.ts';

// Issue 29 §3: a routing rule sends mail for its address as HL7 v2 over MLLP. Each test starts its own MLLP listener on
// loopback that answers as the story needs (AA, a NAK, nothing, a dropped connection) and reads what arrived.

const ADMIN = 'sysadmin@example.org';
const LAKESIDE_USER = 'user@lakeside.example.org';
const RIVERVIEW_USER = 'user@riverview.example.org';
const LAKESIDE_FROM = 'intake@lakeside.direct.example.org';
const RIVERVIEW_FROM = 'referrals@riverview.direct.example.org';
const quiet: WorkflowLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };
const patient = { firstName: 'Maria', lastName: 'Alvarez', birthDate: '1958-04-12', gender: 'F', patientId: 'MRN-4471' };

type Answer = 'AA' | 'AE' | 'AR' | 'silent' | 'drop';

interface Listener {
  port: number;
  received: Hl7Message[];
  close(): Promise<void>;
}

// An MLLP listener on 127.0.0.1: `answer(n)` says what the n-th message (1-based) gets.
async function startListener(answer: (n: number) => Answer): Promise<Listener> {
  const received: Hl7Message[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    const connection = new Hl7Connection(socket);
    connection.addEventListener('message', ({ message }) => {
      received.push(message);
      const what = answer(received.length);
      if (what === 'drop') socket.destroy();
      else if (what === 'AA') connection.send(message.buildAck({ ackCode: 'AA' }));
      else if (what !== 'silent') {
        const ack = message.buildAck({ ackCode: what });
        ack.getSegment('MSA')!.setField(3, what === 'AE' ? 'Unknown patient MRN-4471' : 'Facility not served here');
        connection.send(ack);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

async function samplePdf(text: string): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const page = pdf.addPage([612, 792]);
  page.drawText(text, { x: 72, y: 700, size: 14, font: await pdf.embedFont(StandardFonts.Helvetica) });
  return pdf.save();
}

describe('Routing rules: HL7 v2 over MLLP', () => {
  const t = useTestApp();
  const listeners: Listener[] = [];
  let orgOf: Record<string, string>;
  let releaseTypeId: Record<string, string>;
  let pdf: Uint8Array;
  const db = () => t.handle.db;

  // The send workflow as the registry wires it, with an ACK wait short enough for a test.
  const handlers = (): WorkflowHandlers => {
    const blobs = createBlobStore({ db: db(), dataDir: t.config.dataDir, key: t.config.blobEncryptionKey });
    const now = () => t.clock.now;
    const fax = createSandboxFaxProvider({ localLine: localFaxLine({ db: db(), blobs, now }) });
    const routing = routeByRule({ db: db(), now, mllp: { ackTimeoutMs: 300, connectTimeoutMs: 1000 } });
    return new Map([[SEND_WORKFLOW, sendMessageWorkflow({ db: db(), blobs, now, fax, routing })]]);
  };
  const run = () => runOnce({ db: db(), handlers: handlers(), logger: quiet });
  // The backoff has passed: the workflow's next try is due now.
  const makeDue = () => db().update(workflows).set({ runAfter: sql`now() - interval '1 second'` }).where(eq(workflows.status, 'Pending'));

  beforeAll(async () => {
    const sources = await db().select().from(documentSources);
    orgOf = Object.fromEntries(sources.map((s) => [s.fullAddress, s.organizationId]));
    releaseTypeId = {
      [LAKESIDE_USER]: (await t.call(LAKESIDE_USER, 'GET', '/api/releasetypes')).json()[0].id,
      [RIVERVIEW_USER]: (await t.call(RIVERVIEW_USER, 'GET', '/api/releasetypes')).json()[0].id,
    };
    pdf = await samplePdf('Discharge summary for Maria Alvarez');
  });
  afterAll(() => Promise.all(listeners.map((l) => l.close())));

  const listen = async (answer: (n: number) => Answer) => {
    const listener = await startListener(answer);
    listeners.push(listener);
    return listener;
  };

  const rule = async (address: string, convertToFormat: 'MDM' | 'ORU' | 'CDA', ports: number[]) => {
    const res = await t.call(ADMIN, 'POST', '/api/admin/routingrules', { address, stepType: 1, securityType: 'Certificate', convertToFormat, facilityOid: '2.16.840.1.113883.3.777', locationCode: 'rrh' });
    expect(res.statusCode, res.body).toBe(200);
    const created = res.json<RoutingRule>();
    for (const port of ports) expect((await t.call(ADMIN, 'POST', '/api/admin/routingrules/endpoints', { routingRuleId: created.id, ipAddress: '127.0.0.1', port })).statusCode).toBe(200);
    return created;
  };

  // A message with one PDF from the user's organization to `to`, sent; its id.
  const send = async (to: string, user = LAKESIDE_USER, from = LAKESIDE_FROM) => {
    const saved = await t.call(user, 'PUT', '/api/messages', {
      subject: 'Discharge summary',
      fromAddress: from,
      toAddress: to,
      body: 'Discharge summary attached.',
      releaseTypeId: releaseTypeId[user],
      patient,
      properties: { includeCoverPage: true, includeMessageBody: true, includeAttachmentDescriptions: true },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const id = saved.json().id as string;
    await attachReadyPdf(db(), t.config, { messageId: id, organizationId: orgOf[from]! }, pdf, 'discharge.pdf');
    const res = await t.call(user, 'POST', `/api/messages/${id}/send`);
    expect(res.statusCode, res.body).toBe(200);
    return id;
  };
  const recipientOf = async (id: string, user = LAKESIDE_USER) => (await t.call(user, 'GET', `/api/messages/${id}`)).json().deliveries[0];

  it('delivers as ORU^R01 through the registry’s send workflow: AA settles the recipient Delivered, its timeline shows the conversion and the ACK', async () => {
    const listener = await listen(() => 'AA');
    await rule('results@mercy.hl7.example.net', 'ORU', [listener.port]);
    const id = await send('results@mercy.hl7.example.net');
    await runOnce({ db: db(), handlers: workflowHandlers({ config: t.config, db: db(), now: () => t.clock.now }), logger: quiet });

    expect(listener.received).toHaveLength(1);
    const hl7 = listener.received[0]!;
    expect(hl7.header.getComponent(9, 1)).toBe('ORU');
    expect(hl7.header.getComponent(9, 2)).toBe('R01');
    expect(hl7.header.getField(6).toString()).toBe('2.16.840.1.113883.3.777');
    expect(hl7.getSegment('PID')!.getField(5).toString()).toBe('Alvarez^Maria');
    expect(hl7.getSegment('PID')!.getField(7).toString()).toBe('19580412');
    expect(hl7.getSegment('PID')!.getComponent(3, 1)).toBe('MRN-4471');
    const obx = hl7.getSegment('OBX')!;
    expect(obx.getField(2).toString()).toBe('ED');
    expect([obx.getComponent(5, 2), obx.getComponent(5, 3), obx.getComponent(5, 4)]).toEqual(['AP', 'PDF', 'Base64']);
    expect(Buffer.from(obx.getComponent(5, 5), 'base64').equals(Buffer.from(pdf))).toBe(true);

    const recipient = await recipientOf(id);
    expect(recipient).toMatchObject({ status: 'Delivered', reason: `Delivered as HL7 v2 ORU^R01 over MLLP to 127.0.0.1:${listener.port} (acknowledged AA)` });
    expect(recipient.timeline.map((e: { stage: string; detail: string }) => [e.stage, e.detail])).toEqual([
      ['Queued', 'Converted to HL7 v2 ORU^R01 (1 message) by its routing rule'],
      ['Dispatched', `Accepted by the receiving system at 127.0.0.1:${listener.port} (HL7 ACK AA)`],
    ]);
    expect((await t.call(LAKESIDE_USER, 'GET', `/api/messages/${id}`)).json().status).toBe('Delivered');
  });

  it('delivers as MDM^T02 with a TXA for the document', async () => {
    const listener = await listen(() => 'AA');
    await rule('documents@mercy.hl7.example.net', 'MDM', [listener.port]);
    const id = await send('documents@mercy.hl7.example.net');
    await run();
    const hl7 = listener.received[0]!;
    expect(hl7.header.getField(9).toString()).toBe('MDM^T02^MDM_T02');
    expect(hl7.getSegment('TXA')!.getField(17).toString()).toBe('AU');
    expect(Buffer.from(hl7.getSegment('OBX')!.getComponent(5, 5), 'base64').equals(Buffer.from(pdf))).toBe(true);
    expect((await recipientOf(id)).status).toBe('Delivered');
  });

  it('a NAK (AE, then AR) fails the recipient at once with the ACK’s text, without another try', async () => {
    for (const [code, text] of [['AE', 'Unknown patient MRN-4471'], ['AR', 'Facility not served here']] as const) {
      const listener = await listen(() => code);
      const address = `nak-${code.toLowerCase()}@mercy.hl7.example.net`;
      await rule(address, 'ORU', [listener.port]);
      const id = await send(address);
      await run();
      await makeDue();
      await run();
      expect(listener.received).toHaveLength(1);
      const recipient = await recipientOf(id);
      const reason = `The receiving system at 127.0.0.1:${listener.port} refused the HL7 ORU^R01 (${code}): ${text}`;
      expect(recipient).toMatchObject({ status: 'Failed', reason });
      expect(recipient.timeline.at(-1)).toMatchObject({ stage: 'Failed', detail: reason });
      const [workflow] = await db().select().from(workflows).where(sql`${workflows.payload} ->> 'messageId' = ${id}`);
      expect(workflow!.status).toBe('Failed');
    }
  });

  it('no ACK in time: tried again with backoff, then Failed with the reason after the last try', async () => {
    const listener = await listen(() => 'silent');
    await rule('silent@mercy.hl7.example.net', 'ORU', [listener.port]);
    const id = await send('silent@mercy.hl7.example.net');
    for (let attempt = 1; attempt <= MLLP_ATTEMPTS; attempt++) {
      await run();
      if (attempt < MLLP_ATTEMPTS) {
        expect((await recipientOf(id)).status, `after try ${attempt}`).toBe('Pending');
        const [workflow] = await db().select().from(workflows).where(sql`${workflows.payload} ->> 'messageId' = ${id}`);
        expect(workflow).toMatchObject({ status: 'Pending', lastError: expect.stringContaining('No HL7 acknowledgement') });
        await makeDue();
      }
    }
    expect(listener.received).toHaveLength(MLLP_ATTEMPTS);
    // Every try repeats the same control id: the receiver can tell a resend.
    expect(new Set(listener.received.map((m) => m.header.getField(10).toString())).size).toBe(1);
    const recipient = await recipientOf(id);
    expect(recipient).toMatchObject({ status: 'Failed', reason: `No HL7 acknowledgement from 127.0.0.1:${listener.port} within 0.3 s. (after ${MLLP_ATTEMPTS} tries)` });
  });

  it('a dropped connection is tried again, and the next try’s AA delivers (retries then success)', async () => {
    const listener = await listen((n) => (n <= 2 ? 'drop' : 'AA'));
    await rule('flaky@mercy.hl7.example.net', 'ORU', [listener.port]);
    const id = await send('flaky@mercy.hl7.example.net');
    await run();
    const [step] = await db().select().from(workflowSteps).where(eq(workflowSteps.name, 'hl7-mllp')).orderBy(sql`${workflowSteps.startedAt} desc`).limit(1);
    expect(step).toMatchObject({ status: 'Failed', error: expect.stringContaining('closed before an HL7 acknowledgement arrived') });
    expect((await recipientOf(id)).status).toBe('Pending');
    await makeDue();
    await run();
    await makeDue();
    await run();
    expect(listener.received).toHaveLength(3);
    expect(await recipientOf(id)).toMatchObject({ status: 'Delivered' });
  });

  it('an endpoint out of reach hands over to the rule’s next endpoint', async () => {
    const closed = await startListener(() => 'AA');
    const closedPort = closed.port;
    await closed.close();
    const listener = await listen(() => 'AA');
    await rule('failover@mercy.hl7.example.net', 'ORU', [closedPort, listener.port]);
    const id = await send('failover@mercy.hl7.example.net');
    await run();
    expect(listener.received).toHaveLength(1);
    expect((await recipientOf(id)).reason).toContain(`127.0.0.1:${listener.port}`);
  });

  it('senders restrict the rule: an organization not listed is not routed by it (it goes over Direct as usual)', async () => {
    const listener = await listen(() => 'AA');
    const created = await rule('restricted@mercy.hl7.example.net', 'ORU', [listener.port]);
    const added = await t.call(ADMIN, 'POST', '/api/admin/routingrules/senders', { routingRuleId: created.id, organizationId: orgOf[LAKESIDE_FROM], organizationOid: '2.16.840.1.113883.3.55' });
    expect(added.statusCode, added.body).toBe(200);

    const fromRiverview = await send('restricted@mercy.hl7.example.net', RIVERVIEW_USER, RIVERVIEW_FROM);
    const fromLakeside = await send('restricted@mercy.hl7.example.net');
    await run();
    // Only Lakeside's message arrived, naming Lakeside's OID as its sending facility.
    expect(listener.received).toHaveLength(1);
    expect(listener.received[0]!.header.getField(4).toString()).toBe('2.16.840.1.113883.3.55');
    expect((await recipientOf(fromLakeside)).status).toBe('Delivered');
    // Riverview's went the usual way: this test server has no outbound Direct, so it says so.
    expect(await recipientOf(fromRiverview, RIVERVIEW_USER)).toMatchObject({ status: 'Failed', reason: 'Direct delivery to other HISPs is not configured on this server.' });
  });

  it('a CDA rule sends over Direct as usual, the documents converted to C-CDA (here: to an address hosted on this installation)', async () => {
    await rule(RIVERVIEW_FROM, 'CDA', []);
    const id = await send(RIVERVIEW_FROM);
    await run();
    expect((await recipientOf(id)).status).toBe('Delivered');
    const [copy] = await db().select().from(messages).where(and(eq(messages.originalObjectId, id), eq(messages.direction, 'Inbound')));
    const files = await db().select().from(attachments).where(eq(attachments.messageId, copy!.id));
    expect(files.map((f) => [f.fileName, f.mimeType])).toEqual([['discharge.xml', 'application/xml']]);
    await t.call(ADMIN, 'DELETE', `/api/admin/routingrules/${(await t.call(ADMIN, 'GET', `/api/admin/routingrules?search=${encodeURIComponent(RIVERVIEW_FROM)}`)).json().items[0].id}`);
  });

  it('a rule without endpoints fails its recipients with why', async () => {
    await rule('nowhere@mercy.hl7.example.net', 'MDM', []);
    const id = await send('nowhere@mercy.hl7.example.net');
    await run();
    expect(await recipientOf(id)).toMatchObject({ status: 'Failed', reason: 'The routing rule for nowhere@mercy.hl7.example.net has no endpoint to deliver HL7 MDM^T02 to.' });
  });
});
