import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../test/render-with-providers.tsx';
import { TermsDocument } from './terms-document.tsx';

describe('TermsDocument', () => {
  it('shows the document in a frame that may open links but never run script nor reach the app', () => {
    renderWithProviders(<TermsDocument html={'<h1>Terms</h1><a href="https://example.org">site</a>'} title="Terms of ClinicRelay" />);
    const frame = screen.getByTitle('Terms of ClinicRelay');
    expect(frame.tagName).toBe('IFRAME');
    const sandbox = frame.getAttribute('sandbox')!.split(' ');
    expect(sandbox).toEqual(['allow-popups', 'allow-popups-to-escape-sandbox']);
    const srcdoc = frame.getAttribute('srcdoc')!;
    expect(srcdoc).toContain('<base target="_blank">');
    expect(srcdoc).toContain('<body><h1>Terms</h1><a href="https://example.org">site</a></body>');
    expect(frame.getAttribute('referrerpolicy')).toBe('no-referrer');
  });

  it('has a default accessible name', () => {
    renderWithProviders(<TermsDocument html="<p>x</p>" />);
    expect(screen.getByTitle('Terms document')).toBeTruthy();
  });
});
