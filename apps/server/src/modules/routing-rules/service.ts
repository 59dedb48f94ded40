import type { z } from 'zod';
import {
  routingRuleMessages as text,
  type RoutingRule,
  type routingEndpointCreate,
  type routingEndpointUpdate,
  type routingRuleInput,
  type routingRuleQuery,
  type routingSenderCreate,
  type routingSenderUpdate,
} from '@clinicrelay/contracts/routing-rules.ts';
import type { Database, DbOrTx } from '../../db/client.ts';
import { auditedByAdmin, writeAudit } from '../../platform/audit.ts';
import type { AdminCaller } from '../../platform/auth/guard.ts';
import { AppError, badRequest, isUniqueViolation } from '../../platform/errors.ts';
import * as q from './queries.ts';

export interface RoutingRulesDeps {
  db: Database;
  now: () => Date;
}

type RuleInput = z.output<typeof routingRuleInput>;

// §8: save and delete errors show the server's model-state messages, so each refusal names its field.
const refused = (field: string, message: string) => badRequest(message, { [field]: [message] });
const missing = (field: string, message: string) => new AppError(404, message, { modelState: { [field]: [message] } });

function toRule(row: q.RuleRow, endpoints: q.EndpointRow[], senders: q.SenderRow[]): RoutingRule {
  return {
    id: row.id,
    address: row.address,
    stepType: row.stepType,
    securityType: row.securityType,
    customCertificateName: row.customCertificateName,
    convertToFormat: row.convertToFormat,
    locationCode: row.locationCode,
    facilityOid: row.facilityOid,
    keyHieAddress: row.keyHieAddress,
    displayUrl: row.displayUrl,
    endpoints: endpoints.filter((e) => e.routingRuleId === row.id).map(({ id, routingRuleId, ipAddress, port, oid }) => ({ id, routingRuleId, ipAddress, port, oid })),
    senders: senders
      .filter((s) => s.routingRuleId === row.id)
      .map(({ id, organizationId, routingRuleId, organizationName, organizationOid, facilityType, facilityTypeCodeId, facilityTypeCodeScheme }) => ({
        id,
        organizationId,
        routingRuleId,
        organizationName,
        organizationOid,
        facilityType,
        facilityTypeCodeId,
        facilityTypeCodeScheme,
      })),
  };
}

async function withChildren(db: DbOrTx, rows: q.RuleRow[]) {
  const ids = rows.map((r) => r.id);
  const [endpoints, senders] = await Promise.all([q.findEndpoints(db, ids), q.findSenders(db, ids)]);
  return rows.map((row) => toRule(row, endpoints, senders));
}

export async function listRules(deps: RoutingRulesDeps, query: z.output<typeof routingRuleQuery>) {
  const page = await q.findRulePage(deps.db, query, query);
  return { items: await withChildren(deps.db, page.items), totalCount: page.totalCount };
}

export async function getRule(deps: RoutingRulesDeps, id: string) {
  const row = await q.findRule(deps.db, id);
  if (!row) throw missing('id', text.ruleNotFound);
  return (await withChildren(deps.db, [row]))[0]!;
}

const addressTaken = () => refused('address', text.addressTaken);

// Two saves of one address at once: the unique index decides, and the loser hears the same sentence.
async function uniqueAddress<T>(save: () => Promise<T>) {
  try {
    return await save();
  } catch (error) {
    if (isUniqueViolation(error)) throw addressTaken();
    throw error;
  }
}

const auditRule = (db: DbOrTx, caller: AdminCaller, eventType: string, details: Record<string, unknown>, at: Date) => writeAudit(db, { eventType, ...auditedByAdmin(caller), details }, at);

export async function createRule(deps: RoutingRulesDeps, caller: AdminCaller, input: RuleInput) {
  if (await q.addressTaken(deps.db, input.address)) throw addressTaken();
  const now = deps.now();
  const row = await uniqueAddress(() =>
    deps.db.transaction(async (tx) => {
      const created = await q.insertRule(tx, { ...input, createdBy: caller.session.userId, createdAt: now, modifiedBy: caller.session.userId, modifiedAt: now });
      await auditRule(tx, caller, 'RoutingRuleCreated', { id: created.id, address: created.address, convertToFormat: created.convertToFormat }, now);
      return created;
    }),
  );
  return getRule(deps, row.id);
}

export async function updateRule(deps: RoutingRulesDeps, caller: AdminCaller, id: string, input: RuleInput) {
  if (!(await q.findRule(deps.db, id))) throw missing('id', text.ruleNotFound);
  if (await q.addressTaken(deps.db, input.address, id)) throw addressTaken();
  const now = deps.now();
  await uniqueAddress(() =>
    deps.db.transaction(async (tx) => {
      const updated = await q.updateRule(tx, id, { ...input, modifiedBy: caller.session.userId, modifiedAt: now });
      if (!updated) throw missing('id', text.ruleNotFound);
      await auditRule(tx, caller, 'RoutingRuleUpdated', { id, address: updated.address, convertToFormat: updated.convertToFormat }, now);
    }),
  );
  return getRule(deps, id);
}

