import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { documentSources } from '../../db/schema/document-sources.ts';
import { messages } from '../../db/schema/messages.ts';
import { users } from '../../db/schema/users.ts';

export const DEMO = {
  riverviewAdmin: 'admin@riverview.example.org',
  riverviewUser: 'user@riverview.example.org',
  lakesideAdmin: 'admin@lakeside.example.org',
  lakesideUser: 'user@lakeside.example.org',
  multi: 'multi@example.org',
  riverviewDirect: 'referrals@riverview.direct.example.org',
  riverviewFax: '5035550202',
  lakesideDirect: 'intake@lakeside.direct.example.org',
  lakesideFax: '5035550101',
} as const;

export interface InboundSeed {
  subject: string;
  to?: string;
  // The address whose organization receives it, when `to` is not one of the organization's addresses alone.
  owner?: string;
  from?: string;
  sourceType?: 'Direct' | 'Fax' | 'Upload' | 'DeliverySummary' | 'Triage';
  status?: string;
  receivedAt?: Date;
  assignedUserId?: string | null;
  isUrgent?: boolean;
}

// Test data for Intake stories: a received message in the organization that owns its To address.
export async function insertInbound(db: Database, m: InboundSeed) {
  const to = m.to ?? DEMO.riverviewDirect;
  const [source] = await db.select().from(documentSources).where(eq(documentSources.fullAddress, m.owner ?? to));
  const receivedAt = m.receivedAt ?? new Date(Date.now() - 3_600_000);
  const [row] = await db
    .insert(messages)
    .values({
      organizationId: source!.organizationId,
      direction: 'Inbound',
      subject: m.subject,
      fromAddress: m.from ?? 'clinic@elsewhere.direct.example.com',
      toAddress: to,
      isDraft: false,
      status: m.status ?? 'Received',
      sourceType: m.sourceType ?? 'Direct',
      isUrgent: m.isUrgent ?? false,
      messageDate: receivedAt,
      systemReceivedDate: receivedAt,
      createdDate: receivedAt,
      updatedDate: receivedAt,
      assignedUserId: m.assignedUserId ?? null,
    })
    .returning();
  return row!;
}

export async function userIdOf(db: Database, userName: string) {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.userName, userName));
  return row!.id;
}

export async function sourceIdOf(db: Database, fullAddress: string) {
  const [row] = await db.select({ id: documentSources.id, organizationId: documentSources.organizationId }).from(documentSources).where(eq(documentSources.fullAddress, fullAddress));
  return row!;
}
