import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import websocket, { type WebSocket } from '@fastify/websocket';
import { messages } from '@clinicrelay/contracts/errors.ts';
import { HUB_SYNC_INTERVAL_MS, hubClientMessage, type HubClientMessage, type HubServerMessage } from '@clinicrelay/contracts/intake.ts';
import type { Database } from '../../db/client.ts';
import { users } from '../../db/schema/users.ts';
import { loadSession, type AuthContext } from '../auth/guard.ts';
import { verifyAccessToken } from '../auth/tokens.ts';
import { forbidden } from '../errors.ts';
import type { App } from '../http.ts';
import { MAX_NOTIFY_BYTES, listenWithPayload, notify, type ChannelListener } from './notifications.ts';

// Close codes the web client acts on: 4401 sign in again (or log off when renewal fails), 4403 not
// allowed here, 4409 the session switched organization or user (reconnect); others: reconnect with back-off.
export const HUB_CLOSE = { unauthorized: 4401, forbidden: 4403, sessionChanged: 4409, organizationCancelled: 4402, termsAcceptanceRequired: 4451 } as const;
export const HUB_URL = '/api/hub';
export const HUB_MAX_MESSAGE_BYTES = 4_096;
export const HUB_AUTH_TIMEOUT_MS = 5_000;
const CHANNEL = 'hub';
const HUB_ROLES = ['Administrator', 'User'] as const;
// A client sends a handful of messages a minute; a flood costs a session query each, so it is cut off.
const RATE_WINDOW_MS = 10_000;
const RATE_MAX_MESSAGES = 100;

export interface HubConnection {
  readonly id: string;
  readonly userId: string;
  readonly fullName: string;
  readonly organizationId: string;
  readonly isOpen: boolean;
  send(message: HubServerMessage): void;
}

type ClientMessageType = Exclude<HubClientMessage['type'], 'authenticate'>;
type ClientMessageHandler<T extends ClientMessageType> = (
  connection: HubConnection,
  message: Extract<HubClientMessage, { type: T }>,
) => void | Promise<void>;

// The hub: authenticated WebSocket connections grouped by organization, and a channel between the
// server processes (PostgreSQL LISTEN/NOTIFY) for the modules that keep state across them.
export interface Hub {
  readonly processId: string;
  onClientMessage<T extends ClientMessageType>(type: T, handler: ClientMessageHandler<T>): void;
  onDisconnect(handler: (connection: HubConnection) => void | Promise<void>): void;
  // An event another process published; `from` is its process id. Payloads are untrusted input.
  onPeerEvent(handler: (event: unknown, from: string) => void | Promise<void>): void;
  // start: listening began; resync: listening resumed after a gap (events may have been missed);
  // tick: every sync interval; stop: the app is closing, the database is still open.
  onLifecycle(phase: 'start' | 'resync' | 'tick' | 'stop', handler: () => void | Promise<void>): void;
  // To every other process, in the order published by this one.
  publish(event: object): Promise<void>;
  connectionsOf(organizationId: string): Iterable<HubConnection>;
  // One sync tick now (tests; the timer does the same every HUB_SYNC_INTERVAL_MS).
  syncNow(): Promise<void>;
}

interface Connection extends HubConnection {
  sessionId: string;
  socket: WebSocket;
}

interface HubDeps {
  db: Database;
  signingKey: Uint8Array;
  now: () => Date;
  publicUrl: string | undefined;
}

declare module 'fastify' {
  interface FastifyInstance {
    realtimeHub: Hub;
  }
}

