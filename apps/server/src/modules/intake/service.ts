import { parseRecipient } from '@clinicrelay/contracts/delivery.ts';
import {
  INTAKE_DEFAULT_DAYS,
  messageStatusNumbers,
  type IntakeListItem,
  type IntakeRule,
  type MessageStatusName,
  type intakeFilter,
} from '@clinicrelay/contracts/intake.ts';
import type { z } from 'zod';
import type { Database } from '../../db/client.ts';
import type { AuthContext } from '../../platform/auth/guard.ts';
import * as q from './queries.ts';

export interface IntakeDeps {
  db: Database;
  now: () => Date;
}

export interface Caller {
  session: AuthContext;
  organizationId: string;
}

type Filter = z.output<typeof intakeFilter>;

const DAY_MS = 86_400_000;
const statusNames = Object.fromEntries(Object.entries(messageStatusNumbers).map(([name, n]) => [n, name])) as Record<number, MessageStatusName>;
const startOfDay = (isoDate: string) => new Date(`${isoDate}T00:00:00Z`);

// Inbound rows only ever hold a name of messageStatusNumbers; anything else reads as Received.
const statusNumberOf = (status: string) => messageStatusNumbers[status as MessageStatusName] ?? messageStatusNumbers.Received;

// Addresses compare as delivered and stored: Direct lower-case, fax numbers as their 10 digits.
const normalized = (address: string | null | undefined) => (address ? (parseRecipient(address)?.address ?? address.toLowerCase()) : null);

const nonEmpty = <T>(values: readonly T[] | null | undefined) => (values?.length ? [...values] : null);

function ruleFilters(rules: IntakeRule[]): q.IntakeRuleFilter[] {
  return rules
    .map((r) => ({ toAddress: normalized(r.toAddress), fromAddress: normalized(r.fromAddress), sourceType: r.sourceType ?? null }))
    // A rule naming nothing would match everything: it narrows nothing, so it is dropped.
    .filter((r) => r.toAddress || r.fromAddress || r.sourceType);
}

// POST /api/messages: the Intake list of end-user §3 "Message list filter".
export async function listIntake(deps: IntakeDeps, caller: Caller, filter: Filter): Promise<{ items: IntakeListItem[]; totalCount: number }> {
  // Assignments (isAll, isUnassigned, isAssignedToSelf) arrive with a later issue: until then every user sees the whole organization.
  const defaultStart = new Date(startOfDay(deps.now().toISOString().slice(0, 10)).getTime() - INTAKE_DEFAULT_DAYS * DAY_MS);
  const statuses = nonEmpty(filter.statuses)?.map((n) => statusNames[n]!);
  const page = await q.findPage(
    deps.db,
    {
      organizationId: caller.organizationId,
      dateColumn: filter.orderBy,
      from: filter.startDate ? startOfDay(filter.startDate) : defaultStart,
      until: filter.endDate ? new Date(startOfDay(filter.endDate).getTime() + DAY_MS) : null,
      rules: ruleFilters(filter.rules),
      statuses: statuses ?? null,
      sourceTypes: nonEmpty(filter.sourceTypes),
      processedTypes: nonEmpty(filter.processedTypes),
      sourceIds: nonEmpty(filter.sources),
      text: filter.filter || null,
      orderDir: filter.orderDir,
    },
    { offset: (filter.pageStart - 1) * filter.pageSize, limit: filter.pageSize },
  );
  const counts = await q.countAttachments(
    deps.db,
    page.items.map((m) => m.id),
  );
  return {
    totalCount: page.totalCount,
    items: page.items.map((m) => {
      const attached = counts.get(m.id) ?? { total: 0, unread: 0 };
      return {
        id: m.id,
        subject: m.subject,
        fromAddress: m.fromAddress,
        toAddress: m.toAddress,
        messageDate: m.messageDate?.toISOString() ?? null,
        systemReceivedDate: m.systemReceivedDate?.toISOString() ?? null,
        updatedDate: m.updatedDate.toISOString(),
        isUrgent: m.isUrgent,
        isProcessed: m.isProcessed,
        processedType: m.processedType,
        sourceType: m.sourceType,
        patientName: m.patientName,
        status: m.status,
        statusNumber: statusNumberOf(m.status),
        attachmentCount: attached.total,
        faxPageCount: m.properties?.faxPageCount ?? null,
        // No message-level read mark exists yet: a message is read once every attachment has been opened.
        isRead: attached.total > 0 && attached.unread === 0,
      };
    }),
  };
}
