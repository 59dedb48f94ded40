import { useEffect, useEffectEvent, useSyncExternalStore } from 'react';
import { hubServerMessage, type HubClientMessage, type HubServerMessage } from '@clinicrelay/contracts/intake.ts';
import { ensureFreshToken } from '../../api/client.ts';
import { readTokens } from '../../api/tokens.ts';

// The realtime hub at /api/hub (end-user §7 "Realtime"): one WebSocket per tab, shared by the Intake
// list and message view. The access token goes in the first message, never in the URL.

export interface PresenceEntry {
  userId: string;
  fullName: string;
}

type Listener = (event: HubServerMessage) => void;

const RECONNECT_MIN_MS = 1_000;
const RECONNECT_MAX_MS = 30_000;
// How often the tab checks whether its access token was renewed (here or in another tab).
const TOKEN_CHECK_MS = 10_000;

export class IntakeHub {
  private socket: WebSocket | null = null;
  private authenticated = false;
  private sentToken: string | null = null;
  private attempts = 0;
  private reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  private tokenTimer: ReturnType<typeof setInterval> | null = null;
  private stopped = true;
  private readonly listeners = new Set<Listener>();
  private readonly stateListeners = new Set<() => void>();
  /** Messages this tab has open: announced again after a reconnect. */
  private readonly openHere = new Set<string>();
  /** Who else has which message open, as the hub has told this tab. */
  private presenceSnapshot: ReadonlyMap<string, readonly PresenceEntry[]> = new Map();

  constructor(private readonly url: () => string) {}

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.connect();
    this.tokenTimer = setInterval(() => this.reauthenticateIfRenewed(), TOKEN_CHECK_MS);
    window.addEventListener('storage', this.onStorage);
  }

  stop(): void {
    this.stopped = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    if (this.tokenTimer) clearInterval(this.tokenTimer);
    this.reconnectTimer = null;
    this.tokenTimer = null;
    window.removeEventListener('storage', this.onStorage);
    const socket = this.socket;
    this.socket = null;
    this.authenticated = false;
    socket?.close();
    this.setPresence(new Map());
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  subscribeState = (listener: () => void): (() => void) => {
    this.stateListeners.add(listener);
    return () => this.stateListeners.delete(listener);
  };

  presence = (): ReadonlyMap<string, readonly PresenceEntry[]> => this.presenceSnapshot;

  openMessage(messageId: string): void {
    this.openHere.add(messageId);
    this.send({ type: 'openMessage', messageId });
  }

  closeMessage(messageId: string): void {
    this.openHere.delete(messageId);
    this.send({ type: 'closeMessage', messageId });
  }

  private readonly onStorage = (event: StorageEvent) => {
    if (event.key === null || event.key.startsWith('clinicrelay.')) this.reauthenticateIfRenewed();
  };

  private connect(): void {
    if (this.stopped) return;
    let socket: WebSocket;
    try {
      socket = new WebSocket(this.url());
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.socket = socket;
    this.authenticated = false;
    socket.onopen = () => void this.authenticate(socket);
    socket.onmessage = (event: MessageEvent) => this.receive(event.data);
    socket.onclose = () => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.authenticated = false;
      this.setPresence(new Map());
      this.scheduleReconnect();
    };
  }

  private async authenticate(socket: WebSocket): Promise<void> {
    await ensureFreshToken();
    const token = readTokens().accessToken;
    if (token === null || this.socket !== socket || socket.readyState !== WebSocket.OPEN) return;
    this.sentToken = token;
    socket.send(JSON.stringify({ type: 'authenticate', token } satisfies HubClientMessage));
  }

  private reauthenticateIfRenewed(): void {
    const token = readTokens().accessToken;
    if (this.socket && this.socket.readyState === WebSocket.OPEN && token !== null && token !== this.sentToken) void this.authenticate(this.socket);
  }

  private scheduleReconnect(): void {
    if (this.stopped || this.reconnectTimer) return;
    // Exponential backoff with jitter, so a restarted server is not hit by every tab at once.
    const delay = Math.min(RECONNECT_MAX_MS, RECONNECT_MIN_MS * 2 ** this.attempts) * (0.75 + Math.random() * 0.5);
    this.attempts += 1;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      this.connect();
    }, delay);
  }

  private send(message: HubClientMessage): void {
    // Before authentication the open set is announced by the 'authenticated' handler.
    if (this.socket && this.authenticated && this.socket.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(message));
  }

  private receive(data: unknown): void {
    if (typeof data !== 'string') return;
    let parsed: ReturnType<typeof hubServerMessage.safeParse>;
    try {
      parsed = hubServerMessage.safeParse(JSON.parse(data));
    } catch {
      return;
    }
    if (!parsed.success) return;
    const event = parsed.data;
    if (event.type === 'authenticated') {
      const first = !this.authenticated;
      this.authenticated = true;
      this.attempts = 0;
      if (first) for (const messageId of this.openHere) this.send({ type: 'openMessage', messageId });
    } else if (event.type === 'openMessage' || event.type === 'messageAlreadyOpened') {
      const current = (this.presenceSnapshot.get(event.messageId) ?? []).filter((p) => p.userId !== event.userId);
      this.setPresence(new Map(this.presenceSnapshot).set(event.messageId, [...current, { userId: event.userId, fullName: event.fullName }]));
    } else if (event.type === 'closeMessage') {
      const next = new Map(this.presenceSnapshot);
      const rest = (next.get(event.messageId) ?? []).filter((p) => p.userId !== event.userId);
      if (rest.length > 0) next.set(event.messageId, rest);
      else next.delete(event.messageId);
      this.setPresence(next);
    }
    for (const listener of this.listeners) listener(event);
  }

  private setPresence(next: ReadonlyMap<string, readonly PresenceEntry[]>): void {
    if (next.size === 0 && this.presenceSnapshot.size === 0) return;
    this.presenceSnapshot = next;
    for (const listener of this.stateListeners) listener();
  }
}

const hubUrl = () => `${window.location.protocol === 'https:' ? 'wss' : 'ws'}://${window.location.host}/api/hub`;

let hub: IntakeHub | null = null;
let users = 0;

/** The tab's hub, connected while any component uses it (a page change keeps the same socket). */
function acquireHub(): IntakeHub {
  hub ??= new IntakeHub(hubUrl);
  users += 1;
  hub.start();
  return hub;
}

function releaseHub(): void {
  users -= 1;
  // Deferred: moving from the list to a message releases and acquires within one commit.
  setTimeout(() => {
    if (users === 0) hub?.stop();
  }, 0);
}

/** Subscribes to the hub's events while mounted; returns the hub. */
export function useIntakeHub(onEvent?: Listener): IntakeHub {
  const handle = useEffectEvent((event: HubServerMessage) => onEvent?.(event));
  const current = (hub ??= new IntakeHub(hubUrl));
  useEffect(() => {
    const acquired = acquireHub();
    const unsubscribe = acquired.subscribe((event) => handle(event));
    return () => {
      unsubscribe();
      releaseHub();
    };
  }, []);
  return current;
}

/** Who else has which message open. */
export function usePresence(target: IntakeHub): ReadonlyMap<string, readonly PresenceEntry[]> {
  return useSyncExternalStore(target.subscribeState, target.presence, target.presence);
}
