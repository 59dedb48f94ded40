import userEvent from '@testing-library/user-event';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Message } from '@clinicrelay/contracts/messages.ts';
import { json, renderApp, signIn, stubApi, type ApiStubOptions } from '../../app/app-test-harness.tsx';
import { attachmentFixture, composeLookups, DRAFT_ID, MESSAGE_ID, patientFixture, RELEASE_TYPE_ID, releaseMessage, releaseTypes } from './release-test-fixtures.ts';

// Send → Review and Send → Confirm (end-user §4 "Draft lifecycle", §5 "Release send"): every problem
// before the review opens, and no draft left behind by a send that is refused.

let uninstall: (() => void) | undefined;
afterEach(() => uninstall?.());

const HEADING = 'Please fix the following errors before sending.';
const ONE_SOURCE = { 'GET /api/documentsources': () => json(200, [{ id: 's-1', address: { fullAddress: 'records@lakeside.direct.example.org', type: 'Direct' }, status: 1 }]) };

function start(url: string, handlers: ApiStubOptions['handlers'] = {}) {
  signIn();
  const api = stubApi({ handlers: { ...composeLookups, 'GET /api/releasetypes': releaseTypes, ...handlers } });
  uninstall = renderApp(url).uninstall;
  return api;
}

const invalid = (element: HTMLElement) => element.getAttribute('aria-invalid') === 'true';

function paste(input: HTMLElement, text: string) {
  fireEvent.paste(input, { clipboardData: { getData: () => text } });
}

// A sent message to forward: its patient and release type carry over, it carries one attachment.
const original = (overrides: Partial<Message> = {}) =>
  releaseMessage({ id: MESSAGE_ID, releaseTypeId: RELEASE_TYPE_ID, patient: patientFixture(), attachments: [attachmentFixture()], ...overrides });

describe('Send checks the whole message first (issue 9, point 1)', { timeout: 60_000 }, () => {
  it('lists every problem at once under the heading, marks each field, and opens no review', async () => {
    const { calls } = start('/release/new');
    await screen.findByRole('heading', { level: 1, name: 'New message' });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));

    const alert = await screen.findByRole('alert', { name: HEADING });
    expect(within(alert).getByText(HEADING)).toBeTruthy();
    const listed = within(alert).getAllByRole('listitem').map((item) => item.textContent);
    expect(listed).toEqual([
      '"To" address is required.',
      '"From" address is required.',
      '"Release Type" is required.',
      '"Patient Details" information is required.',
      '"Patient First Name" is required.',
      '"Patient Last Name" is required.',
      '"Patient Birth Date" is required.',
      '"Patient Gender" is required.',
    ]);
    expect(invalid(screen.getByRole('combobox', { name: 'To' }))).toBe(true);
    expect(invalid(screen.getByRole('combobox', { name: 'From' }))).toBe(true);
    expect(invalid(screen.getByRole('combobox', { name: 'Release type' }))).toBe(true);
    expect(invalid(screen.getByRole('textbox', { name: 'First name' }))).toBe(true);
    expect(invalid(screen.getByRole('textbox', { name: 'Last name' }))).toBe(true);
    expect(invalid(screen.getByRole('textbox', { name: 'Birth date' }))).toBe(true);
    expect(invalid(screen.getByRole('combobox', { name: 'Gender' }))).toBe(true);
    expect(invalid(screen.getByRole('textbox', { name: 'Middle name' }))).toBe(false);
    expect(screen.queryByRole('dialog', { name: 'Review and Send' })).toBeNull();
    expect(calls.some((call) => call.key.startsWith('PUT /api/messages'))).toBe(false);
  });

  it('names a wrong birth date and an attachment without its date in the same list', async () => {
    const draft = releaseMessage({
      id: DRAFT_ID,
      isDraft: true,
      toAddress: '5035550202',
      releaseTypeId: RELEASE_TYPE_ID,
      patient: patientFixture({ birthDate: null }),
      attachments: [attachmentFixture({ fileName: 'scan.pdf', attachmentMeta: { confidentiality: 'Normal' } })],
    });
    start(`/release/draft/${DRAFT_ID}`, { [`GET /api/messages/${DRAFT_ID}`]: () => json(200, draft) });
    const birth = await screen.findByRole('textbox', { name: 'Birth date' });
    fireEvent.change(birth, { target: { value: '13/45/2001' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));

    const alert = await screen.findByRole('alert', { name: HEADING });
    expect(within(alert).getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      "An attachment's information is invalid.",
      '"Document Date" is required for file "scan.pdf"',
      '"Patient Birth Date" is invalid.',
    ]);
  });
});

