import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import type { Database } from '../../db/client.ts';

// Reconnection after an outage: quickly at first (a restart takes seconds), then every 5 s at most.
const RECONNECT_FIRST_MS = 250;
const RECONNECT_MAX_MS = 5_000;
// PostgreSQL refuses a NOTIFY payload of 8000 bytes or more; a margin keeps the envelope safe.
export const MAX_NOTIFY_BYTES = 7_900;

export interface ChannelLogger {
  warn(obj: object, msg: string): void;
}

export interface ChannelListener {
  stop(): Promise<void>;
}

export async function notify(db: Database, channel: string, payload: string): Promise<void> {
  if (Buffer.byteLength(payload) > MAX_NOTIFY_BYTES) throw new Error(`NOTIFY payload over ${MAX_NOTIFY_BYTES} bytes on ${channel}`);
  await db.execute(sql`select pg_notify(${channel}, ${payload})`);
}

// Calls onPayload with each notification's payload on the channel, and onResubscribed after a
// reconnection: notifications sent while no one listened are lost, so the caller resynchronizes.
export async function listenWithPayload(
  db: Database,
  channel: string,
  handlers: { onPayload: (payload: string) => void; onResubscribed: () => void },
  logger: ChannelLogger,
): Promise<ChannelListener> {
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`invalid channel name ${channel}`);
  const client = (db as { $client?: unknown }).$client;
  if (client instanceof PGlite) {
    const unlisten = await client.listen(channel, handlers.onPayload);
    return { stop: () => unlisten() };
  }
  if (client instanceof pg.Pool) return listenOnPostgres(client.options, channel, handlers, logger);
  logger.warn({ channel }, 'no LISTEN for this database driver; realtime events stay in this process');
  return { stop: async () => undefined };
}

// A pooled connection cannot hold a LISTEN, so one dedicated client does, reconnecting when dropped.
async function listenOnPostgres(
  options: pg.ClientConfig,
  channel: string,
  handlers: { onPayload: (payload: string) => void; onResubscribed: () => void },
  logger: ChannelLogger,
): Promise<ChannelListener> {
  let closed = false;
  let current: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  let attempted = false;
  let failures = 0;
  const reconnectLater = () => {
    if (closed || retry) return;
    const delay = Math.min(RECONNECT_FIRST_MS * 2 ** failures, RECONNECT_MAX_MS);
    failures++;
    retry = setTimeout(() => {
      retry = undefined;
      void connect();
    }, delay);
    retry.unref();
  };
  const drop = (client: pg.Client, error: unknown) => {
    if (closed) return;
    logger.warn({ channel, err: error instanceof Error ? error.message : String(error) }, 'database notifications interrupted; reconnecting');
    if (current === client) current = undefined;
    client.end().catch(() => undefined);
    reconnectLater();
  };
  async function connect() {
    const first = !attempted;
    attempted = true;
    const client = new pg.Client(options);
    client.on('notification', (message) => {
      if (message.channel === channel && message.payload !== undefined) handlers.onPayload(message.payload);
    });
    client.on('error', (error) => drop(client, error));
    try {
      await client.connect();
      await client.query(`listen ${channel}`);
    } catch (error) {
      drop(client, error);
      return;
    }
    if (closed) return void (await client.end().catch(() => undefined));
    current = client;
    failures = 0;
    if (!first) handlers.onResubscribed();
  }
  await connect();
  return {
    async stop() {
      closed = true;
      clearTimeout(retry);
      await current?.end().catch(() => undefined);
    },
  };
}
