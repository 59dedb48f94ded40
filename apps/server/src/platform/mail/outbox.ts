import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { Database, DbOrTx } from '../../db/client.ts';
import { mailOutbox } from '../../db/schema/mail.ts';
import { errorText, type WorkflowHandler } from '../workflows/context.ts';
import { enqueue } from '../workflows/enqueue.ts';
import type { SafeHtml } from './html.ts';
import type { MailAddress } from './settings.ts';
import type { MailTransport, OutboxMail } from './transports.ts';

export const SEND_MAIL_WORKFLOW = 'send-mail';

// 12 tries over about 24 minutes (the runner's backoff: 2 s doubling up to 5 min): a mail server that restarts
// or is briefly unreachable loses no mail; one still refusing after that leaves the mail Failed, with its reason.
export const SEND_MAIL_ATTEMPTS = 12;

export interface MailToQueue {
  // What the mail is for ('Invitation', later password resets and notifications).
  kind: string;
  organizationId?: string | null;
  from: MailAddress;
  to: { name?: string | null; address: string };
  replyTo?: string | null;
  subject: string;
  text: string;
  // Built with html``, which escapes every interpolated value: a raw string cannot be passed here.
  html: SafeHtml;
  headers?: Record<string, string>;
  // The message's Date; the database's now() when not given.
  queuedAt?: Date;
}

// Every mail the product sends goes through here, inside the caller's transaction: the mail exists exactly when
// the change it is about commits, and the send-mail workflow delivers it after the commit (no network call in a
// transaction). Returns the mail's id.
export async function queueMail(tx: DbOrTx, mail: MailToQueue): Promise<string> {
  const id = randomUUID();
  const workflowId = await enqueue(tx, {
    type: SEND_MAIL_WORKFLOW,
    organizationId: mail.organizationId ?? null,
    correlationId: id,
    payload: { mailId: id },
    maxAttempts: SEND_MAIL_ATTEMPTS,
  });
  await tx.insert(mailOutbox).values({
    id,
    organizationId: mail.organizationId ?? null,
    kind: mail.kind,
    fromAddress: mail.from.address,
    fromName: mail.from.name,
    toAddress: mail.to.address,
    toName: mail.to.name ?? null,
    replyTo: mail.replyTo ?? null,
    subject: mail.subject,
    textBody: mail.text,
    htmlBody: mail.html.value,
    headers: mail.headers ?? null,
    workflowId,
    ...(mail.queuedAt ? { createdAt: mail.queuedAt } : {}),
  });
  return id;
}

export async function findMail(db: DbOrTx, id: string): Promise<OutboxMail | undefined> {
  const [row] = await db.select().from(mailOutbox).where(eq(mailOutbox.id, id));
  return row;
}

export interface SendMailWorkflowDeps {
  db: Database;
  transport: MailTransport;
  now: () => Date;
}

// The 'send-mail' workflow: one step per mail, so a completed send is never repeated. Each try counts in the
// row's attempts and leaves its error in lastError; the last failed try marks the row Failed. A try whose
// outcome was lost (the worker died after the server accepted) sends again with the same Message-ID, and the
// .eml file is named by the mail's id, so a repeat replaces rather than adds.
export function sendMailWorkflow(deps: SendMailWorkflowDeps): WorkflowHandler {
  return async (ctx) => {
    const { mailId } = ctx.workflow.payload as { mailId?: string };
    if (!mailId) return;
    await ctx.step('send', mailId, async () => {
      const mail = await findMail(deps.db, mailId);
      if (!mail) return { status: 'Missing' };
      // Recorded as sent by a run that stopped before completing its step.
      if (mail.status === 'Sent') return { status: 'Sent', deliveredTo: mail.deliveredTo };
      const byId = eq(mailOutbox.id, mailId);
      await deps.db.update(mailOutbox).set({ attempts: sql`${mailOutbox.attempts} + 1` }).where(byId);
      let deliveredTo: string;
      try {
        ({ deliveredTo } = await deps.transport.send(mail));
      } catch (error) {
        const lastTry = ctx.workflow.attempts >= ctx.workflow.maxAttempts;
        await deps.db.update(mailOutbox).set({ status: lastTry ? 'Failed' : 'Queued', lastError: errorText(error) }).where(byId);
        throw error;
      }
      await deps.db.update(mailOutbox).set({ status: 'Sent', deliveredTo, sentAt: deps.now(), lastError: null }).where(byId);
      return { status: 'Sent', deliveredTo };
    });
  };
}