describe('Review and Send', { timeout: 60_000 }, () => {
  it('counts the attachment a forward carries before its draft exists (point 5)', async () => {
    start(`/release/forward/${MESSAGE_ID}`, { ...ONE_SOURCE, [`GET /api/messages/${MESSAGE_ID}`]: () => json(200, original()) });
    await screen.findByRole('heading', { level: 1, name: 'Forward message' });
    paste(screen.getByRole('combobox', { name: 'To' }), '5035550202');
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));

    const dialog = await screen.findByRole('dialog', { name: 'Review and Send' });
    expect(within(dialog).getByText('Attachments: 1')).toBeTruthy();
    expect(within(dialog).getByText('letter.pdf')).toBeTruthy();
    expect(within(dialog).getByRole<HTMLButtonElement>('button', { name: 'Confirm' }).disabled).toBe(false);
  });

  it('says after sending which recipients cannot be reached yet, and why (point 7)', async () => {
    const waitingReason = 'Direct delivery to addresses outside this installation is not available yet.';
    const sandboxReason = 'This installation uses the sandbox fax provider: no real fax is sent to this number.';
    start(`/release/forward/${MESSAGE_ID}`, {
      ...ONE_SOURCE,
      [`GET /api/messages/${MESSAGE_ID}`]: () => json(200, original()),
      'PUT /api/messages': () => json(200, releaseMessage({ id: DRAFT_ID, isDraft: true })),
      [`POST /api/messages/${DRAFT_ID}/forward`]: () =>
        json(200, {
          message: 'The message was sent, but 1 recipient cannot be reached yet.',
          id: DRAFT_ID,
          waiting: [{ recipient: 'records@elsewhere.example.com', channel: 'Direct', reason: waitingReason }],
          simulated: [{ recipient: '5035550202', channel: 'Fax', reason: sandboxReason }],
        }),
      'GET /api/messages?pageStart=1&pageSize=25': () => json(200, { items: [], totalCount: 0 }),
    });
    await screen.findByRole('heading', { level: 1, name: 'Forward message' });
    paste(screen.getByRole('combobox', { name: 'To' }), 'records@elsewhere.example.com; 5035550202');
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Review and Send' })).getByRole('button', { name: 'Confirm' }));

    expect(await screen.findByText('The message was sent, but 1 recipient cannot be reached yet.')).toBeTruthy();
    const waiting = screen.getByText('records@elsewhere.example.com').closest('li')!;
    expect(waiting.textContent).toContain(waitingReason);
    const sandbox = screen.getByText('503-555-0202').closest('li')!;
    expect(sandbox.textContent).toContain(sandboxReason);
  });
});

