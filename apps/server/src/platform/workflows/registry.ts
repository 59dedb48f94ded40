import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { RENDITION_WORKFLOW, renditionWorkflow } from '../../modules/attachments/rendition-workflow.ts';
import { sendMessageWorkflow } from '../../modules/delivery/send-workflow.ts';
import { DELIVERY_SUMMARY_WORKFLOW } from '../../modules/delivery-summary/service.ts';
import { deliverySummaryWorkflow } from '../../modules/delivery-summary/workflow.ts';
import { SEND_WORKFLOW } from '../../modules/delivery/service.ts';
import { routeByRule } from '../../modules/routing-rules/delivery.ts';
import { extractInWorker } from '../../modules/extraction/extract-in-worker.ts';
import { EXTRACTION_WORKFLOW, extractionWorkflow } from '../../modules/extraction/workflow.ts';
import { createSandboxFaxProvider } from '../../transports/fax/sandbox-fax-provider.ts';
import { createDirectDeps } from '../../transports/direct/direct-deps.ts';
import { RECEIVE_DIRECT_WORKFLOW, receiveDirectWorkflow } from '../../transports/direct/inbound.ts';
import { localFaxLine } from '../../transports/local.ts';
import { scannerFor } from '../antivirus/clamd.ts';
import { createBlobStore, type BlobStore } from '../blobs/blob-store.ts';
import { SEND_MAIL_WORKFLOW, sendMailWorkflow } from '../mail/outbox.ts';
import { WEBHOOK_DELIVERY_WORKFLOW, webhookDeliveryWorkflow } from '../../modules/webhooks/delivery-workflow.ts';
import { DAILY_NOTIFICATIONS_WORKFLOW, dailyNotificationsWorkflow } from '../../modules/notifications/daily.ts';
import { NEW_MESSAGE_NOTICES_WORKFLOW, newMessageNoticesWorkflow } from '../../modules/notifications/new-messages.ts';
import { MONTHLY_USAGE_WORKFLOW, monthlyUsageWorkflow } from '../../modules/generated-reports/monthly-usage.ts';
import { DIRECTORY_DOWNLOAD_WORKFLOW, directoryDownloadWorkflow } from '../../modules/directory-downloads/workflow.ts';
import { mailTransport } from '../mail/transports.ts';
import { BATCH_IMPORT_WORKFLOW } from '../../modules/batch-imports/service.ts';
import { batchImportWorkflow } from '../../modules/batch-imports/workflow.ts';
import { sandboxCustomerMessaging } from '../customer-messaging.ts';
import { sharedWorkerPool } from '../workers/worker-pool.ts';
import type { WorkflowHandlers } from './context.ts';
import type { WorkflowLane } from './runner.ts';

export interface WorkflowDeps {
  config: Config;
  db: Database;
  now: () => Date;
}

