import type { MessageLookup } from '@clinicrelay/contracts/utilities.ts';
import type { Database } from '../../db/client.ts';
import { decodeObjectId, encodeObjectId, isUuid, type DecodedObjectId } from '../../platform/object-id.ts';
import * as workflowsQ from '../workflows/queries.ts';

export interface UtilitiesDeps {
  db: Database;
}

const lookupOf = (messageId: string | null, workflow?: { id: string; type: string; status: string }): MessageLookup => {
  const entity = messageId ?? workflow?.id ?? null;
  return {
    messageId,
    workflowId: workflow?.id ?? null,
    objectId: messageId ? encodeObjectId('message', messageId) : workflow ? encodeObjectId('workflow', workflow.id) : null,
    dbEntityId: entity,
    uuid: entity,
    workflowType: workflow?.type ?? null,
    workflowStatus: workflow?.status ?? null,
  };
};

async function lookupMessage(deps: UtilitiesDeps, messageId: string): Promise<MessageLookup[]> {
  if (!(await workflowsQ.messageExists(deps.db, messageId))) return [];
  const runs = await workflowsQ.findWorkflowsOfMessage(deps.db, messageId);
  return runs.length ? runs.map((w) => lookupOf(messageId, w)) : [lookupOf(messageId)];
}

async function lookupWorkflow(deps: UtilitiesDeps, workflowId: string): Promise<MessageLookup[]> {
  const [workflow] = await workflowsQ.findWorkflow(deps.db, workflowId);
  if (!workflow) return [];
  const messageId = workflow.correlationId && isUuid(workflow.correlationId) && (await workflowsQ.messageExists(deps.db, workflow.correlationId)) ? workflow.correlationId : null;
  return [lookupOf(messageId, workflow)];
}

// GET /api/utilities?id=: a message id or workflow id (plain or as an object id), or a Direct Message-ID; every
// message and workflow it names.
export async function lookup(deps: UtilitiesDeps, id: string): Promise<MessageLookup[]> {
  const decoded = decodeObjectId(id);
  if (decoded) return decoded.kind === 'workflow' ? lookupWorkflow(deps, decoded.uuid) : decoded.kind === 'message' ? lookupMessage(deps, decoded.uuid) : [];
  if (isUuid(id)) {
    const uuid = id.toLowerCase();
    return [...(await lookupMessage(deps, uuid)), ...(await lookupWorkflow(deps, uuid))];
  }
  const hisp = id.startsWith('<') ? id : `<${id}>`;
  const found: MessageLookup[] = [];
  for (const { messageId } of await workflowsQ.findMessageIdsByHispId(deps.db, hisp)) found.push(...(await lookupMessage(deps, messageId)));
  return found;
}

// POST /api/utilities/mailmessages/objectids: each object id's message and the workflow that sent or received it.
export async function decodeMailMessageIds(deps: UtilitiesDeps, objectIds: string[]) {
  const results = [];
  for (const objectId of objectIds) {
    const decoded = decodeObjectId(objectId);
    const [first] = decoded?.kind === 'message' ? await lookupMessage(deps, decoded.uuid) : [];
    results.push({ objectId, mailMessageId: first?.messageId ?? null, workflowId: first?.workflowId ?? null });
  }
  return results;
}

// POST /api/utilities/objectids: the scheme alone, no database (an id of a deleted row still decodes).
export function decodeObjectIds(objectIds: string[]) {
  return objectIds.map((objectId) => {
    const decoded: DecodedObjectId | undefined = decodeObjectId(objectId);
    return { objectId, dbEntityId: decoded?.uuid ?? null, uuid: decoded?.uuid ?? null, kind: decoded?.kind ?? null };
  });
}
