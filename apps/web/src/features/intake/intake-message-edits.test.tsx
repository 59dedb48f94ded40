import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { releaseMessages, type Message, type Patient } from '@clinicrelay/contracts/messages.ts';
import type { OrganizationSettings } from '@clinicrelay/contracts/organization-settings.ts';
import { demoProfile, json, renderApp, signIn, stubApi, type ApiStubOptions } from '../../app/app-test-harness.tsx';
import { ATTACHMENT_ID, FakeWebSocket, intakeMessage, MESSAGE_ID, organizationSettings } from './intake-test-fixtures.ts';

// Issue 9 on the Intake message view: saving the patient, dates checked where they are typed, the
// warning before unsaved edits are lost, saves that say so, one badge per state, the tab's name, fax
// numbers with dashes, long names that never widen the page, and what Print hands its window.

let uninstall: (() => void) | undefined;
beforeEach(() => {
  FakeWebSocket.instances = [];
  vi.stubGlobal('WebSocket', FakeWebSocket);
});
afterEach(() => uninstall?.());

const base = `/api/messages/${MESSAGE_ID}`;
const SECOND_ID = '66666666-6666-4666-8666-666666666666';

interface Options {
  message?: Partial<Message>;
  features?: string[];
  handlers?: ApiStubOptions['handlers'];
  settings?: Partial<OrganizationSettings>;
}

async function view({ message = {}, features = [], handlers = {}, settings = {} }: Options = {}) {
  signIn();
  const api = stubApi({
    profile: demoProfile({ roles: ['User'] }),
    features,
    handlers: {
      [`GET ${base}`]: () => json(200, intakeMessage(message)),
      [`PUT ${base}/read`]: () => json(200, { message: 'Read.' }),
      [`PUT ${base}/attachments/${ATTACHMENT_ID}/read`]: () => json(200, {}),
      [`PUT ${base}/attachments/${SECOND_ID}/read`]: () => json(200, {}),
      'GET /api/documenttypes': () => json(200, [{ id: 'd-1', name: 'Referral', source: 'System' }, { id: 'd-2', name: 'Lab Report', source: 'System' }]),
      'GET /api/organizationsettings': () => json(200, organizationSettings(settings)),
      ...handlers,
    },
  });
  const app = renderApp(`/intake/${MESSAGE_ID}`);
  uninstall = app.uninstall;
  await screen.findByRole('heading', { level: 1, name: (message.subject ?? 'Referral for Maria Alvarez') || '(no subject)' });
  return { ...api, ...app };
}

const field = (name: string) => screen.getByRole<HTMLInputElement>('textbox', { name });
const savePatient = () => fireEvent.click(screen.getByRole('button', { name: 'Save patient' }));
const type = (name: string, value: string) => fireEvent.change(field(name), { target: { value } });
const leaveField = (name: string) => fireEvent.blur(field(name));
/** What the browser's beforeunload asks: true when the page asks to stay. */
const tabCloseIsHeld = () => {
  const event = new Event('beforeunload', { cancelable: true });
  window.dispatchEvent(event);
  return event.defaultPrevented;
};
const patientSaves = (calls: { key: string; body: unknown }[]) => calls.filter((c) => c.key === `PUT ${base}/patient`);
const echoPatient = (body: unknown) => json(200, intakeMessage({ patient: body as Patient }));

// The server's defaults (export mode, patient export): the names are required once the settings are in.
async function settingsLoaded() {
  await waitFor(() => expect(field('Last name').required).toBe(true));
}

