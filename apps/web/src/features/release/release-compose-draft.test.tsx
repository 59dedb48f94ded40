import userEvent from '@testing-library/user-event';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Message } from '@clinicrelay/contracts/messages.ts';
import { json, renderApp, signIn, stubApi } from '../../app/app-test-harness.tsx';
import { composeLookups, DRAFT_ID, releaseMessage, settings } from './release-test-fixtures.ts';

let uninstall: (() => void) | undefined;
afterEach(() => uninstall?.());

function start(url: string, draft: Partial<Message> = {}, options: { features?: string[]; suppressCoverPage?: boolean } = {}) {
  signIn();
  const saved = releaseMessage({ id: DRAFT_ID, isDraft: true, status: 'Draft', subject: '', toAddress: '', fromAddress: null, ...draft });
  const api = stubApi({
    features: options.features ?? [],
    handlers: {
      ...composeLookups,
      'GET /api/organizationsettings': () => json(200, settings({ suppressCoverPage: options.suppressCoverPage ?? false })),
      'PUT /api/messages': () => json(200, saved),
      [`PUT /api/messages/${DRAFT_ID}`]: () => json(200, saved),
      [`GET /api/messages/${DRAFT_ID}`]: () => json(200, saved),
      [`DELETE /api/messages/${DRAFT_ID}`]: () => json(200, { message: 'Deleted.' }),
      'GET /api/messages?pageStart=1&pageSize=25': () => json(200, { items: [], totalCount: 0 }),
    },
  });
  const app = renderApp(url);
  uninstall = app.uninstall;
  return { ...api, router: app.router };
}

const NEW_URL = '/release/new?returnUrl=%2Fintake&releaseType=rt-1';

async function saveNewDraft() {
  await screen.findByRole('heading', { level: 1, name: 'New message' });
  fireEvent.click(screen.getByRole('button', { name: 'Save draft' }));
  await screen.findByText('The draft was saved successfully.');
}

describe('a new message becomes a draft with its own address (end-user §4 draft lifecycle)', { timeout: 60_000 }, () => {
  it('moves to /release/draft/{id} on its first save, keeping returnUrl and releaseType, in place of /release/new', async () => {
    const { router, calls } = start(NEW_URL);
    await saveNewDraft();
    await waitFor(() => expect(router.state.location.pathname).toBe(`/release/draft/${DRAFT_ID}`));
    expect(router.state.location.search).toBe('?returnUrl=%2Fintake&releaseType=rt-1');
    expect(router.state.historyAction).toBe('REPLACE');
    await screen.findByRole('heading', { level: 1, name: 'Edit draft' });
    // The second save updates the same draft.
    fireEvent.click(screen.getByRole('button', { name: 'Save draft' }));
    await waitFor(() => expect(calls.some((call) => call.key === `PUT /api/messages/${DRAFT_ID}`)).toBe(true));
    expect(calls.filter((call) => call.key === 'PUT /api/messages')).toHaveLength(1);
  });

  it('still asks Save or Discard when leaving that draft with a From address and unsaved changes', async () => {
    const { router } = start(NEW_URL, { fromAddress: 'records@lakeside.direct.example.org' });
    await saveNewDraft();
    await screen.findByRole('heading', { level: 1, name: 'Edit draft' });
    fireEvent.change(screen.getByRole('textbox', { name: 'Subject' }), { target: { value: 'Referral for J. Doe' } });
    void router.navigate('/release');
    const prompt = await screen.findByRole('dialog', { name: 'Save this draft?' });
    fireEvent.click(within(prompt).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Save this draft?' })).toBeNull());
    expect(router.state.location.pathname).toBe(`/release/draft/${DRAFT_ID}`);
  });

  it('still deletes that draft silently when leaving it without a From address', async () => {
    const { router, calls } = start(NEW_URL);
    await saveNewDraft();
    await screen.findByRole('heading', { level: 1, name: 'Edit draft' });
    void router.navigate('/release');
    await waitFor(() => expect(router.state.location.pathname).toBe('/release'));
    expect(calls.some((call) => call.key === `DELETE /api/messages/${DRAFT_ID}`)).toBe(true);
    expect(screen.queryByRole('dialog', { name: 'Save this draft?' })).toBeNull();
  });

  it('starts the fax options from the organization’s suppress settings, with Track Fax Responses under AutomatedCarePlans', async () => {
    start('/release/new', {}, { features: ['AutomatedCarePlans'], suppressCoverPage: true });
    const input = await screen.findByPlaceholderText('Direct address or fax number');
    await userEvent.setup({ delay: null }).type(input, '5035550101{enter}');
    const cover = await screen.findByRole<HTMLInputElement>('checkbox', { name: 'Include cover sheet' });
    expect(cover.checked).toBe(false);
    expect(screen.getByRole<HTMLInputElement>('checkbox', { name: 'Include message body page' }).checked).toBe(true);
    expect(screen.getByRole<HTMLInputElement>('checkbox', { name: 'Include attachment description pages' }).checked).toBe(true);
    expect(screen.getByRole('checkbox', { name: 'Track Fax Responses' })).toBeTruthy();
  });
});