export async function deleteRule(deps: RoutingRulesDeps, caller: AdminCaller, id: string) {
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    const deleted = await q.deleteRule(tx, id);
    if (!deleted) throw missing('id', text.ruleNotFound);
    await auditRule(tx, caller, 'RoutingRuleDeleted', { id, address: deleted.address }, now);
  });
  return { ok: true as const };
}

async function requireRule(db: DbOrTx, routingRuleId: string) {
  if (!(await q.findRule(db, routingRuleId))) throw missing('routingRuleId', text.ruleNotFound);
}

export async function createEndpoint(deps: RoutingRulesDeps, caller: AdminCaller, input: z.output<typeof routingEndpointCreate>) {
  await requireRule(deps.db, input.routingRuleId);
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    const created = await q.insertEndpoint(tx, input);
    await auditRule(tx, caller, 'RoutingRuleEndpointAdded', { id: created.id, routingRuleId: input.routingRuleId, ipAddress: input.ipAddress, port: input.port }, now);
  });
  return getRule(deps, input.routingRuleId);
}

export async function updateEndpoint(deps: RoutingRulesDeps, caller: AdminCaller, input: z.output<typeof routingEndpointUpdate>) {
  const existing = await q.findEndpoint(deps.db, input.id);
  // An endpoint is moved to no other rule: the pair (id, routingRuleId) must be the stored one.
  if (!existing || existing.routingRuleId !== input.routingRuleId) throw missing('id', text.endpointNotFound);
  const { id, ...values } = input;
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    await q.updateEndpoint(tx, id, values);
    await auditRule(tx, caller, 'RoutingRuleEndpointUpdated', { id, routingRuleId: input.routingRuleId, ipAddress: input.ipAddress, port: input.port }, now);
  });
  return getRule(deps, input.routingRuleId);
}

export async function deleteEndpoint(deps: RoutingRulesDeps, caller: AdminCaller, id: string) {
  const now = deps.now();
  return deps.db.transaction(async (tx) => {
    const deleted = await q.deleteEndpoint(tx, id);
    if (!deleted) throw missing('id', text.endpointNotFound);
    await auditRule(tx, caller, 'RoutingRuleEndpointDeleted', { id, routingRuleId: deleted.routingRuleId, ipAddress: deleted.ipAddress, port: deleted.port }, now);
    return { ok: true as const };
  });
}

const senderTaken = () => refused('organizationId', text.senderTaken);

async function checkSender(db: DbOrTx, input: z.output<typeof routingSenderCreate>, exceptId?: string) {
  await requireRule(db, input.routingRuleId);
  if (!(await q.organizationExists(db, input.organizationId))) throw refused('organizationId', text.organizationUnknown);
  if (await q.senderTaken(db, input.routingRuleId, input.organizationId, exceptId)) throw senderTaken();
}

async function uniqueSender<T>(save: () => Promise<T>) {
  try {
    return await save();
  } catch (error) {
    if (isUniqueViolation(error)) throw senderTaken();
    throw error;
  }
}

export async function createSender(deps: RoutingRulesDeps, caller: AdminCaller, input: z.output<typeof routingSenderCreate>) {
  await checkSender(deps.db, input);
  const now = deps.now();
  await uniqueSender(() =>
    deps.db.transaction(async (tx) => {
      const id = await q.insertSender(tx, input);
      await auditRule(tx, caller, 'RoutingRuleSenderAdded', { id, routingRuleId: input.routingRuleId, organizationId: input.organizationId }, now);
    }),
  );
  return getRule(deps, input.routingRuleId);
}

export async function updateSender(deps: RoutingRulesDeps, caller: AdminCaller, input: z.output<typeof routingSenderUpdate>) {
  const existing = await q.findSender(deps.db, input.id);
  if (!existing || existing.routingRuleId !== input.routingRuleId) throw missing('id', text.senderNotFound);
  await checkSender(deps.db, input, input.id);
  const { id, ...values } = input;
  const now = deps.now();
  await uniqueSender(() =>
    deps.db.transaction(async (tx) => {
      await q.updateSender(tx, id, values);
      await auditRule(tx, caller, 'RoutingRuleSenderUpdated', { id, routingRuleId: input.routingRuleId, organizationId: input.organizationId }, now);
    }),
  );
  return getRule(deps, input.routingRuleId);
}

export async function deleteSender(deps: RoutingRulesDeps, caller: AdminCaller, id: string) {
  const now = deps.now();
  return deps.db.transaction(async (tx) => {
    const deleted = await q.deleteSender(tx, id);
    if (!deleted) throw missing('id', text.senderNotFound);
    await auditRule(tx, caller, 'RoutingRuleSenderDeleted', { id, routingRuleId: deleted.routingRuleId, organizationId: deleted.organizationId }, now);
    return { ok: true as const };
  });
}