describe('Intake patient: edit and save (PUT /api/messages/{id}/patient)', { timeout: 30_000 }, () => {
  it('saves what Extract patient filled and the user corrected, and says it is saved', async () => {
    let polls = 0;
    const { calls } = await view({
      features: ['PatientExtractionAPI'],
      message: { patient: { patientIds: [{ root: '2.16.840.1.113883.4.1', id: 'MRN-7' }], firstName: null, lastName: null, gender: null, birthDate: null } },
      handlers: {
        [`PUT ${base}/attachments/${ATTACHMENT_ID}/patient/extract`]: () => json(200, { status: 'Processing', patient: null }),
        [`GET ${base}/attachments/${ATTACHMENT_ID}/patient`]: () =>
          (polls += 1) < 2
            ? json(200, { status: 'Processing', patient: null })
            : json(200, { status: 'Completed', patient: { firstName: 'Maria', middleName: 'E', lastName: 'Alvarez', birthDate: '1958-04-12', gender: 'F' } }),
        [`PUT ${base}/patient`]: echoPatient,
      },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Extract patient' }));
    await waitFor(() => expect(field('Last name').value).toBe('Alvarez'), { timeout: 4_000 });
    expect(screen.getByRole('status').textContent).toBe('Unsaved changes');
    expect(screen.getAllByText('extracted')).toHaveLength(5);
    // The extracted values stay editable; one typed over is no longer marked as extracted.
    type('Last name', 'Alvarez-Reyes');
    expect(screen.getAllByText('extracted')).toHaveLength(4);
    type('City', 'Portland');
    savePatient();
    expect(await screen.findByText('Patient details saved.')).toBeTruthy();
    expect(patientSaves(calls)).toHaveLength(1);
    expect(patientSaves(calls)[0]!.body).toMatchObject({
      firstName: 'Maria',
      middleName: 'E',
      lastName: 'Alvarez-Reyes',
      birthDate: '1958-04-12',
      gender: 'F',
      city: 'Portland',
      // What the form does not show is kept.
      patientIds: [{ root: '2.16.840.1.113883.4.1', id: 'MRN-7' }],
    });
    expect(screen.getByRole('status').textContent).toBe('All changes saved');
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Save patient' }).disabled).toBe(true);
  });

  it('shows why the server refused the patient, on the field it names, and keeps the edits', async () => {
    await view({
      message: { patient: { patientIds: [], firstName: 'Maria', lastName: 'Alvarez' } },
      handlers: {
        [`PUT ${base}/patient`]: () =>
          json(400, { message: 'The request is invalid.', modelState: { 'patient.telephone': ['Telephone is not valid.'], patient: ['Patient is locked by an export.'] } }),
      },
    });
    await settingsLoaded();
    // A number the form accepts, which this server still refuses.
    type('Telephone', '5035550143');
    savePatient();
    expect(await screen.findByText('Telephone is not valid.')).toBeTruthy();
    expect(within(screen.getByRole('region', { name: 'Patient' })).getByRole('alert').textContent).toBe('The patient details were not saved. Patient is locked by an export.');
    expect(field('Telephone').value).toBe('5035550143');
    expect(field('Telephone').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByRole('status').textContent).toBe('Unsaved changes');
  });

  it('requires first and last name with patient export, but never birth date or gender in Intake', async () => {
    const { calls } = await view({ message: { patient: { patientIds: [], firstName: 'Maria', lastName: 'Alvarez' } }, handlers: { [`PUT ${base}/patient`]: echoPatient } });
    await settingsLoaded();
    type('Last name', '');
    savePatient();
    expect(await screen.findByText('"Patient Last Name" is required.')).toBeTruthy();
    expect(document.activeElement).toBe(field('Last name'));
    expect(patientSaves(calls)).toHaveLength(0);

    type('Last name', 'Alvarez');
    expect(screen.queryByText('"Patient Last Name" is required.')).toBeNull();
    savePatient();
    await screen.findByText('Patient details saved.');
    expect(patientSaves(calls)[0]!.body).toMatchObject({ lastName: 'Alvarez', birthDate: null, gender: null });
  });

  it('asks for no name when the organization exports without a patient', async () => {
    const { calls } = await view({ settings: { nonPatientExport: true }, handlers: { [`PUT ${base}/patient`]: echoPatient } });
    await waitFor(() => expect(calls.some((c) => c.key === 'GET /api/organizationsettings')).toBe(true));
    type('City', 'Salem');
    savePatient();
    await screen.findByText('Patient details saved.');
    expect(field('Last name').required).toBe(false);
  });

  it('does not clear the gender when its chosen option is picked again', async () => {
    await view();
    const user = userEvent.setup({ delay: null });
    const gender = screen.getByRole<HTMLInputElement>('combobox', { name: 'Gender' });
    await user.click(gender);
    await user.click(await screen.findByRole('option', { name: 'Female' }));
    expect(gender.value).toBe('Female');
    await user.click(gender);
    await user.click(await screen.findByRole('option', { name: 'Female' }));
    expect(gender.value).toBe('Female');
  });
});

describe('Patient telephone (end-user §5 "Field rules": 10 digits, an optional leading 1)', { timeout: 30_000 }, () => {
  it('refuses "12" at the field without calling the server, and saves a real number', async () => {
    const { calls } = await view({ message: { patient: { patientIds: [], firstName: 'Maria', lastName: 'Alvarez' } }, handlers: { [`PUT ${base}/patient`]: echoPatient } });
    await settingsLoaded();
    type('Telephone', '12');
    savePatient();
    expect(await screen.findByText(releaseMessages.patientTelephoneInvalid)).toBeTruthy();
    expect(patientSaves(calls)).toHaveLength(0);

    type('Telephone', '(503) 555-0143');
    expect(screen.queryByText(releaseMessages.patientTelephoneInvalid)).toBeNull();
    savePatient();
    await screen.findByText('Patient details saved.');
    expect(patientSaves(calls)[0]!.body).toMatchObject({ telephone: '(503) 555-0143' });
  });
});

describe('Dates checked when the field is left (end-user §5 formats, two-digit years, not in the future)', { timeout: 30_000 }, () => {
  it('reads a typed birth date, flags one that does not exist or lies ahead, and will not save it', async () => {
    const { calls } = await view({ message: { patient: { patientIds: [], firstName: 'Maria', lastName: 'Alvarez' } }, handlers: { [`PUT ${base}/patient`]: echoPatient } });
    await settingsLoaded();
    type('Birth date', '02/30/2001');
    leaveField('Birth date');
    expect(await screen.findByText('"Patient Birth Date" is invalid.')).toBeTruthy();

    type('Birth date', '1/2/85');
    expect(screen.queryByText('"Patient Birth Date" is invalid.')).toBeNull();
    leaveField('Birth date');
    await waitFor(() => expect(field('Birth date').value).toBe('01/02/1985'));

    type('Birth date', '12/01/2099');
    leaveField('Birth date');
    expect(await screen.findByText('"Patient Birth Date" must be equal or less than today.')).toBeTruthy();
    savePatient();
    await waitFor(() =>
      expect(within(screen.getByRole('region', { name: 'Patient' })).getByRole('alert').textContent).toBe('Correct the highlighted patient fields, then save again.'),
    );
    expect(patientSaves(calls)).toHaveLength(0);

    type('Birth date', '010285');
    leaveField('Birth date');
    await waitFor(() => expect(field('Birth date').value).toBe('01/02/1985'));
    savePatient();
    await screen.findByText('Patient details saved.');
    expect(patientSaves(calls)[0]!.body).toMatchObject({ birthDate: '1985-01-02' });
  });

  it('reads a typed document date the same way, and saves only a date that may be saved', async () => {
    const saved: unknown[] = [];
    const message = intakeMessage();
    const attachment = message.attachments[0]!;
    await view({
      handlers: {
        [`PUT ${base}/attachments`]: (body) => {
          saved.push(body);
          const [change] = body as { attachmentMeta: { documentDate: string } }[];
          return json(200, [{ ...attachment, attachmentMeta: { ...change!.attachmentMeta, patient: null } }]);
        },
      },
    });
    type('Document date', '02/30/2001');
    leaveField('Document date');
    expect(await screen.findByText('Document Date is invalid.')).toBeTruthy();
    type('Document date', '12/01/2099');
    leaveField('Document date');
    expect(await screen.findByText('Document Date must be equal or less than today.')).toBeTruthy();
    expect(saved).toHaveLength(0);

    type('Document date', '1/2/85');
    leaveField('Document date');
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]).toEqual([{ id: ATTACHMENT_ID, attachmentMeta: expect.objectContaining({ documentDate: '1985-01-02', documentDateType: 'selected' }) }]);
    expect(await screen.findByText('Document date saved.')).toBeTruthy();
    await waitFor(() => expect(field('Document date').value).toBe('01/02/1985'));
  });
});

