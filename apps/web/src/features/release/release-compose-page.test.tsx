import userEvent from '@testing-library/user-event';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Message } from '@clinicrelay/contracts/messages.ts';
import { json, renderApp, signIn, stubApi } from '../../app/app-test-harness.tsx';
import { composeLookups, DRAFT_ID, patientFixture, RELEASE_TYPE_ID, releaseMessage } from './release-test-fixtures.ts';

const ORIGINAL_ID = '11111111-1111-4111-8111-111111111111';
// A new, empty draft unless a test says otherwise.
const message = (overrides: Partial<Message> = {}): Message =>
  releaseMessage({ id: DRAFT_ID, subject: '', fromAddress: null, toAddress: '', messageDate: null, isDraft: true, status: 'Draft', isReadyForDeliverySummary: false, ...overrides });
const lookups = composeLookups;

let uninstall: (() => void) | undefined;
afterEach(() => uninstall?.());

function start(url: string) {
  const app = renderApp(url);
  uninstall = app.uninstall;
  return app;
}

const toInput = () => screen.findByPlaceholderText('Direct address or fax number');
// A tag in the To field (the notes under it name the addresses too).
const toTag = async (text: string) => within((await toInput()).closest<HTMLElement>('.mantine-InputWrapper-root')!).getByText(text);

async function addTag(text: string) {
  const input = await toInput();
  await userEvent.setup({ delay: null }).type(input, `${text}{enter}`);
}

// Typing into Mantine's combobox is slow under happy-dom.
describe('release compose (end-user §4 page strategies, §5 release send)', { timeout: 60_000 }, () => {
  it('refuses a To tag that is neither a Direct address nor a fax number', async () => {
    signIn();
    stubApi({ handlers: lookups });
    start('/release/new');
    await screen.findByRole('heading', { level: 1, name: 'New message' });

    await addTag('not an address');
    expect(await screen.findByText('This address is not valid.')).toBeTruthy();

    await userEvent.clear(await toInput());
    await addTag('referrals@riverview.direct.example.org');
    await waitFor(() => expect(screen.queryByText('This address is not valid.')).toBeNull());
    expect(await toTag('referrals@riverview.direct.example.org')).toBeTruthy();
  });

  it('shows the fax options only once a fax number is a recipient', async () => {
    signIn();
    stubApi({ handlers: lookups, features: [] });
    start('/release/new');
    await addTag('referrals@riverview.direct.example.org');
    expect(screen.queryByLabelText('Include cover sheet')).toBeNull();

    await addTag('1 (503) 555-0101');
    expect(await screen.findByLabelText('Include cover sheet')).toBeTruthy();
    expect(screen.getByLabelText('Include message body page')).toBeTruthy();
    expect(screen.getByLabelText('Include attachment description pages')).toBeTruthy();
    // Stored as its ten digits.
    expect(await toTag('5035550101')).toBeTruthy();
    // Track Fax Responses belongs to the AutomatedCarePlans feature, which is off here.
    expect(screen.queryByLabelText('Track Fax Responses')).toBeNull();
  });

  it('replies with RE: in place of an FW: prefix, to the original sender, without a release type', async () => {
    signIn();
    const original = message({
      id: ORIGINAL_ID,
      isDraft: false,
      subject: 'FW: Referral for J. Doe',
      fromAddress: 'intake@riverview.direct.example.org',
      body: 'Please see the attached letter.',
    });
    stubApi({ handlers: { ...lookups, [`GET /api/messages/${ORIGINAL_ID}`]: () => json(200, original) } });
    start(`/release/reply/${ORIGINAL_ID}`);

    const subject = await screen.findByRole<HTMLInputElement>('textbox', { name: 'Subject' });
    expect(subject.value).toBe('RE: Referral for J. Doe');
    expect(await toTag('intake@riverview.direct.example.org')).toBeTruthy();
    const body = screen.getByRole<HTMLTextAreaElement>('textbox', { name: 'Body' });
    expect(body.value).toContain('----- Original message -----');
    expect(body.value).toContain('Please see the attached letter.');
    expect(screen.queryByRole('textbox', { name: 'Release type' })).toBeNull();
  });

  // Updated for issue 9: Send now checks the whole message first, so the draft here is complete but for its To.
  it('saves the draft on Confirm and lists the server’s reasons when sending is refused', async () => {
    signIn();
    const draft = message({ fromAddress: 'records@lakeside.direct.example.org', releaseTypeId: RELEASE_TYPE_ID, patient: patientFixture() });
    const { calls } = stubApi({
      handlers: {
        ...lookups,
        [`GET /api/messages/${DRAFT_ID}`]: () => json(200, draft),
        [`PUT /api/messages/${DRAFT_ID}`]: (body) => json(200, { ...draft, toAddress: (body as { toAddress: string }).toAddress }),
        [`POST /api/messages/${DRAFT_ID}/send`]: () =>
          json(400, {
            message: 'Please fix the following errors before sending.',
            modelState: { fromAddress: ['"From" address is required.'], patient: ['"Patient Details" information is required.'] },
          }),
      },
    });
    start(`/release/draft/${DRAFT_ID}`);
    await addTag('referrals@riverview.direct.example.org');
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));

    const dialog = await screen.findByRole('dialog', { name: 'Review and Send' });
    expect(within(dialog).getByText('referrals@riverview.direct.example.org')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));

    const alert = await screen.findByRole('alert', { name: 'Please fix the following errors before sending.' });
    expect(within(alert).getByText('"From" address is required.')).toBeTruthy();
    expect(within(alert).getByText('"Patient Details" information is required.')).toBeTruthy();
    // The field the server names is marked too.
    expect(screen.getByRole('combobox', { name: 'From' }).getAttribute('aria-invalid')).toBe('true');
    const saved = calls.find((call) => call.key === `PUT /api/messages/${DRAFT_ID}`);
    expect(saved?.body).toMatchObject({ toAddress: 'referrals@riverview.direct.example.org' });
    expect(calls.some((call) => call.key === `POST /api/messages/${DRAFT_ID}/send`)).toBe(true);
  });
});
