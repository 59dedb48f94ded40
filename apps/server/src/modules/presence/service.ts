import { z } from 'zod';
import { HUB_SYNC_INTERVAL_MS, type HubServerMessage } from '@clinicrelay/contracts/intake.ts';
import type { Database } from '../../db/client.ts';
import type { Hub, HubConnection } from '../../platform/realtime/hub.ts';
import { findMessageId } from './queries.ts';

// Who has which message open, across every server process. Decision: no table (a migration, and a
// write per open for a notice that is advisory); each process keeps in memory the union of the opens
// announced by all processes over the hub's NOTIFY channel, as entries (process, connection, message,
// user). Deltas travel as open/close/drop; every sync tick each process re-announces its own entries
// (a snapshot, in chunks under the NOTIFY limit), and entries of another process not re-announced
// within REMOTE_TTL_MS are dropped, so a crashed process's opens vanish. A process starting, or
// listening again after a gap, says hello and the others answer with their snapshot; a process
// closing says bye. Two users opening one message at the same instant on two processes may both miss
// the "already open" notice; each still receives the other's openMessage.

const MAX_OPEN_PER_CONNECTION = 20;
const REMOTE_TTL_MS = HUB_SYNC_INTERVAL_MS * 2.5;
const SNAPSHOT_CHUNK_BYTES = 6_000;

const wireEntry = z.object({
  c: z.string().max(64),
  o: z.string().uuid(),
  m: z.string().uuid(),
  u: z.string().uuid(),
  n: z.string().max(200),
  t: z.number(),
});
type WireEntry = z.infer<typeof wireEntry>;
const peerEvent = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('open'), entry: wireEntry }),
  z.object({ kind: z.literal('close'), o: z.string().uuid(), c: z.string().max(64), m: z.string().uuid() }),
  z.object({ kind: z.literal('drop'), o: z.string().uuid(), c: z.string().max(64) }),
  z.object({ kind: z.literal('snapshot'), entries: z.array(wireEntry).max(500) }),
  z.object({ kind: z.literal('hello') }),
  z.object({ kind: z.literal('bye') }),
]);
type PeerEvent = z.infer<typeof peerEvent>;

interface Entry {
  processId: string;
  connectionId: string;
  organizationId: string;
  messageId: string;
  userId: string;
  fullName: string;
  openedAt: number;
  seenAt: number;
}

