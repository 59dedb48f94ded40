import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { blobs } from '../../db/schema/blobs.ts';
import { attachments, deliveries, deliveryEvents, messageEvents, messages } from '../../db/schema/messages.ts';
import { organizations } from '../../db/schema/organizations.ts';
import { workflows, workflowSteps } from '../../db/schema/workflows.ts';
import { useTestApp } from '../../test/app.ts';

// The raw message browser's feeds: a sent referral with its send workflow, Direct Message-ID, events and a converted
// attachment, and a received copy, read the way the browser's grid reads them.
describe('message browser OData feeds', () => {
  const t = useTestApp();
  const at = (minute: number) => new Date(Date.UTC(2026, 10, 1, 9, minute));
  const ids = {
    sent: '10000000-0000-4000-8000-000000000001',
    received: '10000000-0000-4000-8000-000000000002',
    draft: '10000000-0000-4000-8000-000000000003',
    direct: '10000000-0000-4000-8000-000000000004',
    sendWorkflow: '20000000-0000-4000-8000-000000000001',
    renditionWorkflow: '20000000-0000-4000-8000-000000000002',
    attachment: '30000000-0000-4000-8000-000000000001',
  };
  const sysadmin = 'sysadmin@example.org';
  const get = async (url: string, user = sysadmin) => {
    const res = await t.call(user, 'GET', url);
    return { status: res.statusCode, body: res.json() };
  };
  const q = (path: string, options: Record<string, string>) => `${path}?${new URLSearchParams(options).toString()}`;

  beforeAll(async () => {
    const db = t.handle.db;
    const [lakeside] = await db.select({ id: organizations.id }).from(organizations).where(eq(organizations.subdomain, 'lakeside'));
    const [riverview] = await db.select({ id: organizations.id }).from(organizations).where(eq(organizations.subdomain, 'riverview'));
    const org = lakeside!.id;
    await db.insert(messages).values([
      { id: ids.sent, organizationId: org, direction: 'Outbound', subject: 'Referral: Maria Alvarez', fromAddress: 'intake@lakeside.direct.example.org', toAddress: 'dr.lee@riverview.direct.example.org', isDraft: false, status: 'Sent', sourceType: 'Direct', createdDate: at(1), patientName: 'Maria Alvarez' },
      { id: ids.received, organizationId: riverview!.id, direction: 'Inbound', subject: 'Referral: Maria Alvarez', fromAddress: 'intake@lakeside.direct.example.org', toAddress: 'dr.lee@riverview.direct.example.org', isDraft: false, status: 'Received', sourceType: 'Direct', origin: 'Direct', createdDate: at(2), systemReceivedDate: at(2), deliveryKey: `${ids.sent}:dr.lee@riverview.direct.example.org` },
      // Received over Direct from another HISP: its Message-ID is in the copy's delivery key.
      { id: ids.direct, organizationId: riverview!.id, direction: 'Inbound', subject: 'Lab results', fromAddress: 'lab@other-hisp.example.com', toAddress: 'dr.lee@riverview.direct.example.org', isDraft: false, status: 'Read', sourceType: 'Direct', createdDate: at(-30), systemReceivedDate: at(-30), deliveryKey: 'direct:<xyz.9@other-hisp.example.com>:dr.lee@riverview.direct.example.org' },
      { id: ids.draft, organizationId: org, direction: 'Outbound', subject: "O'Brien draft", fromAddress: "o'brien@lakeside.direct.example.org", toAddress: '', isDraft: true, status: 'Draft', createdDate: at(3) },
    ]);
    await db.insert(workflows).values([
      { id: ids.sendWorkflow, type: 'send-message', status: 'Failed', organizationId: org, correlationId: ids.sent, attempts: 2, createdAt: at(1), updatedAt: new Date(at(1).getTime() + 1500), lastError: 'Maria Alvarez: 550 refused' },
      { id: ids.renditionWorkflow, type: 'make-rendition', status: 'Completed', organizationId: org, correlationId: ids.attachment, attempts: 1, createdAt: at(1), updatedAt: at(1), completedAt: new Date(at(1).getTime() + 250) },
    ]);
    await db.insert(workflowSteps).values([
      { workflowId: ids.sendWorkflow, name: 'deliver', key: 'dr.lee@riverview.direct.example.org', status: 'Failed', attempts: 2, error: 'Maria Alvarez: 550 refused', startedAt: at(1), completedAt: new Date(at(1).getTime() + 1200) },
    ]);
    const [blob] = await db.insert(blobs).values({ organizationId: org, sizeInBytes: 1234, sha256: 'x', iv: 'x', authTag: 'x' }).returning({ id: blobs.id });
    await db.insert(attachments).values({ id: ids.attachment, messageId: ids.sent, organizationId: org, fileName: 'Maria Alvarez referral.pdf', mimeType: 'application/pdf', sizeInBytes: 1234, originalBlobId: blob!.id, currentBlobId: blob!.id, previewStatus: 'Available' });
    const [delivery] = await db
      .insert(deliveries)
      .values({ messageId: ids.sent, organizationId: org, recipient: 'dr.lee@riverview.direct.example.org', channel: 'Direct', status: 'Failed', directMessageId: '<abc.123@lakeside.direct.example.org>', reason: 'Maria Alvarez refused', createdAt: at(1) })
      .returning({ id: deliveries.id });
    await db.insert(deliveryEvents).values([
      { deliveryId: delivery!.id, organizationId: org, stage: 'Queued', createdAt: at(1) },
      { deliveryId: delivery!.id, organizationId: org, stage: 'Failed', detail: 'Maria Alvarez refused', createdAt: at(2) },
    ]);
    await db.insert(messageEvents).values({ messageId: ids.sent, organizationId: org, eventType: 'Sent', details: { patient: 'Maria Alvarez' }, createdAt: at(1) });
  });

  it('lists mail messages with the spec columns, newest first, and no PHI', async () => {
    const { status, body } = await get(q('/odata/mailmessages', { $filter: `CreatedDate ge ${at(0).toISOString()}`, $count: 'true' }));
    expect(status).toBe(200);
    expect(body['@odata.count']).toBe(3);
    expect(body['@odata.context']).toBe('/odata/$metadata#mailmessages');
    expect(body.value.map((r: { MailMessageId: string }) => r.MailMessageId)).toEqual([ids.draft, ids.received, ids.sent]);
    expect(body.value[2]).toEqual({
      MailMessageId: ids.sent,
      TenantId: expect.any(String),
      Direction: 'Outbound',
      Sender: 'intake@lakeside.direct.example.org',
      MailTo: 'dr.lee@riverview.direct.example.org',
      Origin: 'Direct',
      Status: 0,
      IsDraft: false,
      CreatedDate: at(1).toISOString(),
      SystemReceivedDate: null,
      HispMessageId: '<abc.123@lakeside.direct.example.org>',
      WorkflowId: ids.sendWorkflow,
      WorkflowName: 'send-message',
      WorkflowStatus: 'Failed',
      CorrelationId: ids.sent,
      Duration: 1500,
      AttachmentCount: 1,
      ConversionCount: 1,
    });
    // The received copy leads to the sender's send workflow.
    expect(body.value[1]).toMatchObject({ Direction: 'Inbound', Status: 1, WorkflowId: ids.sendWorkflow, SystemReceivedDate: at(2).toISOString() });
    expect(JSON.stringify(body)).not.toMatch(/Maria|Alvarez|Referral|refused/);
  });

  it('reads the Direct Message-ID of a message received from another HISP', async () => {
    const { body } = await get(q('/odata/mailmessages', { $filter: `HispMessageId eq '<xyz.9@other-hisp.example.com>'`, $select: 'MailMessageId,Status,WorkflowId,Origin' }));
    expect(body.value).toEqual([{ MailMessageId: ids.direct, Status: 1, WorkflowId: null, Origin: 'Direct' }]);
  });

  it('opens a row: its workflows with their steps and its attachments, without errors or file names', async () => {
    const { body } = await get(q('/odata/mailmessages', { $filter: `MailMessageId eq ${ids.sent}`, $select: 'MailMessageId,Workflows,Attachments' }));
    expect(body.value).toEqual([
      {
        MailMessageId: ids.sent,
        Workflows: [
          {
            WorkflowId: ids.sendWorkflow,
            Name: 'send-message',
            Status: 'Failed',
            CreatedTime: expect.any(String),
            Duration: 1500,
            Attempts: 2,
            Steps: [{ stepName: 'deliver', key: 'dr.lee@riverview.direct.example.org', status: 'Failed', attempts: 2, startTime: expect.any(String), endTime: expect.any(String), elapsed: 1200 }],
          },
        ],
        Attachments: [{ AttachmentId: ids.attachment, MimeType: 'application/pdf', SizeInBytes: 1234, PreviewStatus: 'Available', TransformStatus: 'None', CreatedDate: expect.any(String) }],
      },
    ]);
    expect(JSON.stringify(body)).not.toMatch(/Maria|Alvarez|refused/);
  });

  it('filters, sorts, pages and selects as a grid does', async () => {
    const recent = `CreatedDate ge ${at(0).toISOString()}`;
    const failed = await get(q('/odata/mailmessages', { $filter: `${recent} and WorkflowStatus eq 'Failed' and Direction eq 'Outbound'`, $select: 'MailMessageId' }));
    expect(failed.body.value).toEqual([{ MailMessageId: ids.sent }]);
    // The received copy's workflow is the sender's, found from the failed workflow's side too.
    const failedCopy = await get(q('/odata/mailmessages', { $filter: `${recent} and Direction eq 'Inbound' and WorkflowStatus eq 'Failed'`, $select: 'MailMessageId', $count: 'true' }));
    expect(failedCopy.body).toMatchObject({ '@odata.count': 1, value: [{ MailMessageId: ids.received }] });
    const quoted = await get(q('/odata/mailmessages', { $filter: `contains(tolower(Sender),'o''brien') and IsDraft eq true`, $select: 'MailMessageId,Status' }));
    expect(quoted.body.value).toEqual([{ MailMessageId: ids.draft, Status: 0 }]);
    const notDraft = await get(q('/odata/mailmessages', { $filter: `${recent} and not (IsDraft eq true) and (Status eq 1 or Status eq 0)`, $orderby: 'CreatedDate asc', $select: 'MailMessageId' }));
    expect(notDraft.body.value).toEqual([{ MailMessageId: ids.sent }, { MailMessageId: ids.received }]);
    const page = await get(q('/odata/mailmessages', { $filter: recent, $orderby: 'CreatedDate desc', $top: '1', $skip: '1', $count: 'true', $select: 'MailMessageId' }));
    expect(page.body).toMatchObject({ '@odata.count': 3, value: [{ MailMessageId: ids.received }] });
    expect(page.body['@odata.nextLink']).toBeUndefined();
    const hisp = await get(q('/odata/mailmessages', { $filter: `startswith(HispMessageId,'<abc.')`, $select: 'MailMessageId' }));
    expect(hisp.body.value).toEqual([{ MailMessageId: ids.sent }]);
    const none = await get(q('/odata/mailmessages', { $filter: `Sender eq '''; drop table messages; --'`, $count: 'true' }));
    expect(none.body).toMatchObject({ '@odata.count': 0, value: [] });
  });

  it('caps $top at 1000 and links to the rest', async () => {
    const { body } = await get(q('/odata/mailmessages', { $top: '5000', $select: 'MailMessageId', $filter: 'IsDraft eq false or IsDraft eq true' }));
    expect(body.value.length).toBeLessThanOrEqual(1000);
    if (body.value.length === 1000) expect(body['@odata.nextLink']).toContain('%24skip=1000');
    const small = await get(q('/odata/mailmessages', { $top: '0', $count: 'true' }));
    expect(small.body.value).toEqual([]);
    expect(small.body['@odata.count']).toBeGreaterThanOrEqual(3);
  });

  it('lists a message events: its own and its recipients, without details', async () => {
    const { status, body } = await get(q('/odata/eventmessages', { $filter: `MailMessageId eq ${ids.sent}`, $orderby: 'CreatedDate,Source desc' }));
    expect(status).toBe(200);
    expect(body.value.map((e: { Source: string; EventType: string; Recipient: string | null }) => [e.Source, e.EventType, e.Recipient])).toEqual([
      ['Message', 'Sent', null],
      ['Delivery', 'Queued', 'dr.lee@riverview.direct.example.org'],
      ['Delivery', 'Failed', 'dr.lee@riverview.direct.example.org'],
    ]);
    expect(JSON.stringify(body)).not.toMatch(/Maria|Alvarez|refused/);
  });

  it('lists document conversions with their timings', async () => {
    const { status, body } = await get(q('/odata/conversionperformance', { $filter: `MailMessageId eq ${ids.sent}`, $count: 'true' }));
    expect(status).toBe(200);
    expect(body['@odata.count']).toBe(1);
    expect(body.value[0]).toMatchObject({ WorkflowId: ids.renditionWorkflow, ConversionType: 'make-rendition', AttachmentId: ids.attachment, SourceMimeType: 'application/pdf', SizeInBytes: 1234, Status: 'Completed', ElapsedMs: 250, PreviewStatus: 'Available' });
    // The send workflow is no conversion, whatever the filter says.
    const all = await get(q('/odata/conversionperformance', { $filter: `WorkflowId eq ${ids.sendWorkflow}` }));
    expect(all.body.value).toEqual([]);
  });

  it('answers 400 naming an unknown property, function or option', async () => {
    const cases: [string, Record<string, string>, string][] = [
      ['/odata/mailmessages', { $filter: "Subject eq 'x'" }, "Unknown property 'Subject' of mailmessages."],
      ['/odata/mailmessages', { $filter: "PatientName eq 'x'" }, "Unknown property 'PatientName' of mailmessages."],
      ['/odata/eventmessages', { $orderby: 'Details' }, "Unknown property 'Details' of eventmessages."],
      ['/odata/conversionperformance', { $select: 'FileName' }, "Unknown property 'FileName' of conversionperformance."],
      ['/odata/mailmessages', { $filter: 'year(CreatedDate) eq 2026' }, "Unknown function 'year'."],
      ['/odata/mailmessages', { $filter: "Workflows eq 'x'" }, "The property 'Workflows' of mailmessages cannot be used in $filter."],
      ['/odata/mailmessages', { $expand: 'Workflows' }, "The query option '$expand' is not supported."],
      ['/odata/mailmessages', { $filter: 'Status eq' }, "The query option '$filter' could not be read."],
    ];
    for (const [path, options, message] of cases) {
      const res = await get(q(path, options));
      expect(res, JSON.stringify(options)).toEqual({ status: 400, body: { message } });
    }
  });

  it('answers as OData v4 and is never cached', async () => {
    const res = await t.call(sysadmin, 'GET', '/odata/eventmessages?$top=1');
    expect(res.headers['odata-version']).toBe('4.0');
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('is for system administrators only', async () => {
    for (const path of ['/odata/mailmessages', '/odata/eventmessages', '/odata/conversionperformance']) {
      expect((await get(path)).status).toBe(200);
      for (const user of ['reporting@example.org', 'netadmin@example.org', 'admin@lakeside.example.org', 'user@lakeside.example.org']) {
        expect(await get(path, user), `${user} ${path}`).toEqual({ status: 403, body: { message: 'You are not authorized to view this resource.' } });
      }
      expect((await t.call(null, 'GET', path)).statusCode).toBe(401);
    }
  });
});
