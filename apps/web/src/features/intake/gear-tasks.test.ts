import { notifications } from '@mantine/notifications';
import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, signIn, stubApi } from '../../app/app-test-harness.tsx';
import { GEAR_NOTIFY_MS, GearTaskStore, MAX_GEAR_TASKS } from './gear-tasks.ts';
import { runExport } from './intake-export.ts';
import { ATTACHMENT_ID, intakeMessage, MESSAGE_ID } from './intake-test-fixtures.ts';

const task = (subject: string) => ({ type: 'file' as const, content: 'PDF export', href: `/intake/${MESSAGE_ID}`, message: { subject, from: 'a@x.org', to: 'b@y.org' } });

afterEach(() => localStorage.clear());

describe('gear tasks (end-user §3 "Gear task", §9)', () => {
  it('keeps at most 10 tasks per user, newest first, in that user’s storage', () => {
    const store = new GearTaskStore('u-1');
    for (let i = 1; i <= 12; i += 1) store.add(task(`Message ${i}`));
    expect(store.snapshot()).toHaveLength(MAX_GEAR_TASKS);
    expect(store.snapshot()[0]?.message.subject).toBe('Message 12');
    expect(store.snapshot().at(-1)?.message.subject).toBe('Message 3');
    expect(new GearTaskStore('u-1').snapshot()).toHaveLength(MAX_GEAR_TASKS);
    expect(new GearTaskStore('u-2').snapshot()).toHaveLength(0);
  });

  it('turns a task interrupted by a reload from in progress to error', () => {
    const store = new GearTaskStore('u-1');
    const running = store.add(task('Running'));
    const done = store.add(task('Done'));
    store.finish(done.id, false);
    expect(store.snapshot().find((t) => t.id === running.id)?.worker).toEqual({ inProgress: true, inError: false });

    const reloaded = new GearTaskStore('u-1');
    expect(reloaded.snapshot().find((t) => t.id === running.id)?.worker).toEqual({ inProgress: false, inError: true });
    expect(reloaded.snapshot().find((t) => t.id === done.id)?.worker).toEqual({ inProgress: false, inError: false });
  });

  it('notifies for 3 s when a task ends, with the spec’s text when it fails', async () => {
    const show = vi.spyOn(notifications, 'show');
    const store = new GearTaskStore('u-1');
    expect(await store.run(task('Fine'), async () => {})).toBe(true);
    vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(await store.run(task('Broken'), () => Promise.reject(new Error('boom')))).toBe(false);
    expect(show).toHaveBeenLastCalledWith(expect.objectContaining({ message: 'An error occured while exporting. Please contact support.', autoClose: GEAR_NOTIFY_MS }));
    expect(GEAR_NOTIFY_MS).toBe(3_000);
    expect(store.snapshot().map((t) => t.worker.inError)).toEqual([true, false]);
  });

  it('exports the PDF renditions as real files and marks the message processed as PDFExport', async () => {
    signIn();
    const { calls } = stubApi({
      handlers: {
        [`GET /api/messages/${MESSAGE_ID}/attachments/${ATTACHMENT_ID}`]: () =>
          new Response('%PDF-1.7', { status: 200, headers: { 'Content-Type': 'application/pdf', 'Content-Disposition': 'attachment; filename="referral.pdf"' } }),
        [`PUT /api/messages/${MESSAGE_ID}/process`]: () => json(200, { message: 'ok' }),
      },
    });
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:file'), revokeObjectURL: vi.fn() }));
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    const store = new GearTaskStore('u-1');
    const message = intakeMessage();
    const ok = await runExport({ kind: 'PDFExport', message, attachments: message.attachments, tasks: store, queryClient: new QueryClient() });
    expect(ok).toBe(true);
    expect((click.mock.contexts[0] as HTMLAnchorElement).download).toBe('referral.pdf');
    expect(calls.find((c) => c.key === `PUT /api/messages/${MESSAGE_ID}/process`)?.body).toEqual({ isProcessed: true, processType: 'PDFExport' });
    expect(store.snapshot()[0]).toMatchObject({ type: 'file', content: 'PDF export', message: { subject: message.subject }, worker: { inProgress: false, inError: false } });
  });

  it('fails a structured export of a message without structured files, leaving it unprocessed', async () => {
    signIn();
    const { calls } = stubApi();
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const store = new GearTaskStore('u-1');
    const message = intakeMessage();
    expect(await runExport({ kind: 'StructuredExport', message, attachments: message.attachments, tasks: store, queryClient: new QueryClient() })).toBe(false);
    expect(calls.some((c) => c.key.endsWith('/process'))).toBe(false);
  });
});
