import { notifications } from '@mantine/notifications';
import { intakeMessages } from '@clinicrelay/contracts/intake.ts';

// The gear task list (end-user §3 "Gear task", §9): background downloads and prints, at most 10 per
// user, kept in localStorage per user so they survive a reload. A task that was running when the page
// went away cannot finish any more: on load it turns from in progress to error.

export const MAX_GEAR_TASKS = 10;
export const GEAR_NOTIFY_MS = 3_000;

export interface GearTask {
  id: string;
  type: 'file' | 'print';
  /** What the task makes, e.g. "PDF export". */
  content: string;
  /** ISO date-time it started. */
  date: string;
  /** Where the task's message is viewed. */
  href: string;
  message: { subject: string; from: string; to: string };
  worker: { inProgress: boolean; inError: boolean };
}

const storageKey = (userId: string) => `clinicrelay.gearTasks.${userId}`;

function read(userId: string): GearTask[] {
  try {
    const raw = localStorage.getItem(storageKey(userId));
    const parsed = raw ? (JSON.parse(raw) as unknown) : [];
    return Array.isArray(parsed) ? (parsed as GearTask[]).slice(0, MAX_GEAR_TASKS) : [];
  } catch {
    return [];
  }
}

export class GearTaskStore {
  private tasks: readonly GearTask[];
  private readonly listeners = new Set<() => void>();

  constructor(private readonly userId: string) {
    // Loaded once per page: anything still running belonged to the previous page and was interrupted.
    this.tasks = read(userId).map((task) => (task.worker.inProgress ? { ...task, worker: { inProgress: false, inError: true } } : task));
    this.persist();
  }

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  snapshot = (): readonly GearTask[] => this.tasks;

  add(task: Omit<GearTask, 'id' | 'date' | 'worker'>): GearTask {
    const created: GearTask = { ...task, id: crypto.randomUUID(), date: new Date().toISOString(), worker: { inProgress: true, inError: false } };
    this.set([created, ...this.tasks].slice(0, MAX_GEAR_TASKS));
    return created;
  }

  finish(id: string, failed: boolean): void {
    this.set(this.tasks.map((task) => (task.id === id ? { ...task, worker: { inProgress: false, inError: failed } } : task)));
  }

  remove(id: string): void {
    this.set(this.tasks.filter((task) => task.id !== id));
  }

  clearFinished(): void {
    this.set(this.tasks.filter((task) => task.worker.inProgress));
  }

  /** Runs work as a task: notifies for 3 s when it ends, with the export failure text when it fails. */
  async run(task: Omit<GearTask, 'id' | 'date' | 'worker'>, work: () => Promise<void>): Promise<boolean> {
    const created = this.add(task);
    try {
      await work();
      this.finish(created.id, false);
      notifications.show({ message: `${task.content} of "${task.message.subject}" is done.`, color: 'green', autoClose: GEAR_NOTIFY_MS });
      return true;
    } catch (error) {
      console.error(`${task.content} failed`, error);
      this.finish(created.id, true);
      notifications.show({ message: intakeMessages.exportFailed, color: 'red', autoClose: GEAR_NOTIFY_MS });
      return false;
    }
  }

  private set(tasks: GearTask[]): void {
    this.tasks = tasks;
    this.persist();
    for (const listener of this.listeners) listener();
  }

  private persist(): void {
    try {
      localStorage.setItem(storageKey(this.userId), JSON.stringify(this.tasks));
    } catch {
      // Storage full or blocked: the list still works for this page.
    }
  }
}

const stores = new Map<string, GearTaskStore>();

/** The signed-in user's task store, one per page load. */
export function gearTasksOf(userId: string): GearTaskStore {
  let store = stores.get(userId);
  if (!store) {
    store = new GearTaskStore(userId);
    stores.set(userId, store);
  }
  return store;
}
