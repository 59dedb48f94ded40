import {
  type bulkRetryInput,
  retryOutcomeText,
  type BulkRetryResult,
  type WorkflowRow,
  type WorkflowStep,
  workflowCategories,
  type workflowGridQuery,
  type workflowRetryInput,
} from '@clinicrelay/contracts/workflows.ts';
import type { z } from 'zod';
import type { Database } from '../../db/client.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import { decodeObjectId, encodeObjectId, isUuid } from '../../platform/object-id.ts';
import { retryWorkflowStep } from '../../platform/workflows/retry.ts';
import * as q from './queries.ts';

export interface WorkflowsDeps {
  db: Database;
  // The workflow types under each tab of the grid, and the spec's send and receive workflows (app.ts knows them).
  types: { send: string; receive: string; attachments: readonly string[]; events: readonly string[] };
}

type Category = (typeof workflowCategories)[number];

const typesOf = (deps: WorkflowsDeps, category: Category): readonly string[] =>
  category === 'workflows' ? [deps.types.send, deps.types.receive] : category === 'attachments' ? deps.types.attachments : deps.types.events;
const allTypes = (deps: WorkflowsDeps) => workflowCategories.flatMap((c) => typesOf(deps, c));

// The grid's `type`: send (release) or receive (intake), as the spec and the dashboard name them, or a type's name.
function typesNamed(deps: WorkflowsDeps, type: string | undefined, within: readonly string[]): readonly string[] {
  if (!type) return within;
  const t = type.toLowerCase();
  const named = t === 'send' || t === 'release' ? [deps.types.send] : t === 'receive' || t === 'intake' ? [deps.types.receive] : [type];
  return named.filter((n) => within.includes(n));
}

const kindOf = (deps: WorkflowsDeps, type: string) => (type === deps.types.send ? 'send' : type === deps.types.receive ? 'receive' : null);

// What started the workflow: its type and the ids and addresses it was given (never contents).
function commandOf(type: string, payload: Record<string, unknown>): Record<string, unknown> {
  const command: Record<string, unknown> = { name: type };
  for (const [key, value] of Object.entries(payload)) {
    const safeKey = /(Id|Ids)$/.test(key) || ['attempt', 'day', 'mailFrom', 'recipients'].includes(key);
    const scalar = ['string', 'number', 'boolean'].includes(typeof value) || (Array.isArray(value) && value.every((v) => typeof v === 'string'));
    if (safeKey && scalar) command[key] = value;
  }
  return command;
}

// Step results are ids and outcomes; only their plain values are shown (a failure is the step's lastError).
function metaOf(result: Record<string, unknown> | null, error: string | null): Record<string, unknown> | null {
  if (!result) return null;
  const shown = ([key, v]: [string, unknown]) => key !== 'retried' && key !== 'failed' && v !== error && ['string', 'number', 'boolean'].includes(typeof v);
  const meta = Object.fromEntries(Object.entries(result).filter(shown));
  return Object.keys(meta).length ? meta : null;
}

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

async function toRows(deps: WorkflowsDeps, rows: q.WorkflowRowData[], now: Date): Promise<WorkflowRow[]> {
  const messageIds = [...new Set(rows.filter((r) => r.type === deps.types.send && r.correlationId && isUuid(r.correlationId)).map((r) => r.correlationId!))];
  const [steps, mails, files] = await Promise.all([q.findSteps(deps.db, rows.map((r) => r.id)), q.findMessages(deps.db, messageIds), q.findAttachments(deps.db, messageIds)]);
  return rows.map((r) => {
    const mail = r.correlationId ? mails.find((m) => m.id === r.correlationId) : undefined;
    const stepsOf: WorkflowStep[] = steps
      .filter((s) => s.workflowId === r.id)
      .map((s) => {
        const end = s.completedAt ?? (s.status === 'Running' ? now : null);
        return {
          id: s.id,
          stepName: s.name,
          key: s.key,
          status: s.status,
          startTime: iso(s.startedAt),
          endTime: iso(s.completedAt),
          elapsed: s.startedAt && end ? Math.max(0, new Date(end).getTime() - new Date(s.startedAt).getTime()) : null,
          attempts: s.attempts,
          lastError: s.error,
          meta: metaOf(s.result, s.error),
        };
      });
    return {
      id: r.id,
      objectId: encodeObjectId('workflow', r.id),
      type: r.type,
      kind: kindOf(deps, r.type),
      status: r.status,
      channel: r.type === deps.types.receive ? ['Direct'] : (r.channels ?? []),
      createdTime: r.createdAt.toISOString(),
      duration: Math.max(0, Math.round(r.durationMs)),
      hispMessageId: r.hispMessageIds?.join(', ') || null,
      command: commandOf(r.type, r.payload),
      mailMessage: mail
        ? {
            mailMessageId: mail.id,
            objectId: encodeObjectId('message', mail.id),
            tenantId: mail.organizationId,
            sender: mail.fromAddress,
            mailTo: mail.toAddress,
            origin: mail.origin,
            status: mail.status,
            attachmentEvents: files.filter((f) => f.messageId === mail.id).map((f) => ({ attachmentId: f.id, mimeType: f.mimeType, size: f.size, previewStatus: f.previewStatus })),
          }
        : null,
      attempts: r.attempts,
      maxAttempts: r.maxAttempts,
      lastError: r.lastError,
      steps: stepsOf,
    };
  });
}

