import { sql, type SQL } from 'drizzle-orm';
import type { conversionPerformanceFields, eventMessageFields, mailMessageFields } from '@clinicrelay/contracts/message-browser.ts';
import type { ODataEntitySet, ODataProperty } from '../../platform/odata.ts';

// The three feeds of the raw message browser, each a FROM clause and its whitelisted properties. Property SQL
// reads the aliases of its FROM clause only; no PHI (subject, body, patient, file names) is reachable from here.

// Workflow types that convert an attachment (the Document Conversion tab).
export const CONVERSION_WORKFLOWS = ['make-rendition', 'extract-patient'] as const;
const conversionTypes = sql.join(
  CONVERSION_WORKFLOWS.map((t) => sql`${t}`),
  sql`, `,
);

// back-office-b §4 message status numbers from the stored status names: a sent message is Delivered once every
// recipient has it (Sent), Pending while some wait; Read is a Received message opened.
const statusNumber = sql`(case m.status
  when 'Draft' then 0 when 'Sent' then 0 when 'Delivered' then 0 when 'Received' then 1 when 'Read' then 1
  when 'AttachmentRead' then 1 when 'Pending' then 2
  when 'Signed' then 3 when 'Suspended' then 4 when 'Deleted' then 5 when 'Removed' then 6 when 'Forwarded' then 7
  when 'Replied' then 8 when 'Processed' then 9 when 'Uploaded' then 10 when 'Triaged' then 11 when 'Failed' then 12 end)`;

// The workflows a message went through: its own (sending, delivery summary), and for an inbound copy the sender's
// send workflow on this installation or the delivery summary that made it. Each branch is an indexed lookup.
const linkedWorkflows = sql`(
  select w.* from workflows w where w.correlation_id = m.id::text
  union all
  select w.* from workflows w
   where m.direction = 'Inbound' and m.delivery_key is not null and w.type = 'send-message'
     and w.correlation_id = split_part(m.delivery_key, ':', 1)
  union all
  select w.* from workflows w
   where m.delivery_key ~ '^delivery-summary:[0-9a-f-]{36}$' and w.id = substr(m.delivery_key, 18)::uuid
)`;

// The messages linked to a workflow of this status, each branch of linkedWorkflows read from the workflows' side: a
// superset of those whose first workflow has it, found through indexes: the status (workflows_claim_idx; the failed
// ones' types and correlation ids are in workflows_failed_updated_idx), the messages' key, and the message id an
// inbound copy's delivery key starts with (messages_inbound_link_idx, migration 0030). An array, not a join: the
// planner's guess of the copies per sent message would have it read every inbound message. Most messages' workflow is
// Completed: for that status the newest messages are read instead (one in a hundred is Failed, few Pending or Running).
const UUID_TEXT = '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';
// The same test without a regular expression, which takes longer than the rest for ten thousand rows.
const uuidShaped = (text: SQL) => sql`(${text} like '________-____-____-____-____________' and ltrim(${text}, '0123456789abcdef-') = '')`;
const messagesWithWorkflowStatus = (status: string) =>
  status === 'Completed'
    ? undefined
    : sql`select case when ${uuidShaped(sql`w.correlation_id`)} then w.correlation_id::uuid end from workflows w where w.status = ${status}
  union all
  select c.id from messages c where c.direction = 'Inbound' and c.delivery_key is not null
    and split_part(c.delivery_key, ':', 1) = any(array(select w.correlation_id from workflows w where w.status = ${status} and w.type = 'send-message'))
  union all
  select c.id from messages c join workflows w on w.id = (case when substr(c.delivery_key, 18) ~ ${UUID_TEXT} then substr(c.delivery_key, 18)::uuid end)
   where c.direction = 'Inbound' and c.delivery_key is not null and split_part(c.delivery_key, ':', 1) = 'delivery-summary' and w.status = ${status}`;

const durationOf = (alias: string) =>
  sql`round(extract(epoch from (coalesce(${sql.raw(alias)}.completed_at, ${sql.raw(alias)}.updated_at) - ${sql.raw(alias)}.created_at)) * 1000)::float8`;

export const mailMessagesFrom = sql`messages m
  left join lateral (select lw.* from ${linkedWorkflows} lw order by lw.created_at asc, lw.id asc limit 1) w on true`;
// Counting without the workflow join when the filter reads none of its properties.
export const mailMessagesCountFrom = { from: sql`messages m`, joined: ['WorkflowId', 'WorkflowName', 'WorkflowStatus', 'CorrelationId', 'Duration'] };

const text = (expression: ReturnType<typeof sql>): ODataProperty => ({ sql: expression, type: 'string' });

