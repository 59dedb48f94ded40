import { fireEvent, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { saveTokens } from '../../api/tokens.ts';
import { SessionContext, type Session } from '../../app/session-context.ts';
import { renderWithProviders } from '../../test/render-with-providers.tsx';
import { fixtureText, itWithFixtures } from '../../test/shared-fixtures.ts';
import { AttachmentViewer } from '../document-viewer/attachment-viewer.tsx';

const MESSAGE_ID = '11111111-1111-4111-8111-111111111111';
const ATTACHMENT_ID = '22222222-2222-4222-8222-222222222222';
const FILE_PATH = `/api/messages/${MESSAGE_ID}/attachments/${ATTACHMENT_ID}`;

const referralNote = fixtureText('cda/referral-note.xml');

function serveFile(text: string) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const url = input instanceof Request ? input.url : String(input);
      if (url === FILE_PATH) return new Response(text, { status: 200, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
      return new Response(JSON.stringify({ message: 'Not found.' }), { status: 404 });
    }),
  );
}

// Only the feature set matters to the viewer.
const sessionWith = (features: string[]) => ({ features: new Set(features) }) as unknown as Session;

function renderStructured(fileName: string, features: string[]) {
  return renderWithProviders(
    <SessionContext value={sessionWith(features)}>
      <AttachmentViewer messageId={MESSAGE_ID} attachment={{ id: ATTACHMENT_ID, fileName, previewAvailable: 'NotApplicable', isRestorable: false }} mode="view" />
    </SessionContext>,
  );
}

describe('XML attachment tabs', () => {
  beforeEach(() => {
    saveTokens({ accessToken: 'access-1', tokenType: 'Bearer', expiresIn: 900, refreshToken: 'refresh-1' });
  });

  itWithFixtures('with IntakeCdaViewer on: the CDA Explorer opens first with the referral note and its sections, the raw text is the second tab', async () => {
    serveFile(referralNote);
    renderStructured('referral-note.xml', ['IntakeCdaViewer']);
    await screen.findByRole('tab', { name: 'CDA Explorer' });
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual(['CDA Explorer', 'Preview']);
    expect(screen.getByRole('tab', { name: 'CDA Explorer' }).getAttribute('aria-selected')).toBe('true');
    const toc = await screen.findByRole('navigation', { name: 'Table of contents' });
    expect(within(toc).getByRole('link', { name: 'REASON FOR REFERRAL' })).toBeTruthy();
    expect(screen.getByRole('heading', { level: 2, name: 'Referral Note' })).toBeTruthy();
    expect(screen.getByText('Eve Betterhalf')).toBeTruthy();
    // The raw text is not shown until asked for.
    expect(screen.queryByLabelText('Contents of referral-note.xml')).toBeNull();

    fireEvent.click(screen.getByRole('tab', { name: 'Preview' }));
    expect((await screen.findByLabelText('Contents of referral-note.xml')).textContent).toBe(referralNote);
    expect(screen.queryByRole('navigation', { name: 'Table of contents' })).toBeNull();

    fireEvent.click(screen.getByRole('tab', { name: 'CDA Explorer' }));
    expect(await screen.findByRole('navigation', { name: 'Table of contents' })).toBeTruthy();
  });

  itWithFixtures('with the feature off: only the Preview tab', async () => {
    serveFile(referralNote);
    renderStructured('referral-note.xml', []);
    await screen.findByLabelText('Contents of referral-note.xml');
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual(['Preview']);
  });

  it('an HL7 v2 message is not XML: its text alone, no tabs', async () => {
    serveFile('MSH|^~\\&|LAB|');
    renderStructured('result.hl7', ['IntakeCdaViewer']);
    await screen.findByLabelText('Contents of result.hl7');
    expect(screen.queryByRole('tab')).toBeNull();
  });

  it('shows why a hostile XML attachment is refused', async () => {
    serveFile('<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><ClinicalDocument xmlns="urn:hl7-org:v3">&e;</ClinicalDocument>');
    renderStructured('evil.xml', ['IntakeCdaViewer']);
    expect(await screen.findByText(/declares a DTD or entities/)).toBeTruthy();
  });
});