// The search box: a workflow or message id (plain or object id), or a Direct Message-ID.
function idsSearched(search: string): NonNullable<q.WorkflowFilter['ids']> {
  if (isUuid(search)) return { workflowIds: [search], correlationIds: [search.toLowerCase()] };
  const decoded = decodeObjectId(search);
  if (decoded?.kind === 'workflow') return { workflowIds: [decoded.uuid], correlationIds: [] };
  if (decoded) return { workflowIds: [], correlationIds: [decoded.uuid] };
  return { workflowIds: [], correlationIds: [search], hispMessageId: search.startsWith('<') ? search : `<${search}>` };
}

export async function listWorkflows(deps: WorkflowsDeps, query: z.output<typeof workflowGridQuery>, now: Date) {
  const types = typesNamed(deps, query.type, typesOf(deps, query.category));
  if (types.length === 0) return { items: [], totalCount: 0 };
  const filter: q.WorkflowFilter = {
    types,
    status: query.status,
    // The channel's first word, so the dashboard's longer names ("Direct over SMTP", "Local delivery") select it too.
    channel: query.channel?.toLowerCase().split(/[\s_-]+/)[0] || undefined,
    ids: query.search ? idsSearched(query.search) : undefined,
  };
  const { rows, total } = await q.findPage(deps.db, filter, { offset: (query.pageNumber - 1) * query.pageSize, limit: query.pageSize });
  return { items: await toRows(deps, rows, now), totalCount: total };
}

export async function getWorkflow(deps: WorkflowsDeps, id: string, type: string | undefined, now: Date): Promise<WorkflowRow> {
  const row = await q.findById(deps.db, id, typesNamed(deps, type, allTypes(deps)));
  if (!row) throw notFound();
  return (await toRows(deps, [row], now))[0]!;
}

// PUT /api/workflows/{id}: `type` is send, receive or the workflow's own type.
export async function retryStep(deps: WorkflowsDeps, id: string, input: z.output<typeof workflowRetryInput>, now: Date) {
  if (input.id !== undefined && input.id.toLowerCase() !== id.toLowerCase()) throw new AppError(400, 'The id in the body is not the workflow’s.');
  const result = await retryWorkflowStep(deps.db, { workflowId: id, types: typesNamed(deps, input.type, allTypes(deps)), step: input.retryStep, key: input.key });
  if (result === 'NotFound') throw notFound();
  if (result === 'Running') throw new AppError(409, retryOutcomeText.Running);
  if (result === 'NothingToRetry') throw new AppError(400, retryOutcomeText.NothingToRetry);
  return { result, message: retryOutcomeText[result], workflow: await getWorkflow(deps, id, undefined, now) };
}

// POST /api/workflows/retry: each id on its own, reported one by one; an id that is not a uuid is NotFound.
export async function bulkRetry(deps: WorkflowsDeps, input: z.output<typeof bulkRetryInput>): Promise<BulkRetryResult> {
  const types = [input.type === 'send' ? deps.types.send : deps.types.receive];
  const results: BulkRetryResult['results'] = [];
  for (const raw of new Set(input.workflowIds)) {
    const decoded = decodeObjectId(raw);
    const workflowId = decoded?.kind === 'workflow' ? decoded.uuid : raw;
    const result = isUuid(workflowId) ? await retryWorkflowStep(deps.db, { workflowId, types, step: input.retryStep }) : 'NotFound';
    results.push({ workflowId: raw, result, message: retryOutcomeText[result] });
  }
  return { results };
}