export const mailMessages: ODataEntitySet<(typeof mailMessageFields)[number]> = {
  name: 'mailmessages',
  key: 'MailMessageId',
  defaultOrderBy: [{ property: 'CreatedDate', descending: true }],
  properties: {
    MailMessageId: { sql: sql`m.id`, type: 'guid' },
    TenantId: { sql: sql`m.organization_id`, type: 'guid' },
    Direction: text(sql`m.direction`),
    Sender: text(sql`m.from_address`),
    MailTo: text(sql`m.to_address`),
    Origin: text(sql`coalesce(m.origin, m.source_type)`),
    Status: { sql: statusNumber, type: 'number' },
    IsDraft: { sql: sql`m.is_draft`, type: 'boolean' },
    CreatedDate: { sql: sql`m.created_date`, type: 'datetime' },
    SystemReceivedDate: { sql: sql`m.system_received_date`, type: 'datetime' },
    // Direct's Message-ID: sent to the first Direct recipient, or received (kept in the inbound copy's delivery key).
    HispMessageId: text(sql`coalesce(
      (select d.direct_message_id from deliveries d where d.message_id = m.id and d.direct_message_id is not null order by d.created_at, d.id limit 1),
      substring(m.delivery_key from '^direct:(.*):[^:]*$'))`),
    WorkflowId: { sql: sql`w.id`, type: 'guid' },
    WorkflowName: text(sql`w.type`),
    WorkflowStatus: { ...text(sql`w.status`), candidates: messagesWithWorkflowStatus },
    CorrelationId: text(sql`w.correlation_id`),
    Duration: { sql: durationOf('w'), type: 'number' },
    AttachmentCount: { sql: sql`(select count(*)::int from attachments a where a.message_id = m.id)`, type: 'number' },
    ConversionCount: {
      sql: sql`(select count(*)::int from attachments a join workflows cw on cw.correlation_id = a.id::text
                 where a.message_id = m.id and cw.type in (${conversionTypes}))`,
      type: 'number',
    },
    // Step errors are left out: they may quote what a remote server said about the message.
    Workflows: {
      detail: true,
      type: 'string',
      sql: sql`(select coalesce(json_agg(json_build_object(
          'WorkflowId', lw.id, 'Name', lw.type, 'Status', lw.status, 'CreatedTime', lw.created_at,
          'Duration', ${durationOf('lw')}, 'Attempts', lw.attempts,
          'Steps', (select coalesce(json_agg(json_build_object(
              'stepName', s.name, 'key', s.key, 'status', s.status, 'attempts', s.attempts,
              'startTime', s.started_at, 'endTime', s.completed_at,
              'elapsed', round(extract(epoch from (s.completed_at - s.started_at)) * 1000)::float8
            ) order by s.started_at nulls last, s.name, s.key), '[]'::json)
            from workflow_steps s where s.workflow_id = lw.id)
        ) order by lw.created_at), '[]'::json) from ${linkedWorkflows} lw)`,
    },
    Attachments: {
      detail: true,
      type: 'string',
      sql: sql`(select coalesce(json_agg(json_build_object(
          'AttachmentId', a.id, 'MimeType', a.mime_type, 'SizeInBytes', a.size_in_bytes,
          'PreviewStatus', a.preview_status, 'TransformStatus', a.transform_status, 'CreatedDate', a.created_at
        ) order by a.position, a.created_at), '[]'::json) from attachments a where a.message_id = m.id)`,
    },
  },
};

// What happened to a message (message_events) and to each of its recipients (delivery_events), one feed.
export const eventMessagesFrom = sql`(
  select me.id as event_id, me.message_id, me.organization_id, 'Message' as source, me.event_type, null::text as recipient,
         me.user_id, me.created_at
    from message_events me
  union all
  select de.id, d.message_id, de.organization_id, 'Delivery', de.stage, d.recipient, null::uuid, de.created_at
    from delivery_events de join deliveries d on d.id = de.delivery_id
) e`;

export const eventMessages: ODataEntitySet<(typeof eventMessageFields)[number]> = {
  name: 'eventmessages',
  key: 'EventMessageId',
  defaultOrderBy: [{ property: 'CreatedDate', descending: false }],
  properties: {
    EventMessageId: { sql: sql`e.event_id`, type: 'guid' },
    MailMessageId: { sql: sql`e.message_id`, type: 'guid' },
    TenantId: { sql: sql`e.organization_id`, type: 'guid' },
    Source: text(sql`e.source`),
    EventType: text(sql`e.event_type`),
    Recipient: text(sql`e.recipient`),
    UserId: { sql: sql`e.user_id`, type: 'guid' },
    CreatedDate: { sql: sql`e.created_at`, type: 'datetime' },
  },
};

// One row per conversion workflow of an attachment: how long it took and how it ended.
export const conversionPerformanceFrom = sql`workflows cw join attachments a on a.id::text = cw.correlation_id`;
export const conversionPerformanceScope = sql`cw.type in (${conversionTypes})`;

export const conversionPerformance: ODataEntitySet<(typeof conversionPerformanceFields)[number]> = {
  name: 'conversionperformance',
  key: 'WorkflowId',
  defaultOrderBy: [{ property: 'StartTime', descending: true }],
  properties: {
    WorkflowId: { sql: sql`cw.id`, type: 'guid' },
    ConversionType: text(sql`cw.type`),
    MailMessageId: { sql: sql`a.message_id`, type: 'guid' },
    AttachmentId: { sql: sql`a.id`, type: 'guid' },
    TenantId: { sql: sql`a.organization_id`, type: 'guid' },
    SourceMimeType: text(sql`a.mime_type`),
    SizeInBytes: { sql: sql`a.size_in_bytes`, type: 'number' },
    Status: text(sql`cw.status`),
    Attempts: { sql: sql`cw.attempts`, type: 'number' },
    StartTime: { sql: sql`cw.created_at`, type: 'datetime' },
    EndTime: { sql: sql`cw.completed_at`, type: 'datetime' },
    ElapsedMs: { sql: durationOf('cw'), type: 'number' },
    PreviewStatus: text(sql`a.preview_status`),
  },
};
