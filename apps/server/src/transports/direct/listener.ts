import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerDataStream } from 'smtp-server';
import { InfectedMessageError, scanReceivedFiles, ScannerUnavailableError } from '../../platform/antivirus/scanner.ts';
import { parseDirectContent } from '../../platform/direct/content.ts';
import { enqueue } from '../../platform/workflows/enqueue.ts';
import { findHostedAddress } from '../local.ts';
import type { DirectDeps } from './direct-deps.ts';
import { openMessage } from './envelope.ts';
import { RECEIVE_DIRECT_WORKFLOW, type ReceivePayload } from './inbound.ts';

export interface DirectListener {
  port: number;
  close(): Promise<void>;
}

interface Logger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

// An SMTP reply with its code: smtp-server answers `${responseCode} ${message}`.
const reply = (responseCode: number, message: string) => Object.assign(new Error(message), { responseCode });

// The message's bytes; past the limit the rest is read and dropped (smtp-server flags sizeExceeded), never kept.
async function readAll(stream: SMTPServerDataStream, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += (chunk as Buffer).length;
    if (size <= maxBytes) chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

// The SMTP reply for a message whose attachments do not pass the virus scan; null when they pass (or cannot be read:
// the receive workflow then refuses the message with a failed MDN).
async function scanAttachments(deps: DirectDeps, inner: Buffer): Promise<{ code: number; text: string } | null> {
  let files: { fileName: string; bytes: Buffer }[];
  try {
    files = (await parseDirectContent(inner)).attachments;
  } catch {
    return null;
  }
  try {
    await scanReceivedFiles(deps.scanner, files.map((file) => ({ fileName: file.fileName, bytes: () => file.bytes })));
    return null;
  } catch (error) {
    if (error instanceof InfectedMessageError) return { code: 554, text: `5.7.1 ${error.message}` };
    if (error instanceof ScannerUnavailableError) return { code: 451, text: '4.3.0 The virus scanner is unavailable, try again later' };
    throw error;
  }
}

/**
 * The Direct SMTP listener (issue 12 §3): mail for addresses hosted here only (550 5.1.1 otherwise), STARTTLS offered,
 * no AUTH (HISP to HISP). A message is opened at once so a refusal (not encrypted or signed, untrusted, weak digest,
 * signer not the sender) is answered during the SMTP session with a 5.7.x reply the sending HISP reports; what passes is
 * stored and handed to the receive workflow before the 250 reply, so an accepted message survives a crash.
 */
export async function startDirectListener(deps: DirectDeps, logger: Logger, port = deps.config.smtpPort ?? 0): Promise<DirectListener> {
  const tls = deps.config.tls ? { key: readFileSync(deps.config.tls.keyFile), cert: readFileSync(deps.config.tls.certFile) } : {};
  // Open sessions per client address (issue 26): one address may not hold the descriptors the web side shares.
  const perClient = new Map<string, number>();
  const counted = new Set<string>();
  const server = new SMTPServer({
    name: deps.config.hostname,
    banner: 'ClinicRelay Direct HISP',
    size: deps.config.maxMessageBytes,
    disabledCommands: ['AUTH'],
    authOptional: true,
    logger: false,
    // Past the total, smtp-server answers "421 <hostname> Too many connected clients, try again in a moment".
    maxClients: deps.config.maxConnections,
    socketTimeout: deps.config.idleTimeoutMs,
    closeTimeout: Math.min(deps.config.idleTimeoutMs, 30_000),
    ...tls,
    onConnect(session, callback) {
      const open = perClient.get(session.remoteAddress) ?? 0;
      if (open >= deps.config.maxConnectionsPerClient) {
        logger.warn({ client: session.remoteAddress, open }, 'direct smtp connection refused: too many from one client');
        return callback(reply(421, `4.7.0 Too many connections from ${session.remoteAddress}, try again later`));
      }
      perClient.set(session.remoteAddress, open + 1);
      counted.add(session.id);
      callback();
    },
    onClose(session) {
      if (!counted.delete(session.id)) return;
      const open = (perClient.get(session.remoteAddress) ?? 1) - 1;
      if (open > 0) perClient.set(session.remoteAddress, open);
      else perClient.delete(session.remoteAddress);
    },
    onRcptTo(address, _session, callback) {
      findHostedAddress(deps.db, 'Direct', address.address.toLowerCase(), deps.now())
        .then((hosted) => {
          if (!hosted) return callback(reply(550, `5.1.1 ${address.address} is not a Direct address hosted here`));
          callback(hosted.refusal ? reply(550, `5.7.1 ${address.address}: ${hosted.refusal}`) : null);
        })
        .catch(() => callback(reply(451, '4.3.0 Temporary failure, try again later')));
    },
    onData(stream, session, callback) {
      void (async () => {
        const raw = await readAll(stream, deps.config.maxMessageBytes);
        if (stream.sizeExceeded) return callback(reply(552, `5.3.4 Message larger than ${deps.config.maxMessageBytes} bytes`));
        const recipients = session.envelope.rcptTo.map((r) => r.address.toLowerCase());
        const refusals: string[] = [];
        let inner: Buffer | null = null;
        for (const recipient of recipients) {
          const opened = await openMessage(deps, raw, recipient);
          if (!opened.ok) refusals.push(`${opened.code} ${opened.reason}`);
          else inner ??= opened.inner;
        }
        if (refusals.length === recipients.length) {
          logger.warn({ refusal: refusals[0] }, 'direct message refused');
          const first = refusals[0] ?? '5.7.0 Refused';
          return callback(reply(first.startsWith('4') ? 451 : 554, first));
        }
        // Scanned here, where the message is decrypted anyway, so an infected one is refused before anything is stored.
        const infection = inner ? await scanAttachments(deps, inner) : null;
        if (infection) {
          logger.warn({ refusal: infection.text }, 'direct message refused');
          return callback(reply(infection.code, infection.text));
        }
        const mailFrom = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
        const workflowId = await deps.db.transaction(async (tx) => {
          const blob = await deps.blobs.put(raw, { organizationId: null }, tx);
          const payload: ReceivePayload = { blobId: blob.id, mailFrom, recipients };
          return enqueue(tx, { type: RECEIVE_DIRECT_WORKFLOW, payload: { ...payload } });
        });
        logger.info({ workflowId, recipients: recipients.length }, 'direct message accepted');
        callback(null, `2.0.0 Accepted as ${workflowId}`);
      })().catch((error: unknown) => {
        logger.warn({ error: (error as Error).message }, 'direct message not accepted');
        callback(reply(451, '4.3.0 Temporary failure, try again later'));
      });
    },
  });
  server.on('error', (error) => logger.warn({ error: error.message }, 'direct smtp listener error'));
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(port, deps.config.smtpHost, () => resolve());
  });
  return {
    port: (server.server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