describe('Unsaved edits are not lost silently', { timeout: 30_000 }, () => {
  it('holds the tab open while patient edits are unsaved, and lets it go once they are saved', async () => {
    await view({ message: { patient: { patientIds: [], firstName: 'Maria', lastName: 'Alvarez' } }, handlers: { [`PUT ${base}/patient`]: echoPatient } });
    await settingsLoaded();
    expect(tabCloseIsHeld()).toBe(false);
    type('City', 'Salem');
    expect(tabCloseIsHeld()).toBe(true);
    savePatient();
    await screen.findByText('Patient details saved.');
    expect(tabCloseIsHeld()).toBe(false);
  });

  it('holds the tab open while an attachment field is typed in but not saved', async () => {
    await view({ handlers: { [`PUT ${base}/attachments`]: () => json(500, { message: 'The database is not available.' }) } });
    type('Description', 'Cardiology referral');
    expect(tabCloseIsHeld()).toBe(true);
    // A refused save leaves it unsaved, and says so.
    leaveField('Description');
    expect(await screen.findByText('The description was not saved: The database is not available.')).toBeTruthy();
    expect(tabCloseIsHeld()).toBe(true);
    type('Description', '');
    expect(tabCloseIsHeld()).toBe(false);
  });

  it('asks before leaving the message inside the app with unsaved edits', async () => {
    const { router } = await view({ handlers: { 'POST /api/messages': () => json(200, { items: [], totalCount: 0 }) } });
    type('City', 'Salem');
    fireEvent.click(screen.getByRole('link', { name: '← Intake' }));
    const dialog = await screen.findByRole('dialog', { name: 'Unsaved changes' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Stay' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Unsaved changes' })).toBeNull());
    expect(router.state.location.pathname).toBe(`/intake/${MESSAGE_ID}`);
    expect(field('City').value).toBe('Salem');

    fireEvent.click(screen.getByRole('link', { name: '← Intake' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Unsaved changes' })).getByRole('button', { name: 'Leave' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/intake'));
  });
});