describe('a refused send leaves no draft (point 3)', { timeout: 60_000 }, () => {
  const refusal = () =>
    json(400, { message: HEADING, modelState: { fromAddress: ['This address is not valid.'], 'patient.gender': ['"Patient Gender" is required.'] }, draftDiscarded: true });

  it('saves the new message as a send’s first step, lists and marks the server’s reasons, and starts a new draft on the next save', async () => {
    const { calls } = start(`/release/forward/${MESSAGE_ID}`, {
      ...ONE_SOURCE,
      [`GET /api/messages/${MESSAGE_ID}`]: () => json(200, original()),
      'PUT /api/messages': () => json(200, releaseMessage({ id: DRAFT_ID, isDraft: true })),
      [`POST /api/messages/${DRAFT_ID}/forward`]: refusal,
    });
    await screen.findByRole('heading', { level: 1, name: 'Forward message' });
    paste(screen.getByRole('combobox', { name: 'To' }), '5035550202');
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Review and Send' })).getByRole('button', { name: 'Confirm' }));

    const alert = await screen.findByRole('alert', { name: HEADING });
    expect(within(alert).getByText('This address is not valid.')).toBeTruthy();
    expect(within(alert).getByText('"Patient Gender" is required.')).toBeTruthy();
    expect(invalid(screen.getByRole('combobox', { name: 'From' }))).toBe(true);
    expect(calls.find((call) => call.key === 'PUT /api/messages')?.body).toMatchObject({ beforeSend: true, toAddress: '5035550202', attachments: [{ id: attachmentFixture().id }] });
    // That draft is gone (here the server had discarded it already: 404), and the next save makes a new one.
    await waitFor(() => expect(calls.some((call) => call.key === `DELETE /api/messages/${DRAFT_ID}`)).toBe(true));
    fireEvent.click(screen.getByRole('button', { name: 'Save draft' }));
    await waitFor(() => expect(calls.filter((call) => call.key === 'PUT /api/messages')).toHaveLength(2));
    expect(calls.filter((call) => call.key === 'PUT /api/messages')[1]!.body).not.toHaveProperty('beforeSend');
  });

  it('deletes the draft itself when the send fails for another reason', async () => {
    const { calls } = start(`/release/forward/${MESSAGE_ID}`, {
      ...ONE_SOURCE,
      [`GET /api/messages/${MESSAGE_ID}`]: () => json(200, original()),
      'PUT /api/messages': () => json(200, releaseMessage({ id: DRAFT_ID, isDraft: true })),
      [`POST /api/messages/${DRAFT_ID}/forward`]: () => json(500, { message: 'An unexpected error occurred.' }),
      [`DELETE /api/messages/${DRAFT_ID}`]: () => json(200, { message: 'Deleted.' }),
    });
    await screen.findByRole('heading', { level: 1, name: 'Forward message' });
    paste(screen.getByRole('combobox', { name: 'To' }), '5035550202');
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Review and Send' })).getByRole('button', { name: 'Confirm' }));

    expect(await screen.findByText('An unexpected error occurred.')).toBeTruthy();
    await waitFor(() => expect(calls.some((call) => call.key === `DELETE /api/messages/${DRAFT_ID}`)).toBe(true));
  });

  it('keeps a draft the user saved when its send is refused', async () => {
    const draft = releaseMessage({ id: DRAFT_ID, isDraft: true, toAddress: '5035550202', releaseTypeId: RELEASE_TYPE_ID, patient: patientFixture() });
    const { calls } = start(`/release/draft/${DRAFT_ID}`, {
      [`GET /api/messages/${DRAFT_ID}`]: () => json(200, draft),
      [`PUT /api/messages/${DRAFT_ID}`]: () => json(200, draft),
      [`POST /api/messages/${DRAFT_ID}/send`]: refusal,
    });
    await screen.findByRole('heading', { level: 1, name: 'Edit draft' });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Review and Send' })).getByRole('button', { name: 'Confirm' }));
    await screen.findByRole('alert', { name: HEADING });
    expect(screen.getByRole('button', { name: 'Delete draft' })).toBeTruthy();
    expect(calls.some((call) => call.key.startsWith('DELETE'))).toBe(false);
  });
});

describe('required selects (point 8)', { timeout: 60_000 }, () => {
  it('keeps the From when its chosen option is picked again', async () => {
    start('/release/new');
    const from = await screen.findByRole<HTMLInputElement>('combobox', { name: 'From' });
    const user = userEvent.setup({ delay: null });
    await user.click(from);
    await user.click(await screen.findByRole('option', { name: '503-555-0100' }));
    expect(from.value).toBe('503-555-0100');
    await user.click(from);
    await user.click(await screen.findByRole('option', { name: '503-555-0100' }));
    expect(from.value).toBe('503-555-0100');
  });
});
