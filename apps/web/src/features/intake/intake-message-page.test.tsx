import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Message } from '@clinicrelay/contracts/messages.ts';
import type { Profile } from '@clinicrelay/contracts/session.ts';
import { demoProfile, json, renderApp, signIn, stubApi, type ApiStubOptions } from '../../app/app-test-harness.tsx';
import { ATTACHMENT_ID, FakeWebSocket, intakeMessage, MESSAGE_ID } from './intake-test-fixtures.ts';

let uninstall: (() => void) | undefined;
beforeEach(() => {
  FakeWebSocket.instances = [];
  vi.stubGlobal('WebSocket', FakeWebSocket);
});
afterEach(() => uninstall?.());

interface Options {
  message?: Partial<Message>;
  roles?: Profile['roles'];
  features?: string[];
  handlers?: ApiStubOptions['handlers'];
}

const base = `/api/messages/${MESSAGE_ID}`;

async function view({ message = {}, roles = ['User'], features = [], handlers = {} }: Options = {}) {
  signIn();
  const api = stubApi({
    profile: demoProfile({ roles }),
    features,
    handlers: {
      [`GET ${base}`]: () => json(200, intakeMessage(message)),
      [`PUT ${base}/read`]: () => json(200, { message: 'Read.' }),
      [`PUT ${base}/attachments/${ATTACHMENT_ID}/read`]: () => json(200, {}),
      'GET /api/documenttypes': () => json(200, [{ id: 'd-1', name: 'Referral', source: 'System' }]),
      ...handlers,
    },
  });
  const app = renderApp(`/intake/${MESSAGE_ID}`);
  uninstall = app.uninstall;
  await screen.findByRole('heading', { level: 1, name: 'Referral for Maria Alvarez' });
  return { ...api, ...app };
}

async function chooseProcess(type: string) {
  fireEvent.click(screen.getByRole('button', { name: 'Process' }));
  fireEvent.click(await screen.findByRole('menuitem', { name: type }));
}