describe('Attachment edits save at once and say so', { timeout: 30_000 }, () => {
  it('confirms a document type change, and says when it fails', async () => {
    let status = 200;
    const message = intakeMessage();
    const { calls } = await view({
      handlers: {
        [`PUT ${base}/attachments`]: (body) => {
          const [change] = body as { attachmentMeta: object }[];
          return status === 200 ? json(200, [{ ...message.attachments[0], attachmentMeta: { ...change!.attachmentMeta, patient: null } }]) : json(500, { message: 'The database is not available.' });
        },
      },
    });
    const user = userEvent.setup({ delay: null });
    const documentType = screen.getByRole<HTMLInputElement>('combobox', { name: 'Document type' });
    await user.click(documentType);
    await user.click(await screen.findByRole('option', { name: 'Referral' }));
    expect(await screen.findByText('Document type saved.')).toBeTruthy();
    await waitFor(() => expect(documentType.value).toBe('Referral'));

    // Picking the chosen type again neither clears it nor saves again.
    await user.click(documentType);
    await user.click(await screen.findByRole('option', { name: 'Referral' }));
    expect(documentType.value).toBe('Referral');
    expect(calls.filter((c) => c.key === `PUT ${base}/attachments`)).toHaveLength(1);

    status = 500;
    await user.click(documentType);
    await user.click(await screen.findByRole('option', { name: 'Lab Report' }));
    expect(await screen.findByText('The document type was not saved: The database is not available.')).toBeTruthy();
    await waitFor(() => expect(documentType.value).toBe('Referral'));
  });
});

