import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Message } from '@clinicrelay/contracts/messages.ts';
import type { Profile } from '@clinicrelay/contracts/session.ts';
import { demoProfile, json, renderApp, signIn, stubApi, type ApiStubOptions } from '../../app/app-test-harness.tsx';
import type { OrganizationSettings } from '@clinicrelay/contracts/organization-settings.ts';
import { ATTACHMENT_ID, FakeWebSocket, intakeMessage, MESSAGE_ID, organizationSettings } from './intake-test-fixtures.ts';

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
  settings?: Partial<OrganizationSettings>;
  planId?: string;
}

const base = `/api/messages/${MESSAGE_ID}`;

async function view({ message = {}, roles = ['User'], features = [], handlers = {}, settings = {}, planId = 'professional' }: Options = {}) {
  signIn();
  const api = stubApi({
    profile: demoProfile({ roles, planId }),
    features,
    handlers: {
      [`GET ${base}`]: () => json(200, intakeMessage(message)),
      [`PUT ${base}/read`]: () => json(200, { message: 'Read.' }),
      [`PUT ${base}/attachments/${ATTACHMENT_ID}/read`]: () => json(200, {}),
      'GET /api/documenttypes': () => json(200, [{ id: 'd-1', name: 'Referral', source: 'System' }]),
      'GET /api/organizationsettings': () => json(200, organizationSettings(settings)),
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

  it('shows the upgrade prompt instead of Forward, Reply and Triage on the Stay Connected plan (end-user §6)', async () => {
    const { router } = await view({ planId: 'stay-connected' });
    fireEvent.click(screen.getByRole('link', { name: 'Forward' }));
    let dialog = await screen.findByRole('dialog', { name: 'Upgrade Subscription Plan' });
    expect(within(dialog).getByText(/Forward and reply is not included/)).toBeTruthy();
    expect(router.state.location.pathname).toBe(`/intake/${MESSAGE_ID}`);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Not Now' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Upgrade Subscription Plan' })).toBeNull());
    fireEvent.click(screen.getByRole('button', { name: 'Triage' }));
    dialog = await screen.findByRole('dialog', { name: 'Upgrade Subscription Plan' });
    expect(within(dialog).getByText(/Triage is not included/)).toBeTruthy();
    expect(screen.queryByRole('dialog', { name: 'Triage message' })).toBeNull();
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

  it('says so when the page names more than one person, and fills what belongs to the patient', async () => {
    const warning = "This page names more than one person; check the patient's details.";
    await view({
      features: ['PatientExtractionAPI'],
      message: { patient: { patientIds: [], firstName: null, lastName: null, gender: null, birthDate: null } },
      handlers: {
        [`PUT ${base}/attachments/${ATTACHMENT_ID}/patient/extract`]: () => json(200, { status: 'Processing', patient: null, warning: null }),
        [`GET ${base}/attachments/${ATTACHMENT_ID}/patient`]: () =>
          json(200, { status: 'Completed', patient: { firstName: 'Maria', middleName: null, lastName: 'Alvarez', birthDate: '1958-04-12', gender: 'F' }, warning }),
      },
    });
    await screen.findByRole('textbox', { name: 'First name' });
    expect(screen.queryByText(warning)).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Extract patient' }));
    expect((await screen.findByText(warning)).closest('[role="alert"]')?.textContent).toContain('Check the patient');
    expect(screen.getByRole<HTMLInputElement>('textbox', { name: 'Last name' }).value).toBe('Alvarez');
    expect(screen.getByRole<HTMLInputElement>('textbox', { name: 'Middle name' }).value).toBe('');
  });

  it('offers no extraction without the PatientExtractionAPI feature', async () => {
    await view();
    await screen.findByRole('textbox', { name: 'First name' });
    expect(screen.queryByRole('button', { name: 'Extract patient' })).toBeNull();
  });
});

const field = (name: string) => screen.getByRole<HTMLInputElement>('textbox', { name });
const PATIENT_FIELDS = ['First name', 'Middle name', 'Last name', 'Birth date', 'Telephone', 'Street address', 'City', 'State', 'Postal code'];