describe('Intake message view', () => {
  it('marks the message read on open', async () => {
    const { calls } = await view();
    await waitFor(() => expect(calls.some((c) => c.key === `PUT ${base}/read`)).toBe(true));
    await waitFor(() => expect(calls.some((c) => c.key === `PUT ${base}/attachments/${ATTACHMENT_ID}/read`)).toBe(true));
  });

  it('processes the message as Printed with the spec’s texts, and says when it cannot', async () => {
    let status = 200;
    const { calls } = await view({ handlers: { [`PUT ${base}/process`]: () => (status === 200 ? json(200, { message: 'ok' }) : json(500, { message: 'boom' })) } });
    await chooseProcess('Printed');
    expect(await screen.findByText('The message has been successfully processed.')).toBeTruthy();
    expect(calls.find((c) => c.key === `PUT ${base}/process`)?.body).toEqual({ isProcessed: true, processType: 'Printed' });

    status = 500;
    await chooseProcess('PDF Export');
    expect(await screen.findByText('Unable to change status to processed.')).toBeTruthy();
  });

  it('unprocesses a processed message', async () => {
    const { calls } = await view({ message: { isProcessed: true, processedType: 'Printed', status: 'Processed' }, handlers: { [`PUT ${base}/process`]: () => json(200, {}) } });
    await chooseProcess('Unprocess');
    expect(await screen.findByText('The message has been successfully unprocessed.')).toBeTruthy();
    expect(calls.find((c) => c.key === `PUT ${base}/process`)?.body).toEqual({ isProcessed: false, processType: null });
  });

  it('asks to remove or include unselected attachments before processing', async () => {
    const message = intakeMessage();
    const second = { ...message.attachments[0]!, id: '66666666-6666-4666-8666-666666666666', fileName: 'labs.pdf', isSelected: false };
    const { calls } = await view({
      message: { attachments: [message.attachments[0]!, second] },
      handlers: {
        [`PUT ${base}/process`]: () => json(200, {}),
        [`PUT ${base}/attachments`]: () => json(200, [message.attachments[0], { ...second, isSelected: true }]),
      },
    });
    await chooseProcess('Printed');
    const dialog = await screen.findByRole('dialog', { name: 'Confirm Attachments' });
    expect(within(dialog).getByText('labs.pdf')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Include All' }));
    expect(await screen.findByText('The message has been successfully processed.')).toBeTruthy();
    expect(calls.find((c) => c.key === `PUT ${base}/attachments`)?.body).toEqual([{ id: second.id, isSelected: true }]);
  });

  it('hides Reply for a message from Triage, and shows Activity to Administrators only', async () => {
    await view({ message: { sourceType: 'Triage' } });
    expect(screen.queryByRole('link', { name: 'Reply' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Forward' }).getAttribute('href')).toBe(`/release/forward/${MESSAGE_ID}`);
    expect(screen.queryByRole('button', { name: 'Activity' })).toBeNull();
    uninstall?.();
    cleanup();
    await view({ roles: ['Administrator'] });
    expect(screen.getByRole('link', { name: 'Reply' }).getAttribute('href')).toBe(`/release/reply/${MESSAGE_ID}`);
    expect(screen.getByRole('button', { name: 'Activity' })).toBeTruthy();
  });

  it('announces the open message on the hub and shows who else has it open', async () => {
    const { router } = await view();
    const socket = FakeWebSocket.latest();
    await waitFor(() => expect(socket.sent).toContainEqual({ type: 'authenticate', token: 'access-1' }));
    act(() => socket.receive({ type: 'authenticated' }));
    expect(socket.sent).toContainEqual({ type: 'openMessage', messageId: MESSAGE_ID });

    act(() => socket.receive({ type: 'messageAlreadyOpened', messageId: MESSAGE_ID, userId: 'u-2', fullName: 'Dana Reyes' }));
    expect(await screen.findByText('Dana Reyes currently has this message open.')).toBeTruthy();
    act(() => socket.receive({ type: 'openMessage', messageId: MESSAGE_ID, userId: 'u-3', fullName: 'Sam Ortiz' }));
    expect(await screen.findByText('Sam Ortiz has opened this message.')).toBeTruthy();
    // Another message, or the user's own other tab, is not news here.
    act(() => socket.receive({ type: 'openMessage', messageId: '99999999-9999-4999-8999-999999999999', userId: 'u-4', fullName: 'Lee Park' }));
    act(() => socket.receive({ type: 'openMessage', messageId: MESSAGE_ID, userId: 'u-1', fullName: 'Alex Morgan' }));
    expect(screen.queryByText('Lee Park has opened this message.')).toBeNull();
    expect(screen.queryByText('Alex Morgan has opened this message.')).toBeNull();
    act(() => socket.receive({ type: 'closeMessage', messageId: MESSAGE_ID, userId: 'u-3', fullName: 'Sam Ortiz' }));
    await waitFor(() => expect(screen.queryByText('Sam Ortiz has opened this message.')).toBeNull());

    await act(() => router.navigate('/release'));
    expect(socket.sent).toContainEqual({ type: 'closeMessage', messageId: MESSAGE_ID });
  });

  it('fills only the empty patient fields from an extraction and marks them extracted', async () => {
    let polls = 0;
    await view({
      features: ['PatientExtractionAPI'],
      message: { patient: { patientIds: [], firstName: 'Maria', lastName: null, gender: null, birthDate: null } },
      handlers: {
        [`PUT ${base}/attachments/${ATTACHMENT_ID}/patient/extract`]: () => json(200, { status: 'Processing', patient: null }),
        [`GET ${base}/attachments/${ATTACHMENT_ID}/patient`]: () => {
          polls += 1;
          return polls < 2
            ? json(200, { status: 'Processing', patient: null })
            : json(200, { status: 'Completed', patient: { firstName: 'Mary', middleName: 'Luz', lastName: 'Alvarez', birthDate: '1958-04-12', gender: 'F' } });
        },
      },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Extract patient' }));
    await waitFor(() => expect(screen.getByRole<HTMLInputElement>('textbox', { name: 'Last name' }).value).toBe('Alvarez'), { timeout: 4_000 });
    expect(polls).toBe(2);
    expect(screen.getByRole<HTMLInputElement>('textbox', { name: 'First name' }).value).toBe('Maria');
    expect(screen.getByRole<HTMLInputElement>('textbox', { name: 'Middle name' }).value).toBe('Luz');
    expect(screen.getByRole<HTMLInputElement>('textbox', { name: 'Birth date' }).value).toBe('04/12/1958');
    await waitFor(() => expect(screen.getByRole<HTMLInputElement>('combobox', { name: 'Gender' }).value).toBe('Female'));
    // Four fields were empty and got filled; the first name was the user's own and stays unmarked.
    expect(screen.getAllByText('extracted')).toHaveLength(4);
    expect(within(screen.getByRole('textbox', { name: 'First name' }).parentElement!).queryByText('extracted')).toBeNull();
  });

  it('offers no extraction without the PatientExtractionAPI feature', async () => {
    await view();
    await screen.findByRole('textbox', { name: 'First name' });
    expect(screen.queryByRole('button', { name: 'Extract patient' })).toBeNull();
  });
});