describe('What the message view shows', { timeout: 30_000 }, () => {
  it('shows one badge per state, in words a clerk uses', async () => {
    await view({ message: { isProcessed: true, processedType: 'Printed', status: 'Processed' } });
    const state = screen.getByRole('group', { name: 'Message state' });
    expect(within(state).getAllByText(/./).map((e) => e.textContent)).toEqual(['Printed']);
  });

  it('says an unprocessed message is not processed, beside its status', async () => {
    await view({ message: { status: 'AttachmentRead' } });
    const state = screen.getByRole('group', { name: 'Message state' });
    expect(within(state).getAllByText(/./).map((e) => e.textContent)).toEqual(['Read', 'Not processed']);
  });

  it('names the browser tab after the subject', async () => {
    await view();
    await waitFor(() => expect(document.title).toBe('Referral for Maria Alvarez · ClinicRelay'));
  });

  it('shows fax numbers with dashes', async () => {
    await view({ message: { sourceType: 'Fax', fromAddress: '5035550101', toAddress: '5035550202' } });
    const details = screen.getByRole('region', { name: 'Message details' });
    expect(within(details).getByText('503-555-0101')).toBeTruthy();
    expect(within(details).getByText('503-555-0202')).toBeTruthy();
  });

  it('cuts a 300-character attachment name to one line, the full name on hover', async () => {
    const longName = `${'Cardiology-referral-'.repeat(15)}.pdf`;
    const attachment = { ...intakeMessage().attachments[0]!, fileName: longName };
    await view({ message: { attachments: [attachment] } });
    const list = screen.getByRole('list', { name: 'Attachments' });
    const name = within(list).getByText(longName);
    expect(name.getAttribute('data-truncate')).toBe('end');
    Object.defineProperty(name, 'scrollWidth', { configurable: true, value: 2400 });
    Object.defineProperty(name, 'clientWidth', { configurable: true, value: 320 });
    // The first hover measures the cut; the pointer moving on opens the tooltip.
    fireEvent.mouseEnter(name);
    fireEvent.mouseMove(name);
    expect((await screen.findByRole('tooltip')).textContent).toBe(longName);
  });
});

describe('Print', { timeout: 30_000 }, () => {
  it('hands the print window every attachment, the C-CDA marked to print as readable text', async () => {
    const message = intakeMessage();
    const ccd = { ...message.attachments[0]!, id: SECOND_ID, fileName: 'referral-note.xml', mimeType: 'application/xml', previewAvailable: 'NotApplicable' as const };
    const printWindow = { postMessage: vi.fn() };
    const open = vi.spyOn(window, 'open').mockReturnValue(printWindow as unknown as Window);
    await view({ message: { attachments: [message.attachments[0]!, ccd] } });
    fireEvent.click(screen.getByRole('button', { name: 'Print message' }));
    expect(open).toHaveBeenCalledWith('/intake/print', '_blank');
    act(() => {
      window.dispatchEvent(new MessageEvent('message', { data: { type: 'printReady' }, origin: window.location.origin, source: printWindow as unknown as Window }));
    });
    await waitFor(() =>
      expect(printWindow.postMessage).toHaveBeenCalledWith(
        {
          type: 'print',
          token: 'access-1',
          messageId: MESSAGE_ID,
          attachments: [
            { id: ATTACHMENT_ID, fileName: 'referral.pdf', structured: false },
            { id: SECOND_ID, fileName: 'referral-note.xml', structured: true },
          ],
        },
        window.location.origin,
      ),
    );
  });
});
