import type { Database } from '../../db/client.ts';
import { listenWithPayload } from '../realtime/notifications.ts';
import type { WorkflowLogger } from './context.ts';

// Calls onNotify for each NOTIFY on the channel, and once on subscribing and after every reconnection
// (work enqueued while no one listened is picked up then rather than at the next poll); resolves to an
// unsubscribe function. Polling still runs beside it, so a lost notification only costs one interval.
export async function listenForNotifications(
  db: Database,
  channel: string,
  onNotify: () => void,
  logger: WorkflowLogger,
): Promise<() => Promise<void>> {
  const listener = await listenWithPayload(db, channel, { onPayload: onNotify, onResubscribed: onNotify }, logger);
  onNotify();
  return () => listener.stop();
}
