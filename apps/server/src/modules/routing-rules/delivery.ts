import type { Database } from '../../db/client.ts';
import type { WorkflowContext } from '../../platform/workflows/context.ts';
import { markFailed, recordStage } from '../../transports/direct/timeline.ts';
import { buildDocumentMessage, controlIdOf, readAck, type Hl7Document } from '../../transports/hl7/hl7-message.ts';
import { MLLP_DEFAULTS, MllpTransportError, sendOverMllp, type MllpOptions } from '../../transports/hl7/mllp-client.ts';
import type { MessageRouter, RoutedContent } from '../delivery/send-workflow.ts';
import * as deliveryQ from '../delivery/queries.ts';
import { emitDeliveryOutcome } from '../webhooks/delivery-workflow.ts';
import * as q from './queries.ts';

export interface RoutingDeliveryDeps {
  db: Database;
  now: () => Date;
  mllp?: Partial<Omit<MllpOptions, 'signal'>>;
}

// Tries of one document over MLLP (each trying every endpoint in turn) before the recipient fails; between them the
// workflow's backoff (2, 4, 8 s …). A NAK (AE/AR) is the receiver's answer and fails the recipient at once.
export const MLLP_ATTEMPTS = 4;
export const HL7_CHANNEL = 'HL7';

const MESSAGE_TYPES = { MDM: 'MDM^T02', ORU: 'ORU^R01' } as const;

type Rule = q.RuleRow & { convertToFormat: 'MDM' | 'ORU' };
type Route = Parameters<MessageRouter>[1];

const documentOf = (d: RoutedContent['documents'][number]): Hl7Document => ({
  fileName: d.fileName,
  mimeType: d.mimeType,
  bytes: d.bytes,
  title: d.meta?.documentDescription || d.meta?.documentType || d.fileName,
  loincCode: d.loincCode ?? null,
  documentDate: d.meta?.documentDate ?? null,
});

/**
 * One recipient as HL7 v2 over MLLP: each document (or, without one, the message's text) as its own MDM^T02 or
 * ORU^R01 in a durable step, every endpoint tried in order, the ACK read. The recipient's timeline shows the
 * conversion (Queued), then the acknowledgement (Dispatched) or the reason it failed.
 */
async function deliverOverHl7(deps: RoutingDeliveryDeps, ctx: WorkflowContext, rule: Rule, sendingOid: string | null, route: Route) {
  const { message, delivery } = route;
  const endpoints = await q.findEndpoints(deps.db, [rule.id]);
  const type = MESSAGE_TYPES[rule.convertToFormat];
  if (endpoints.length === 0) {
    const reason = `The routing rule for ${rule.address} has no endpoint to deliver HL7 ${type} to.`;
    await markFailed(deps.db, delivery, reason, deps.now());
    return { status: 'Failed', channel: HL7_CHANNEL, reason };
  }
  const content = await route.load();
  const documents = content.documents.length > 0 ? content.documents.map(documentOf) : [null];
  await recordStage(deps.db, delivery, 'Queued', `Converted to HL7 v2 ${type} (${documents.length} ${documents.length === 1 ? 'message' : 'messages'}) by its routing rule`, deps.now());
  const options = { ...MLLP_DEFAULTS, ...deps.mllp, signal: ctx.signal };
  const accepted: string[] = [];
  for (const [index, document] of documents.entries()) {
    const controlId = controlIdOf(delivery.id, String(index));
    const sent = await ctx.step('hl7-mllp', `${delivery.recipient}#${index}`, async ({ attempt }) => {
      const hl7 = buildDocumentMessage({
        kind: rule.convertToFormat,
        controlId,
        at: message.messageDate ?? deps.now(),
        sendingFacility: sendingOid ?? message.fromAddress ?? 'ClinicRelay',
        receivingApplication: rule.locationCode,
        receivingFacility: rule.facilityOid,
        patient: content.patient,
        subject: message.subject,
        body: message.body,
        document,
        documentNumber: `${message.id}.${index + 1}`,
      });
      let lastError: MllpTransportError | null = null;
      for (const endpoint of endpoints) {
        const target = `${endpoint.ipAddress}:${endpoint.port}`;
        try {
          const ack = readAck(await sendOverMllp({ host: endpoint.ipAddress, port: endpoint.port }, hl7, options));
          if (ack.accepted) return { endpoint: target, ack: ack.code, controlId };
          return { failed: `The receiving system at ${target} refused the HL7 ${type} (${ack.code || 'no code'})${ack.text ? `: ${ack.text}` : '.'}`, endpoint: target, ack: ack.code };
        } catch (error) {
          if (!(error instanceof MllpTransportError) || ctx.signal.aborted) throw error;
          lastError = error;
        }
      }
      // Every endpoint was out of reach: tried again with the workflow's backoff, then the recipient fails with why.
      if (attempt >= MLLP_ATTEMPTS) return { failed: `${lastError!.message} (after ${attempt} tries)` };
      throw lastError!;
    });
    if ('failed' in sent) {
      await markFailed(deps.db, delivery, String(sent.failed), deps.now());
      return { status: 'Failed', channel: HL7_CHANNEL, reason: sent.failed };
    }
    accepted.push(String(sent.endpoint));
  }
  const now = deps.now();
  const where = [...new Set(accepted)].join(', ');
  const reason = `Delivered as HL7 v2 ${type} over MLLP to ${where} (acknowledged AA)`;
  await deps.db.transaction(async (tx) => {
    await recordStage(tx, delivery, 'Dispatched', `Accepted by the receiving system at ${where} (HL7 ACK AA)`, now);
    const settled = await deliveryQ.settleDelivery(tx, delivery.id, { status: 'Delivered', reason, updatedAt: now, deliveredAt: now });
    if (settled) await emitDeliveryOutcome(tx, delivery, 'Delivered', now);
  });
  return { status: 'Delivered', channel: HL7_CHANNEL, endpoint: where };
}

/**
 * Issue 29 §3: the routing rule for a Direct recipient's address (case ignored) decides how it leaves. It applies to
 * the organizations listed as its senders; a rule with no sender applies to every organization (the grid's 'None'
 * means "not restricted"), since the rule describes the recipient. convertToFormat: none, Direct as usual; CDA, Direct
 * with the documents as C-CDA; MDM or ORU, HL7 v2 over MLLP to the rule's endpoints.
 */
export function routeByRule(deps: RoutingDeliveryDeps): MessageRouter {
  return async (ctx, route) => {
    const rule = await q.findRuleByAddress(deps.db, route.delivery.recipient);
    if (!rule) return null;
    const senders = await q.findSenders(deps.db, [rule.id]);
    const sender = senders.find((s) => s.organizationId === route.message.organizationId);
    if (senders.length > 0 && !sender) return null;
    if (rule.convertToFormat === 'CDA') return { conversion: 'Cda' };
    if (rule.convertToFormat !== 'MDM' && rule.convertToFormat !== 'ORU') return null;
    return { outcome: await deliverOverHl7(deps, ctx, { ...rule, convertToFormat: rule.convertToFormat }, sender?.organizationOid ?? null, route) };
  };
}
