import userEvent from '@testing-library/user-event';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { demoProfile, json, renderApp, signIn, stubApi, type ApiStubOptions } from '../../app/app-test-harness.tsx';
import { composeLookups, DRAFT_ID, installUploadXhr, releaseMessage } from './release-test-fixtures.ts';

const LIST = 'GET /api/messages?pageStart=1&pageSize=25';

let uninstall: (() => void) | undefined;
afterEach(() => uninstall?.());

function start(handlers: ApiStubOptions['handlers'] = {}, orgIsActivated = true) {
  signIn();
  installUploadXhr();
  const api = stubApi({
    profile: demoProfile({ orgIsActivated }),
    handlers: {
      ...composeLookups,
      [LIST]: () => json(200, { items: [], totalCount: 0 }),
      'PUT /api/messages': (body) => json(200, releaseMessage({ id: DRAFT_ID, isDraft: true, ...(body as object) })),
      [`POST /api/messages/${DRAFT_ID}/attachments`]: () => json(200, { id: 'a-1' }),
      [`POST /api/messages/${DRAFT_ID}/send`]: () => json(200, { message: 'The message was sent successfully.' }),
      ...handlers,
    },
  });
  uninstall = renderApp('/release').uninstall;
  return api;
}

async function openModal() {
  fireEvent.click(await screen.findByRole('button', { name: 'Send Non-PHI Fax' }));
  return screen.findByRole('dialog', { name: 'Send non-PHI fax' });
}

async function fill(dialog: HTMLElement) {
  const user = userEvent.setup({ delay: null });
  await user.type(within(dialog).getByRole('textbox', { name: 'To fax number' }), '(503) 555-0202');
  await user.type(within(dialog).getByRole('textbox', { name: 'Subject' }), 'Clinic hours for December');
  await user.click(within(dialog).getByRole('combobox', { name: 'From fax number' }));
  await user.click(await screen.findByRole('option', { name: '503-555-0100' }));
  const input = dialog.querySelector<HTMLInputElement>('input[type="file"]')!;
  await user.upload(input, new File(['%PDF-1.4 hours'], 'hours.pdf', { type: 'application/pdf' }));
}

describe('Send non-PHI fax', { timeout: 30_000 }, () => {
  it('names every missing field and calls nothing', async () => {
    const { calls } = start();
    const dialog = await openModal();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect(await within(dialog).findByText('"To" fax number is required.')).toBeTruthy();
    expect(within(dialog).getByText('"Subject" is required.')).toBeTruthy();
    expect(within(dialog).getByText('"From" fax number is required.')).toBeTruthy();
    expect(within(dialog).getByText('Missing file attachment.')).toBeTruthy();
    expect(calls.some((call) => call.key.startsWith('PUT /api/messages'))).toBe(false);
  });

  it('saves a non-patient draft with the digits, attaches the file, sends it and refreshes the list', async () => {
    const { calls } = start();
    const dialog = await openModal();
    await fill(dialog);
    const listCalls = () => calls.filter((call) => call.key === LIST).length;
    const before = listCalls();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send' }));

    expect(await screen.findByText('The message was sent successfully.')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Send non-PHI fax' })).toBeNull());
    expect(calls.find((call) => call.key === 'PUT /api/messages')?.body).toEqual({
      isNonPatient: true,
      beforeSend: true,
      toAddress: '5035550202',
      fromAddress: '5035550100',
      subject: 'Clinic hours for December',
    });
    const order = calls.map((call) => call.key).filter((key) => key.includes(DRAFT_ID));
    expect(order).toEqual([`POST /api/messages/${DRAFT_ID}/attachments`, `POST /api/messages/${DRAFT_ID}/send`]);
    await waitFor(() => expect(listCalls()).toBeGreaterThan(before));
  });

  it('lists the server’s reasons when the send is refused', async () => {
    start({
      [`POST /api/messages/${DRAFT_ID}/send`]: () =>
        json(400, { message: 'Please fix the following errors before sending.', modelState: { toAddress: ['"To" fax number is required.'] } }),
    });
    const dialog = await openModal();
    await fill(dialog);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect(await within(dialog).findByText('Please fix the following errors before sending.')).toBeTruthy();
    expect(within(dialog).getByText('"To" fax number is required.')).toBeTruthy();
  });

  it('leaves no draft when the file is refused, and sends a fresh one once corrected (issue 9, point 3)', async () => {
    let refuseFile = true;
    const { calls } = start({
      [`POST /api/messages/${DRAFT_ID}/attachments`]: () => (refuseFile ? json(400, { message: 'FileType is not supported for upload' }) : json(200, { id: 'a-1' })),
      [`DELETE /api/messages/${DRAFT_ID}`]: () => json(200, { message: 'Deleted.' }),
    });
    const dialog = await openModal();
    await fill(dialog);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect(await within(dialog).findByText('FileType is not supported for upload')).toBeTruthy();
    await waitFor(() => expect(calls.some((call) => call.key === `DELETE /api/messages/${DRAFT_ID}`)).toBe(true));
    expect(calls.some((call) => call.key === `POST /api/messages/${DRAFT_ID}/send`)).toBe(false);

    refuseFile = false;
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect(await screen.findByText('The message was sent successfully.')).toBeTruthy();
    expect(calls.filter((call) => call.key === 'PUT /api/messages')).toHaveLength(2);
  });

  it('deletes the draft when the send is refused after the file was attached', async () => {
    const { calls } = start({
      [`POST /api/messages/${DRAFT_ID}/send`]: () => json(400, { message: 'Please fix the following errors before sending.', modelState: { fromAddress: ['"From" fax number is required.'] } }),
      [`DELETE /api/messages/${DRAFT_ID}`]: () => json(200, { message: 'Deleted.' }),
    });
    const dialog = await openModal();
    await fill(dialog);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect(await within(dialog).findByText('"From" fax number is required.')).toBeTruthy();
    await waitFor(() => expect(calls.some((call) => call.key === `DELETE /api/messages/${DRAFT_ID}`)).toBe(true));
  });

  it('is offered only once the organization is activated', async () => {
    start({}, false);
    const button = await screen.findByRole('button', { name: 'Send Non-PHI Fax' });
    fireEvent.click(button);
    expect(button.getAttribute('aria-disabled')).toBe('true');
    expect(screen.queryByRole('dialog', { name: 'Send non-PHI fax' })).toBeNull();
  });
});
