import type { Hl7Message } from '@medplum/core';
import { Hl7Client } from '@medplum/hl7';

// One HL7 v2 message over MLLP (a TCP connection per message, framed VT … FS CR by @medplum/hl7) and its ACK.

export interface MllpTarget {
  host: string;
  port: number;
}

export interface MllpOptions {
  // How long the connection may take, and then the ACK.
  connectTimeoutMs: number;
  ackTimeoutMs: number;
  signal?: AbortSignal;
}

export const MLLP_DEFAULTS = { connectTimeoutMs: 10_000, ackTimeoutMs: 30_000 } as const;

/** The message could not be handed over (refused, dropped, no ACK in time): worth trying again later. */
export class MllpTransportError extends Error {}

const where = (target: MllpTarget) => `${target.host}:${target.port}`;

/** Sends one message and waits for its ACK (any code: the caller reads it). */
export async function sendOverMllp(target: MllpTarget, message: Hl7Message, options: MllpOptions): Promise<Hl7Message> {
  options.signal?.throwIfAborted();
  const client = new Hl7Client({ host: target.host, port: target.port, connectTimeout: options.connectTimeoutMs, keepAlive: false });
  try {
    const connection = await client.connect().catch((error: unknown) => {
      throw new MllpTransportError(`Could not connect to ${where(target)} over MLLP: ${(error as Error).message}`);
    });
    // @medplum/hl7 only notices a dropped connection when its wait runs out: the close ends the wait at once.
    let onClose = () => undefined as void;
    let onAbort = () => undefined as void;
    const interrupted = new Promise<never>((_, reject) => {
      onClose = () => reject(new MllpTransportError(`The connection to ${where(target)} closed before an HL7 acknowledgement arrived.`));
      onAbort = () => reject(new MllpTransportError('The delivery was stopped.'));
    });
    connection.addEventListener('close', onClose);
    options.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      return await Promise.race([
        connection.sendAndWait(message, { timeoutMs: options.ackTimeoutMs }).catch((error: unknown) => {
          if (error instanceof MllpTransportError) throw error;
          const text = (error as Error).message;
          throw new MllpTransportError(/timed out|timeout/i.test(text) ? `No HL7 acknowledgement from ${where(target)} within ${Number((options.ackTimeoutMs / 1000).toFixed(1))} s.` : `MLLP to ${where(target)} failed: ${text}`);
        }),
        interrupted,
      ]);
    } finally {
      connection.removeEventListener('close', onClose);
      options.signal?.removeEventListener('abort', onAbort);
    }
  } finally {
    await client.close().catch(() => undefined);
  }
}