export function registerPresence(hub: Hub, deps: { db: Database }): void {
  const entries = new Map<string, Entry>();
  const byMessage = new Map<string, Set<Entry>>();
  const byConnection = new Map<string, Set<Entry>>();
  const entryKey = (processId: string, connectionId: string, messageId: string) => `${processId}/${connectionId}/${messageId}`;
  const messageKey = (organizationId: string, messageId: string) => `${organizationId}/${messageId}`;
  const connectionKey = (processId: string, connectionId: string) => `${processId}/${connectionId}`;
  const holders = (organizationId: string, messageId: string) => [...(byMessage.get(messageKey(organizationId, messageId)) ?? [])];
  const publish = (event: PeerEvent) => hub.publish(event);

  // To the organization's other users: the user's own tabs are not "another user".
  const tell = (organizationId: string, message: HubServerMessage & { userId: string }) => {
    for (const connection of hub.connectionsOf(organizationId)) if (connection.userId !== message.userId) connection.send(message);
  };
  const presence = (e: Entry) => ({ messageId: e.messageId, userId: e.userId, fullName: e.fullName });

  // Others hear of a (user, message) pair when it appears and when it disappears, not of every tab.
  function add(entry: Entry) {
    const key = entryKey(entry.processId, entry.connectionId, entry.messageId);
    const existing = entries.get(key);
    if (existing) {
      existing.seenAt = entry.seenAt;
      return;
    }
    const userHadIt = holders(entry.organizationId, entry.messageId).some((e) => e.userId === entry.userId);
    entries.set(key, entry);
    addTo(byMessage, messageKey(entry.organizationId, entry.messageId), entry);
    addTo(byConnection, connectionKey(entry.processId, entry.connectionId), entry);
    if (!userHadIt) tell(entry.organizationId, { type: 'openMessage', ...presence(entry) });
  }

  function remove(entry: Entry) {
    if (!entries.delete(entryKey(entry.processId, entry.connectionId, entry.messageId))) return;
    removeFrom(byMessage, messageKey(entry.organizationId, entry.messageId), entry);
    removeFrom(byConnection, connectionKey(entry.processId, entry.connectionId), entry);
    const userStillHasIt = holders(entry.organizationId, entry.messageId).some((e) => e.userId === entry.userId);
    if (!userStillHasIt) tell(entry.organizationId, { type: 'closeMessage', ...presence(entry) });
  }

  const removeWhere = (match: (e: Entry) => boolean) => [...entries.values()].filter(match).forEach(remove);
  const toWire = (e: Entry): WireEntry => ({ c: e.connectionId, o: e.organizationId, m: e.messageId, u: e.userId, n: e.fullName, t: e.openedAt });
  const fromWire = (processId: string, w: WireEntry): Entry => ({
    processId,
    connectionId: w.c,
    organizationId: w.o,
    messageId: w.m,
    userId: w.u,
    fullName: w.n,
    openedAt: w.t,
    seenAt: Date.now(),
  });

  async function publishSnapshot() {
    let chunk: WireEntry[] = [];
    let bytes = 0;
    for (const entry of entries.values()) {
      if (entry.processId !== hub.processId) continue;
      const wire = toWire(entry);
      const size = JSON.stringify(wire).length + 1;
      if (bytes + size > SNAPSHOT_CHUNK_BYTES) {
        await publish({ kind: 'snapshot', entries: chunk });
        chunk = [];
        bytes = 0;
      }
      chunk.push(wire);
      bytes += size;
    }
    if (chunk.length > 0) await publish({ kind: 'snapshot', entries: chunk });
  }

  hub.onClientMessage('openMessage', async (connection, { messageId }) => {
    const key = entryKey(hub.processId, connection.id, messageId);
    if (!entries.has(key)) {
      if ((byConnection.get(connectionKey(hub.processId, connection.id))?.size ?? 0) >= MAX_OPEN_PER_CONNECTION) return;
      // Another organization's message (or none): ignored, as a 404 would be, without saying which.
      if (!(await findMessageId(deps.db, connection.organizationId, messageId))) return;
      if (!connection.isOpen) return;
    }
    const [first] = holders(connection.organizationId, messageId)
      .filter((e) => e.userId !== connection.userId)
      .sort((a, b) => a.openedAt - b.openedAt);
    if (first) connection.send({ type: 'messageAlreadyOpened', ...presence(first) });
    if (entries.has(key)) return;
    const entry = openedBy(connection, messageId);
    add(entry);
    await publish({ kind: 'open', entry: toWire(entry) });
  });

  const openedBy = (connection: HubConnection, messageId: string): Entry => ({
    processId: hub.processId,
    connectionId: connection.id,
    organizationId: connection.organizationId,
    messageId,
    userId: connection.userId,
    fullName: connection.fullName,
    openedAt: Date.now(),
    seenAt: Date.now(),
  });

  hub.onClientMessage('closeMessage', async (connection, { messageId }) => {
    const entry = entries.get(entryKey(hub.processId, connection.id, messageId));
    if (!entry) return;
    remove(entry);
    await publish({ kind: 'close', o: entry.organizationId, c: entry.connectionId, m: entry.messageId });
  });

  hub.onDisconnect(async (connection) => {
    const open = [...(byConnection.get(connectionKey(hub.processId, connection.id)) ?? [])];
    if (open.length === 0) return;
    open.forEach(remove);
    await publish({ kind: 'drop', o: connection.organizationId, c: connection.id });
  });

  hub.onPeerEvent(async (raw, from) => {
    const parsed = peerEvent.safeParse(raw);
    if (!parsed.success) return;
    const event = parsed.data;
    switch (event.kind) {
      case 'open':
        return add(fromWire(from, event.entry));
      case 'close': {
        const entry = entries.get(entryKey(from, event.c, event.m));
        if (entry?.organizationId === event.o) remove(entry);
        return;
      }
      case 'drop':
        return [...(byConnection.get(connectionKey(from, event.c)) ?? [])].forEach(remove);
      case 'snapshot':
        return event.entries.forEach((w) => add(fromWire(from, w)));
      case 'hello':
        return publishSnapshot();
      case 'bye':
        return removeWhere((e) => e.processId === from);
    }
  });

  hub.onLifecycle('start', () => publish({ kind: 'hello' }));
  hub.onLifecycle('resync', () => publish({ kind: 'hello' }));
  hub.onLifecycle('tick', async () => {
    const expired = Date.now() - REMOTE_TTL_MS;
    removeWhere((e) => e.processId !== hub.processId && e.seenAt < expired);
    await publishSnapshot();
  });
  hub.onLifecycle('stop', () => publish({ kind: 'bye' }));
}

function addTo<T>(map: Map<string, Set<T>>, key: string, value: T) {
  let set = map.get(key);
  if (!set) map.set(key, (set = new Set()));
  set.add(value);
}

function removeFrom<T>(map: Map<string, Set<T>>, key: string, value: T) {
  const set = map.get(key);
  set?.delete(value);
  if (set?.size === 0) map.delete(key);
}