// Every workflow type the workers run, keyed by the `type` given to enqueue(). Handlers get their
// dependencies (transports, blobs, mail) here rather than importing them; areas add their entries.
export function workflowHandlers(deps: WorkflowDeps): WorkflowHandlers {
  const blobs = createBlobStore({ db: deps.db, dataDir: deps.config.dataDir, key: deps.config.blobEncryptionKey });
  // FAX_PROVIDER has one value so far, the sandbox.
  const scanner = scannerFor(deps.config.clamd);
  const fax = createSandboxFaxProvider({ localLine: localFaxLine({ db: deps.db, blobs, now: deps.now, scanner }) });
  // Renditions and extraction decode untrusted files: in worker threads, with memory and time limits.
  const files = sharedWorkerPool(deps.config.fileWorkers);
  const direct = createDirectDeps({ config: deps.config, db: deps.db, blobs, now: deps.now });
  return new Map([
    [RENDITION_WORKFLOW, renditionWorkflow({ blobs, files })],
    [SEND_WORKFLOW, sendMessageWorkflow({ db: deps.db, blobs, now: deps.now, fax, direct, scanner, routing: routeByRule({ db: deps.db, now: deps.now }) })],
    [RECEIVE_DIRECT_WORKFLOW, receiveDirectWorkflow(direct)],
    [DELIVERY_SUMMARY_WORKFLOW, deliverySummaryWorkflow({ db: deps.db, blobs, now: deps.now })],
    [EXTRACTION_WORKFLOW, extractionWorkflow({ blobs, extract: (pdf, today, organizationId) => extractInWorker(files, pdf, today, organizationId) })],
    // SMTP_URL, or .eml files under DATA_DIR/outbox.
    [SEND_MAIL_WORKFLOW, sendMailWorkflow({ db: deps.db, transport: mailTransport(deps.config), now: deps.now })],
    [
      WEBHOOK_DELIVERY_WORKFLOW,
      webhookDeliveryWorkflow({
        db: deps.db,
        now: deps.now,
        mailFrom: deps.config.mailFrom,
        publicUrl: deps.config.appUrl,
        secretKey: deps.config.blobEncryptionKey,
        timeoutMs: deps.config.webhooks.timeoutMs,
        allowLoopback: deps.config.webhooks.allowLoopback,
      }),
    ],
    [NEW_MESSAGE_NOTICES_WORKFLOW, newMessageNoticesWorkflow({ db: deps.db, now: deps.now, mailFrom: deps.config.mailFrom, publicUrl: deps.config.appUrl })],
    [DAILY_NOTIFICATIONS_WORKFLOW, dailyNotificationsWorkflow({ db: deps.db, now: deps.now, mailFrom: deps.config.mailFrom, publicUrl: deps.config.appUrl })],
    [MONTHLY_USAGE_WORKFLOW, monthlyUsageWorkflow({ blobs })],
    [BATCH_IMPORT_WORKFLOW, batchImportWorkflow(batchImportDeps(deps, blobs))],
    [DIRECTORY_DOWNLOAD_WORKFLOW, directoryDownloadWorkflow({ blobs })],
  ]);
}

// The organization and admin-user services as app.ts gives them to their routes: the rows are created by the same rules.
export function batchImportDeps(deps: WorkflowDeps, blobs: BlobStore) {
  const { db, now, config } = deps;
  const customerMessaging = sandboxCustomerMessaging();
  return {
    db,
    organizations: { db, now, mailFrom: config.mailFrom, publicUrl: config.publicUrl, appUrl: config.appUrl, customerMessaging },
    adminUsers: { db, now, signingKey: config.tokenSigningKey, mailFrom: config.mailFrom, publicUrl: config.appUrl, blobs, customerMessaging },
  };
}

// Which lane each workflow type runs in (DESIGN.md: every kind of background work has its own queue and concurrency
// limit): sending and receiving never wait behind webhook calls, file decoding, mail or reports.
export const workflowLaneTypes = {
  delivery: [SEND_WORKFLOW, RECEIVE_DIRECT_WORKFLOW],
  webhooks: [WEBHOOK_DELIVERY_WORKFLOW],
  files: [RENDITION_WORKFLOW, EXTRACTION_WORKFLOW],
  mail: [SEND_MAIL_WORKFLOW],
  background: [DELIVERY_SUMMARY_WORKFLOW, NEW_MESSAGE_NOTICES_WORKFLOW, DAILY_NOTIFICATIONS_WORKFLOW, MONTHLY_USAGE_WORKFLOW, BATCH_IMPORT_WORKFLOW, DIRECTORY_DOWNLOAD_WORKFLOW],
} as const;

// The lanes and their loops from the configuration. WORKER_CONCURRENCY=0 turns every lane off in the API process;
// `npm run worker` (workerProcess) always runs every lane, delivery with at least one loop.
export function workflowLanes(config: Config, options: { workerProcess?: boolean } = {}): WorkflowLane[] {
  const off = config.workerConcurrency === 0 && !options.workerProcess;
  const concurrency = { delivery: Math.max(options.workerProcess ? 1 : 0, config.workerConcurrency), ...config.workerLanes };
  return Object.entries(workflowLaneTypes).map(([name, types]) => ({ name, types, concurrency: off ? 0 : concurrency[name as keyof typeof concurrency] }));
}
