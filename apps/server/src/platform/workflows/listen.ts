import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { Database } from '../../db/client.ts';
import type { WorkflowLogger } from './context.ts';

const RECONNECT_MS = 5_000;

// Calls onNotify for each NOTIFY on the channel; resolves to an unsubscribe function. LISTEN needs the
// driver's own client, which the shared Database type hides, so it is taken from drizzle's $client.
// Polling still runs beside it, so a lost notification only costs one poll interval.
export async function listenForNotifications(
  db: Database,
  channel: string,
  onNotify: () => void,
  logger: WorkflowLogger,
): Promise<() => Promise<void>> {
  const client = (db as { $client?: unknown }).$client;
  if (client instanceof PGlite) {
    const unlisten = await client.listen(channel, onNotify);
    return () => unlisten();
  }
  if (client instanceof pg.Pool) return listenOnPostgres(client.options, channel, onNotify, logger);
  logger.warn({ channel }, 'no LISTEN for this database driver; workers poll only');
  return async () => undefined;
}

// A pooled connection cannot hold a LISTEN (it goes back to the pool), so one dedicated client does,
// reconnecting when the server drops it.
async function listenOnPostgres(
  options: pg.ClientConfig,
  channel: string,
  onNotify: () => void,
  logger: WorkflowLogger,
): Promise<() => Promise<void>> {
  let closed = false;
  let current: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  const reconnectLater = () => {
    if (closed || retry) return;
    retry = setTimeout(() => {
      retry = undefined;
      void connect();
    }, RECONNECT_MS);
    retry.unref();
  };
  const drop = (client: pg.Client, error: unknown) => {
    if (closed) return;
    logger.warn({ channel, err: error instanceof Error ? error.message : String(error) }, 'workflow notifications interrupted; reconnecting');
    if (current === client) current = undefined;
    client.end().catch(() => undefined);
    reconnectLater();
  };
  async function connect() {
    const client = new pg.Client(options);
    client.on('notification', (message) => {
      if (message.channel === channel) onNotify();
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
    // Work enqueued while no one was listening is picked up now rather than at the next poll.
    onNotify();
  }
  await connect();
  return async () => {
    closed = true;
    clearTimeout(retry);
    await current?.end().catch(() => undefined);
  };
}