describe('Intake message view: interoperability settings (end-user §4 "Page strategies")', () => {
  it('disables the patient and attachment fields in print export mode, and says why', async () => {
    await view({ settings: { exportMode: 'Print', exportOption: 'PatientFolder', exportVisitDirectory: true } });
    expect(await screen.findByText('Your organization is in print export mode: patient and attachment fields are read-only.')).toBeTruthy();
    for (const name of [...PATIENT_FIELDS, 'Visit ID', 'Visit date']) expect(field(name).disabled, name).toBe(true);
    expect(screen.getByRole<HTMLInputElement>('combobox', { name: 'Gender' }).disabled).toBe(true);
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Save patient' }).disabled).toBe(true);
    // The attachment is selected, so only print mode keeps its fields read-only.
    for (const name of ['Name', 'Document date', 'Description']) expect(field(name).disabled, name).toBe(true);
    expect(screen.getByRole<HTMLInputElement>('combobox', { name: 'Document type' }).disabled).toBe(true);
    // Choosing what to print stays possible.
    expect(screen.getByRole<HTMLInputElement>('checkbox', { name: 'Include referral.pdf' }).disabled).toBe(false);
  });

  it('enables the patient and attachment fields in export mode, and saves an attachment’s name, type and date', async () => {
    const saved: unknown[] = [];
    const message = intakeMessage();
    await view({ handlers: { [`PUT ${base}/attachments`]: (body) => (saved.push(body), json(200, message.attachments)) } });
    await waitFor(() => expect(field('First name').disabled).toBe(false));
    expect(screen.queryByText(/print export mode/)).toBeNull();
    for (const name of ['Name', 'Document date', 'Description']) expect(field(name).disabled, name).toBe(false);

    fireEvent.change(field('Name'), { target: { value: 'Referral letter.pdf' } });
    fireEvent.blur(field('Name'));
    fireEvent.change(field('Document date'), { target: { value: '11/19/2026' } });
    fireEvent.blur(field('Document date'));
    await waitFor(() => expect(saved).toHaveLength(2));
    expect(saved[0]).toEqual([{ id: ATTACHMENT_ID, fileName: 'Referral letter.pdf' }]);
    expect(saved[1]).toEqual([{ id: ATTACHMENT_ID, attachmentMeta: expect.objectContaining({ documentDate: '2026-11-19', documentDateType: 'selected' }) }]);

    fireEvent.change(field('Document date'), { target: { value: '19.11.2026' } });
    fireEvent.blur(field('Document date'));
    expect(await screen.findByText('Document Date is invalid.')).toBeTruthy();
    expect(saved).toHaveLength(2);
  });

  it('enables the visit fields only for a patient-folder export with a visit directory', async () => {
    for (const settings of [{}, { exportOption: 'PatientFolder', exportVisitDirectory: false }, { exportOption: 'SingleFolder', exportVisitDirectory: true }] as const) {
      await view({ settings });
      await waitFor(() => expect(screen.getByText('Visit fields are used only when your organization exports into a folder per patient and visit.')).toBeTruthy());
      expect(field('Visit ID').disabled, JSON.stringify(settings)).toBe(true);
      expect(field('Visit date').disabled).toBe(true);
      expect(field('Last name').disabled).toBe(false);
      uninstall?.();
      cleanup();
    }

    let savedPatient: unknown;
    await view({
      settings: { exportOption: 'PatientFolder', exportVisitDirectory: true },
      message: { patient: { patientIds: [], firstName: 'Maria', lastName: 'Alvarez', visitId: 'V-1', visitDate: '2026-11-01' } },
      handlers: { [`PUT ${base}/patient`]: (body) => ((savedPatient = body), json(200, intakeMessage({ patient: body as never }))) },
    });
    await waitFor(() => expect(field('Visit ID').disabled).toBe(false));
    expect(field('Visit ID').value).toBe('V-1');
    expect(field('Visit date').value).toBe('11/01/2026');
    expect(screen.queryByText(/Visit fields are used only/)).toBeNull();

    fireEvent.change(field('Visit date'), { target: { value: '11/31/2026' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save patient' }));
    expect(await screen.findByText('"Patient Visit Date" is invalid.')).toBeTruthy();
    expect(savedPatient).toBeUndefined();
    fireEvent.change(field('Visit ID'), { target: { value: 'V-2' } });
    fireEvent.change(field('Visit date'), { target: { value: '11/02/2026' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save patient' }));
    await waitFor(() => expect(savedPatient).toMatchObject({ firstName: 'Maria', lastName: 'Alvarez', visitId: 'V-2', visitDate: '2026-11-02' }));
  });
});

const usersUrl = (search?: string) => {
  const params = new URLSearchParams({ page: '1', pageSize: '100', sort: JSON.stringify({ col: 'lastName', dir: 'asc' }) });
  if (search) params.set('search', search);
  return `GET /api/users?${params.toString()}`;
};
const member = (id: string, firstName: string, lastName: string) => ({ id, userName: `${firstName.toLowerCase()}@lakeside.example`, firstName, lastName, fullName: `${firstName} ${lastName}`, roles: ['User'] });
const DANA = '77777777-7777-4777-8777-777777777777';
const SOURCES = { 'GET /api/documentsources': () => json(200, [{ id: 's-2', address: { fullAddress: 'billing@riverview.direct.example.org', type: 'Direct' }, status: 1 }]) };

describe('Triage modal', { timeout: 30_000 }, () => {
  it('lets an Administrator pick a user from the organization’s members, searched on the server', async () => {
    const { calls } = await view({
      roles: ['Administrator'],
      handlers: {
        ...SOURCES,
        [usersUrl()]: () => json(200, { items: [member('88888888-8888-4888-8888-888888888888', 'Sam', 'Ortiz'), member(DANA, 'Dana', 'Reyes')], totalCount: 2 }),
        [usersUrl('rey')]: () => json(200, { items: [member(DANA, 'Dana', 'Reyes')], totalCount: 1 }),
        [`POST ${base}/triage`]: () => json(200, { message: 'ok' }),
      },
    });
    const user = userEvent.setup({ delay: null });
    fireEvent.click(screen.getByRole('button', { name: 'Triage' }));
    const dialog = await screen.findByRole('dialog', { name: 'Triage message' });
    await user.click(within(dialog).getByRole('combobox', { name: 'User' }));
    expect(await screen.findByRole('option', { name: 'Sam Ortiz (sam@lakeside.example)' })).toBeTruthy();
    await user.type(within(dialog).getByRole('combobox', { name: 'User' }), 'rey');
    await waitFor(() => expect(calls.some((c) => c.key === usersUrl('rey'))).toBe(true));
    await waitFor(() => expect(screen.queryByRole('option', { name: 'Sam Ortiz (sam@lakeside.example)' })).toBeNull());
    await user.click(await screen.findByRole('option', { name: 'Dana Reyes (dana@lakeside.example)' }));
    await user.click(within(dialog).getByRole('button', { name: 'Triage' }));
    await waitFor(() => expect(calls.find((c) => c.key === `POST ${base}/triage`)?.body).toEqual({ documentSourceId: null, userId: DANA }));
  });

  it('keeps a User to addresses: no user list, and the modal says so', async () => {
    const { calls } = await view({ handlers: { ...SOURCES, [`POST ${base}/triage`]: () => json(200, { message: 'ok' }) } });
    const user = userEvent.setup({ delay: null });
    fireEvent.click(screen.getByRole('button', { name: 'Triage' }));
    const dialog = await screen.findByRole('dialog', { name: 'Triage message' });
    expect(within(dialog).getByText('Only administrators can triage a message to a user; the list of users is not available to you.')).toBeTruthy();
    expect(within(dialog).queryByRole('combobox', { name: 'User' })).toBeNull();

    await user.click(within(dialog).getByRole('button', { name: 'Triage' }));
    expect(await within(dialog).findByText('Choose an address or a user to triage the message to.')).toBeTruthy();
    await user.click(within(dialog).getByRole('combobox', { name: 'Address' }));
    await user.click(await screen.findByRole('option', { name: 'billing@riverview.direct.example.org (Direct)' }));
    await user.click(within(dialog).getByRole('button', { name: 'Triage' }));
    await waitFor(() => expect(calls.find((c) => c.key === `POST ${base}/triage`)?.body).toEqual({ documentSourceId: 's-2', userId: null }));
    expect(calls.some((c) => c.key.startsWith('GET /api/users?'))).toBe(false);
  });
});