export async function registerHub(app: App, deps: HubDeps): Promise<Hub> {
  const log = app.log.child({ module: 'hub' });
  const processId = randomUUID();
  const byOrganization = new Map<string, Set<Connection>>();
  const pendingSockets = new Set<WebSocket>();
  const messageHandlers = new Map<ClientMessageType, ClientMessageHandler<ClientMessageType>>();
  const disconnectHandlers: ((c: HubConnection) => void | Promise<void>)[] = [];
  const peerHandlers: ((event: unknown, from: string) => void | Promise<void>)[] = [];
  const lifecycle = { start: [], resync: [], tick: [], stop: [] } as Record<'start' | 'resync' | 'tick' | 'stop', (() => void | Promise<void>)[]>;
  let outbox: Promise<void> = Promise.resolve();
  let listener: ChannelListener | undefined;
  let timer: NodeJS.Timeout | undefined;
  let stopping = false;

  const run = async (what: string, fn: () => void | Promise<void>) => {
    try {
      await fn();
    } catch (error) {
      log.error({ err: error }, `hub ${what} failed`);
    }
  };
  const runLifecycle = async (phase: keyof typeof lifecycle) => {
    for (const handler of lifecycle[phase]) await run(phase, handler);
  };

  const hub: Hub = {
    processId,
    onClientMessage(type, handler) {
      messageHandlers.set(type, handler as unknown as ClientMessageHandler<ClientMessageType>);
    },
    onDisconnect: (handler) => void disconnectHandlers.push(handler),
    onPeerEvent: (handler) => void peerHandlers.push(handler),
    onLifecycle: (phase, handler) => void lifecycle[phase].push(handler),
    publish(event) {
      const payload = JSON.stringify({ p: processId, e: event });
      if (Buffer.byteLength(payload) > MAX_NOTIFY_BYTES) {
        log.error({ bytes: Buffer.byteLength(payload) }, 'hub event too large to publish; dropped');
        return Promise.resolve();
      }
      // One chain, so other processes receive this process's events in the order they happened.
      outbox = outbox.then(() => notify(deps.db, CHANNEL, payload)).catch((error: unknown) => log.warn({ err: error }, 'hub publish failed'));
      return outbox;
    },
    connectionsOf: (organizationId) => byOrganization.get(organizationId) ?? [],
    syncNow: () => tick(),
  };

  async function tick() {
    const all = [...byOrganization.values()].flatMap((set) => [...set]);
    // Tabs of one browser share a session: one lookup each.
    const checks = new Map<string, Promise<AuthContext | null | 'unknown'>>();
    await Promise.all(
      all.map(async (connection) => {
        // A database hiccup is not a revocation: the connection waits for the next check.
        const check =
          checks.get(connection.sessionId) ??
          loadSession(deps.db, connection.sessionId, connection.userId, deps.now()).catch(() => 'unknown' as const);
        checks.set(connection.sessionId, check);
        const context = await check;
        if (context !== 'unknown' && (await stillAllowed(connection, context))) connection.send({ type: 'sync' });
      }),
    );
    await runLifecycle('tick');
  }

  // Closes the connection when its session was revoked, lost its role, or changed organization.
  async function stillAllowed(connection: Connection, context: AuthContext | null): Promise<boolean> {
    if (!connection.isOpen) return false;
    const code = !context
      ? HUB_CLOSE.unauthorized
      : !context.roles.some((r) => (HUB_ROLES as readonly string[]).includes(r))
        ? HUB_CLOSE.forbidden
        : context.organizationId !== connection.organizationId
          ? HUB_CLOSE.sessionChanged
          : context.organizationCancelled
            ? HUB_CLOSE.organizationCancelled
            : context.termsAcceptanceRequired
              ? HUB_CLOSE.termsAcceptanceRequired
              : undefined;
    if (code === undefined) return true;
    closeWith(connection.socket, code);
    return false;
  }

  function closeWith(socket: WebSocket, code: number) {
    const reason =
      code === HUB_CLOSE.unauthorized
        ? messages.tokenRevokedOrExpired
        : code === HUB_CLOSE.forbidden
          ? messages.notAuthorized
          : code === HUB_CLOSE.sessionChanged
            ? 'Session changed.'
            : code === HUB_CLOSE.organizationCancelled
              ? messages.organizationCancelled
              : code === HUB_CLOSE.termsAcceptanceRequired
                ? messages.termsAcceptanceRequired
                : '';
    if (socket.readyState === socket.OPEN || socket.readyState === socket.CONNECTING) socket.close(code, reason);
  }

  async function authenticate(token: string): Promise<{ context: AuthContext; organizationId: string; fullName: string } | number> {
    const now = deps.now();
    const claims = verifyAccessToken(deps.signingKey, token, now);
    const context = claims && (await loadSession(deps.db, claims.sessionId, claims.userId, now));
    if (!context) return HUB_CLOSE.unauthorized;
    if (!context.organizationId || !context.roles.some((r) => (HUB_ROLES as readonly string[]).includes(r))) return HUB_CLOSE.forbidden;
    // The same gate as HTTP (guard.ts): a cancelled organization's users get no events (issue 26).
    if (context.organizationCancelled) return HUB_CLOSE.organizationCancelled;
    if (context.termsAcceptanceRequired) return HUB_CLOSE.termsAcceptanceRequired;
    return { context, organizationId: context.organizationId, fullName: await fullNameOf(context.userId, context.userName) };
  }

  async function fullNameOf(userId: string, userName: string): Promise<string> {
    const [row] = await deps.db.select({ firstName: users.firstName, lastName: users.lastName }).from(users).where(eq(users.id, userId));
    // Bounded: it travels in every presence event and in NOTIFY payloads.
    return (`${row?.firstName ?? ''} ${row?.lastName ?? ''}`.trim() || userName).slice(0, 200);
  }

  function accept(socket: WebSocket, request: FastifyRequest) {
    const requestLog: FastifyBaseLogger = request.log;
    let connection: Connection | undefined;
    let queue: Promise<void> = Promise.resolve();
    let windowStart = Date.now();
    let windowCount = 0;
    pendingSockets.add(socket);
    const authTimer = setTimeout(() => closeWith(socket, HUB_CLOSE.unauthorized), HUB_AUTH_TIMEOUT_MS);
    authTimer.unref();

    const handle = async (data: Buffer, isBinary: boolean): Promise<void> => {
      if (socket.readyState !== socket.OPEN) return;
      let parsed: unknown;
      try {
        if (isBinary) throw new Error('binary');
        parsed = JSON.parse(data.toString('utf8'));
      } catch {
        // Not JSON text: a broken or hostile client.
        return closeWith(socket, connection ? 1007 : HUB_CLOSE.unauthorized);
      }
      const message = hubClientMessage.safeParse(parsed);
      if (!connection) {
        if (!message.success || message.data.type !== 'authenticate') return closeWith(socket, HUB_CLOSE.unauthorized);
        const result = await authenticate(message.data.token);
        if (typeof result === 'number') return closeWith(socket, result);
        if (socket.readyState !== socket.OPEN || stopping) return;
        const { context, organizationId, fullName } = result;
        clearTimeout(authTimer);
        pendingSockets.delete(socket);
        connection = {
          id: randomUUID(),
          userId: context.userId,
          sessionId: context.sessionId,
          organizationId,
          fullName,
          socket,
          get isOpen() {
            return socket.readyState === socket.OPEN;
          },
          send(reply: HubServerMessage) {
            if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(reply));
          },
        };
        let set = byOrganization.get(organizationId);
        if (!set) byOrganization.set(organizationId, (set = new Set()));
        set.add(connection);
        connection.send({ type: 'authenticated' });
        return;
      }
      // Unknown or malformed messages from a newer or older client are ignored.
      if (!message.success) return;
      if (message.data.type === 'authenticate') {
        // A renewed token, sent again by the client: it must still be this user in this organization.
        const result = await authenticate(message.data.token);
        if (typeof result === 'number') return closeWith(socket, result);
        if (result.context.userId !== connection.userId || result.organizationId !== connection.organizationId) {
          return closeWith(socket, HUB_CLOSE.sessionChanged);
        }
        connection.sessionId = result.context.sessionId;
        return connection.send({ type: 'authenticated' });
      }
      if (!(await stillAllowed(connection, await loadSession(deps.db, connection.sessionId, connection.userId, deps.now())))) return;
      const handler = messageHandlers.get(message.data.type);
      if (handler) await handler(connection, message.data);
    };

    socket.on('message', (data: Buffer, isBinary: boolean) => {
      const at = Date.now();
      if (at - windowStart > RATE_WINDOW_MS) {
        windowStart = at;
        windowCount = 0;
      }
      if (++windowCount > RATE_MAX_MESSAGES) return closeWith(socket, 1008);
      // One message at a time per connection: authenticate completes before what follows it.
      queue = queue.then(() => handle(data, isBinary)).catch((error: unknown) => {
        requestLog.error({ err: error }, 'hub message failed');
        closeWith(socket, 1011);
      });
    });
    socket.on('close', () => {
      clearTimeout(authTimer);
      pendingSockets.delete(socket);
      const gone = connection;
      if (!gone) return;
      byOrganization.get(gone.organizationId)?.delete(gone);
      if (byOrganization.get(gone.organizationId)?.size === 0) byOrganization.delete(gone.organizationId);
      // After the messages already queued, so an open being handled is not left behind.
      queue = queue.then(async () => {
        if (stopping) return;
        for (const handler of disconnectHandlers) await run('disconnect', () => handler(gone));
      });
    });
  }

  // Cross-site WebSocket hijacking: a browser always sends Origin; it must be this installation.
  const allowedOrigin = deps.publicUrl ? new URL(deps.publicUrl).origin : undefined;
  const originAllowed = (request: FastifyRequest): boolean => {
    const origin = request.headers.origin;
    if (origin === undefined) return true;
    try {
      const url = new URL(origin);
      return allowedOrigin ? url.origin === allowedOrigin : url.host === request.host;
    } catch {
      return false;
    }
  };

  await app.register(websocket, { options: { maxPayload: HUB_MAX_MESSAGE_BYTES } });
  app.decorate('realtimeHub', hub);
  app.route({
    method: 'GET',
    url: HUB_URL,
    websocket: true,
    // The upgrade itself is public: a browser cannot send an Authorization header on a WebSocket and
    // tokens never go in URLs. The first message authenticates with the guard's own checks, for the
    // roles Administrator and User.
    config: { roles: 'public' },
    onRequest: async (request) => {
      if (!originAllowed(request)) throw forbidden();
    },
    handler: (socket, request) => accept(socket, request as unknown as FastifyRequest),
  });

  app.addHook('onReady', async () => {
    listener = await listenWithPayload(
      deps.db,
      CHANNEL,
      {
        onPayload: (payload) => void receive(payload),
        onResubscribed: () => void runLifecycle('resync'),
      },
      log,
    );
    timer = setInterval(() => void tick(), HUB_SYNC_INTERVAL_MS);
    timer.unref();
    await runLifecycle('start');
  });
  app.addHook('onClose', async () => {
    stopping = true;
    clearInterval(timer);
    await runLifecycle('stop');
    await outbox;
    // The database may already be closed (shutdown order, or a test that closes it first).
    await run('unlisten', async () => listener?.stop());
    for (const socket of pendingSockets) socket.terminate();
    for (const set of byOrganization.values()) for (const c of set) c.socket.terminate();
  });

  async function receive(payload: string) {
    if (stopping) return;
    let envelope: unknown;
    try {
      envelope = JSON.parse(payload);
    } catch {
      return;
    }
    if (typeof envelope !== 'object' || envelope === null) return;
    const { p, e } = envelope as { p?: unknown; e?: unknown };
    if (typeof p !== 'string' || p === processId) return;
    for (const handler of peerHandlers) await run('peer event', () => handler(e, p));
  }

  return hub;
}
