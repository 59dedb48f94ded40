import { asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { queryRows, type DbOrTx } from '../../db/client.ts';
import { countRows } from '../../db/count.ts';
import { attachments, messages } from '../../db/schema/messages.ts';
import { workflowSteps } from '../../db/schema/workflows.ts';

export interface WorkflowFilter {
  types: readonly string[];
  status?: string | undefined;
  // Lower-case channel names (direct, local, fax).
  channel?: string | undefined;
  // Exact ids the search names: workflow ids, message (correlation) ids, Direct Message-IDs.
  ids?: { workflowIds: string[]; correlationIds: string[]; hispMessageId?: string | undefined } | undefined;
}

export interface WorkflowRowData {
  id: string;
  type: string;
  status: 'Pending' | 'Running' | 'Completed' | 'Failed';
  organizationId: string | null;
  correlationId: string | null;
  payload: Record<string, unknown>;
  attempts: number;
  maxAttempts: number;
  lastError: string | null;
  createdAt: Date;
  durationMs: number;
  channels: string[] | null;
  hispMessageIds: string[] | null;
}

// A send workflow's message id, as the deliveries' key (so their index serves the join); null for other types, whose
// correlation ids need not be uuids.
const sentMessageId = sql`(case when w.type = 'send-message' then w.correlation_id::uuid end)`;

// A recipient's channel: Fax, Direct over SMTP, or Local (delivered on this installation).
const channelOf = sql`(case when d.channel = 'Fax' then 'Fax' when d.delivered_message_id is not null or (d.direct_message_id is null and d.status = 'Delivered') then 'Local' else 'Direct' end)`;
// The channels of a send workflow's recipients.
const channelsOf = sql`(select array_agg(distinct ${channelOf}) from deliveries d where d.message_id = ${sentMessageId})`;
// The recipients on each channel (lower-case), as channelOf says, in conditions on the columns: the planner can tell
// how many recipients match, where it takes a condition on the case expression for a rare one.
const recipientsOn: Record<string, SQL> = {
  fax: sql`d.channel = 'Fax'`,
  local: sql`d.channel <> 'Fax' and (d.delivered_message_id is not null or (d.direct_message_id is null and d.status = 'Delivered'))`,
  direct: sql`d.channel <> 'Fax' and d.delivered_message_id is null and (d.direct_message_id is not null or d.status <> 'Delivered')`,
};

function whereOf(filter: WorkflowFilter): SQL {
  const parts: SQL[] = [
    sql`w.type in (${sql.join(
      filter.types.map((t) => sql`${t}`),
      sql`, `,
    )})`,
  ];
  if (filter.status) parts.push(sql`w.status = ${filter.status}`);
  if (filter.channel) {
    // Receiving is over Direct only; a send workflow's channels are its recipients': the first recipient on that channel
    // answers, read through the deliveries' index (a scalar subquery, which PostgreSQL runs for each row: an exists
    // here may be planned as a scan of every delivery).
    const recipients = Object.hasOwn(recipientsOn, filter.channel) ? recipientsOn[filter.channel]! : sql`false`;
    parts.push(
      sql`(case when w.type = 'receive-direct' then ${filter.channel} = 'direct' else (select true from deliveries d where d.message_id = ${sentMessageId} and ${recipients} limit 1) is not null end)`,
    );
  }
  if (filter.ids) {
    const { workflowIds, correlationIds, hispMessageId } = filter.ids;
    const any: SQL[] = [];
    if (workflowIds.length) any.push(sql`w.id in (${sql.join(workflowIds.map((id) => sql`${id}::uuid`), sql`, `)})`);
    if (correlationIds.length) any.push(sql`w.correlation_id in (${sql.join(correlationIds.map((id) => sql`${id}`), sql`, `)})`);
    if (hispMessageId) any.push(sql`exists (select 1 from deliveries d where d.message_id = ${sentMessageId} and d.direct_message_id = ${hispMessageId})`);
    parts.push(any.length ? sql`(${sql.join(any, sql` or `)})` : sql`false`);
  }
  return sql.join(parts, sql` and `);
}

// Newest first (workflows_created_idx, migration 0030), with the total (db/count.ts: exact up to 1,000 rows).
export async function findPage(db: DbOrTx, filter: WorkflowFilter, page: { offset: number; limit: number }): Promise<{ rows: WorkflowRowData[]; total: number }> {
  const where = whereOf(filter);
  const [total, rows] = await Promise.all([
    countRows(db, sql`workflows w where ${where}`),
    queryRows<WorkflowRowData>(
      db,
      sql`select w.id, w.type, w.status, w.organization_id as "organizationId", w.correlation_id as "correlationId", w.payload,
            w.attempts, w.max_attempts as "maxAttempts", w.last_error as "lastError", w.created_at as "createdAt",
            cast(extract(epoch from (coalesce(w.completed_at, case when w.status in ('Failed', 'Completed') then w.updated_at else now() end) - w.created_at)) * 1000 as float8) as "durationMs",
            ${channelsOf} as channels,
            (select array_agg(d.direct_message_id order by d.recipient) from deliveries d
              where d.message_id = ${sentMessageId} and d.direct_message_id is not null) as "hispMessageIds"
          from workflows w where ${where}
          order by w.created_at desc, w.id desc
          offset ${page.offset} limit ${page.limit}`,
    ),
  ]);
  return { rows: rows.map((r) => ({ ...r, createdAt: new Date(r.createdAt) })), total };
}

export async function findById(db: DbOrTx, id: string, types: readonly string[]): Promise<WorkflowRowData | undefined> {
  const { rows } = await findPage(db, { types, ids: { workflowIds: [id], correlationIds: [] } }, { offset: 0, limit: 1 });
  return rows[0];
}

export function findSteps(db: DbOrTx, workflowIds: string[]) {
  if (workflowIds.length === 0) return Promise.resolve([]);
  return db
    .select()
    .from(workflowSteps)
    .where(inArray(workflowSteps.workflowId, workflowIds))
    .orderBy(asc(workflowSteps.startedAt), asc(workflowSteps.name), asc(workflowSteps.key));
}

export function findMessages(db: DbOrTx, ids: string[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .select({
      id: messages.id,
      organizationId: messages.organizationId,
      fromAddress: messages.fromAddress,
      toAddress: messages.toAddress,
      origin: messages.origin,
      status: messages.status,
    })
    .from(messages)
    .where(inArray(messages.id, ids));
}

export function findAttachments(db: DbOrTx, messageIds: string[]) {
  if (messageIds.length === 0) return Promise.resolve([]);
  return db
    .select({ id: attachments.id, messageId: attachments.messageId, mimeType: attachments.mimeType, size: attachments.sizeInBytes, previewStatus: attachments.previewStatus })
    .from(attachments)
    .where(inArray(attachments.messageId, messageIds))
    .orderBy(asc(attachments.position));
}

// Workflows about a message (its correlation id), newest first.
export function findWorkflowsOfMessage(db: DbOrTx, messageId: string) {
  return queryRows<{ id: string; type: string; status: string }>(db, sql`select id, type, status from workflows where correlation_id = ${messageId} order by created_at desc limit 50`);
}

export async function messageExists(db: DbOrTx, id: string): Promise<boolean> {
  return (await db.select({ id: messages.id }).from(messages).where(eq(messages.id, id))).length > 0;
}

export function findMessageIdsByHispId(db: DbOrTx, hispMessageId: string) {
  return queryRows<{ messageId: string }>(db, sql`select distinct message_id as "messageId" from deliveries where direct_message_id = ${hispMessageId} limit 50`);
}

export function findWorkflow(db: DbOrTx, id: string) {
  return queryRows<{ id: string; type: string; status: string; correlationId: string | null }>(
    db,
    sql`select id, type, status, correlation_id as "correlationId" from workflows where id = ${id}::uuid`,
  );
}
