import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Message } from '@clinicrelay/contracts/messages.ts';
import { json, renderApp, signIn, stubApi, type ApiStubOptions } from '../../app/app-test-harness.tsx';
import { composeLookups, DRAFT_ID, MESSAGE_ID, releaseMessage } from './release-test-fixtures.ts';

// The compose form's fields as they are typed (issue 9, points 2, 9 and 10).

let uninstall: (() => void) | undefined;
afterEach(() => uninstall?.());

function start(url: string, handlers: ApiStubOptions['handlers'] = {}) {
  signIn();
  const api = stubApi({ handlers: { ...composeLookups, ...handlers } });
  uninstall = renderApp(url).uninstall;
  return api;
}

const newDraft = (overrides: Partial<Message> = {}) => releaseMessage({ id: DRAFT_ID, isDraft: true, status: 'Draft', subject: '', toAddress: '', fromAddress: null, ...overrides });

async function typeDate(value: string) {
  const birth = await screen.findByRole<HTMLInputElement>('textbox', { name: 'Birth date' });
  fireEvent.focus(birth);
  fireEvent.change(birth, { target: { value } });
  fireEvent.blur(birth);
  return birth;
}

describe('dates are checked where they are typed (point 2)', { timeout: 60_000 }, () => {
  it('flags a day that does not exist, and a future one, when the field loses focus', async () => {
    start('/release/new');
    const birth = await typeDate('02/30/2001');
    expect(await screen.findByText('"Patient Birth Date" is invalid.')).toBeTruthy();
    expect(birth.getAttribute('aria-invalid')).toBe('true');

    await typeDate('01/01/2999');
    expect(await screen.findByText('"Patient Birth Date" must be equal or less than today.')).toBeTruthy();
  });

  it('reads two-digit years and the other formats of end-user §5, and shows them MM/DD/YYYY', async () => {
    start('/release/new');
    const birth = await typeDate('1/2/85');
    await waitFor(() => expect(birth.value).toBe('01/02/1985'));
    expect(birth.getAttribute('aria-invalid')).not.toBe('true');
    await typeDate('1958-04-12');
    await waitFor(() => expect(birth.value).toBe('04/12/1958'));
    await typeDate('041258');
    await waitFor(() => expect(birth.value).toBe('04/12/1958'));
  });

  it('saves every other edit when the birth date is wrong, leaving the date out and its error shown', async () => {
    const saved = newDraft({ subject: 'Referral for Maria Alvarez', patient: { patientIds: [], firstName: 'Maria' } });
    const { calls } = start('/release/new', { 'PUT /api/messages': () => json(200, saved), [`GET /api/messages/${DRAFT_ID}`]: () => json(200, saved) });
    await screen.findByRole('heading', { level: 1, name: 'New message' });
    fireEvent.change(screen.getByRole('textbox', { name: 'Subject' }), { target: { value: 'Referral for Maria Alvarez' } });
    fireEvent.change(screen.getByRole('textbox', { name: 'First name' }), { target: { value: 'Maria' } });
    await typeDate('02/30/2001');
    fireEvent.click(screen.getByRole('button', { name: 'Save draft' }));

    expect(await screen.findByText('The draft was saved without the birth date, which is not a valid date.')).toBeTruthy();
    expect(calls.find((call) => call.key === 'PUT /api/messages')?.body).toMatchObject({ subject: 'Referral for Maria Alvarez', patient: { firstName: 'Maria', birthDate: null } });
    // The draft now lives at its own URL; the typed date is still there, still flagged, and still unsaved.
    await screen.findByRole('heading', { level: 1, name: 'Edit draft' });
    expect(screen.getByRole<HTMLInputElement>('textbox', { name: 'Subject' }).value).toBe('Referral for Maria Alvarez');
    expect(screen.getByRole<HTMLInputElement>('textbox', { name: 'Birth date' }).value).toBe('02/30/2001');
    expect(screen.getByText('"Patient Birth Date" is invalid.')).toBeTruthy();
  });
});

describe('compose fields (points 9 and 10)', { timeout: 60_000 }, () => {
  it('names the browser tab after the page', async () => {
    start('/release/new');
    await screen.findByRole('heading', { level: 1, name: 'New message' });
    await waitFor(() => expect(document.title).toBe('New message · ClinicRelay'));
  });

  it('preselects the From when the user may send from one address only', async () => {
    start('/release/new', { 'GET /api/documentsources': () => json(200, [{ id: 's-1', address: { fullAddress: '5035550100', type: 'Fax' }, status: 1 }]) });
    const from = await screen.findByRole<HTMLInputElement>('combobox', { name: 'From' });
    expect(from.value).toBe('503-555-0100');
  });

  it('answers a message from the address it arrived at', async () => {
    const received = releaseMessage({ id: MESSAGE_ID, fromAddress: 'intake@riverview.direct.example.org', toAddress: 'records@lakeside.direct.example.org', subject: 'Results' });
    start(`/release/reply/${MESSAGE_ID}`, { [`GET /api/messages/${MESSAGE_ID}`]: () => json(200, received) });
    const from = await screen.findByRole<HTMLInputElement>('combobox', { name: 'From' });
    expect(from.value).toBe('records@lakeside.direct.example.org');
  });

  it('makes one tag per address of a pasted list', async () => {
    start('/release/new');
    const to = await screen.findByRole('combobox', { name: 'To' });
    fireEvent.paste(to, { clipboardData: { getData: () => 'a@x.org; b@y.org, 503-555-0101' } });
    const field = to.closest('.mantine-InputWrapper-root') as HTMLElement;
    await within(field).findByText('a@x.org');
    expect(within(field).getByText('b@y.org')).toBeTruthy();
    expect(within(field).getByText('5035550101')).toBeTruthy();
    // A list with line breaks (copied from a spreadsheet) too, without repeating a tag.
    fireEvent.paste(to, { clipboardData: { getData: () => 'c@z.org\na@x.org' } });
    await within(field).findByText('c@z.org');
    expect(within(field).getAllByText('a@x.org')).toHaveLength(1);
  });

  it('asks the browser to warn before the tab closes with unsaved changes, and not before', async () => {
    start('/release/new');
    await screen.findByRole('heading', { level: 1, name: 'New message' });
    const closing = () => {
      const event = new Event('beforeunload', { cancelable: true });
      window.dispatchEvent(event);
      return event.defaultPrevented;
    };
    expect(closing()).toBe(false);
    fireEvent.change(screen.getByRole('textbox', { name: 'Subject' }), { target: { value: 'Referral' } });
    expect(closing()).toBe(true);
  });
});
