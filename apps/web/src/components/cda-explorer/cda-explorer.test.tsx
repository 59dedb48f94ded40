import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../test/render-with-providers.tsx';
import { fixtureFiles, fixtureText, hasFixtures, itWithFixtures } from '../../test/shared-fixtures.ts';
import { CdaExplorer } from './cda-explorer.tsx';
import { cdaErrors, parseCda, type CdaSection } from './parse-cda.ts';

// PDF.js needs a real canvas: a fake document that only checks it was handed a PDF.
vi.mock('../document-viewer/pdf-document.ts', () => ({
  isRenderCancelled: () => false,
  openPdf: async (bytes: Uint8Array) => {
    if (String.fromCharCode(...bytes.subarray(0, 5)) !== '%PDF-') throw new Error('not a PDF');
    return { pageCount: 2, renderPage: () => ({ promise: Promise.resolve({ scale: 1 }), cancel: () => {} }), destroy: () => {} };
  },
}));

// The C-CDA examples are shared fixtures outside the project: read by path, never copied in.
// Without the fixtures, one skipped row stands for them in the report.
const fixtures = hasFixtures ? fixtureFiles('cda').filter((f) => f.endsWith('.xml')) : ['each fixture [needs ../shared/fixtures]'];
const fixture = (name: string) => fixtureText(`cda/${name}`);

const allSections = (sections: CdaSection[]): CdaSection[] => sections.flatMap((s) => [s, ...allSections(s.sections)]);
const squash = (value: string) => value.replace(/\s+/g, ' ').trim();

const cda = (sectionXml: string) =>
  `<ClinicalDocument xmlns="urn:hl7-org:v3"><title>Test note</title><recordTarget><patientRole><patient><name><given>Ann</given><family>Test</family></name></patient></patientRole></recordTarget>` +
  `<component><structuredBody><component><section><title>Plan</title><text>${sectionXml}</text></section></component></structuredBody></component></ClinicalDocument>`;

describe('CdaExplorer', () => {
  itWithFixtures('finds the fixtures', () => {
    expect(fixtures).toEqual(expect.arrayContaining(['ccd-1.xml', 'referral-note.xml', 'unstructured-embedded-pdf.xml']));
  });

  it.skipIf(!hasFixtures).each(fixtures)('renders %s: patient, table of contents and every section', (file) => {
    const xml = fixture(file);
    const { header, sections } = parseCda(xml);
    const { container } = renderWithProviders(<CdaExplorer xml={xml} fileName={file} />);

    expect(screen.getByRole('heading', { level: 2, name: header.title })).toBeTruthy();
    const headerCard = screen.getByRole('region', { name: 'Document header' });
    const patientName = header.patients[0]?.name?.text ?? 'no patient name';
    expect(squash(headerCard.textContent ?? '')).toContain(patientName);
    expect(screen.queryByText('Unable to show this document')).toBeNull();

    const every = allSections(sections);
    if (every.length > 0) {
      const toc = screen.getByRole('navigation', { name: 'Table of contents' });
      const links = within(toc).getAllByRole('link');
      expect(links.map((l) => squash(l.textContent ?? ''))).toEqual(every.map((s) => squash(s.title)));
      for (const section of every) {
        expect(screen.getAllByRole('heading', { name: squash(section.title) }).length).toBeGreaterThan(0);
      }
      // Each link points at its section's heading, whose id comes from its position.
      for (const link of links) {
        const id = decodeURIComponent(link.getAttribute('href')!.slice(1));
        expect(squash(document.getElementById(id)?.textContent ?? '')).toBe(squash(link.textContent ?? ''));
        expect(id).toMatch(/-cda-section-\d+(-\d+)*$/);
      }
    }
    // Nothing active from the document reaches the page.
    expect(container.querySelector('script, iframe, object, embed, img, [onclick], [onerror], [onload]')).toBeNull();
    for (const anchor of Array.from(container.querySelectorAll('a[href]'))) {
      const href = anchor.getAttribute('href')!;
      if (!href.startsWith('#')) expect(href, file).toMatch(/^https:/);
    }
  });

  itWithFixtures('shows the referral note sections in the table of contents, and a link scrolls to its section', () => {
    const scrolled: string[] = [];
    vi.spyOn(Element.prototype, 'scrollIntoView').mockImplementation(function (this: Element) {
      scrolled.push(this.textContent ?? '');
    });
    renderWithProviders(<CdaExplorer xml={fixture('referral-note.xml')} />);
    const toc = screen.getByRole('navigation', { name: 'Table of contents' });
    for (const title of ['ALLERGIES AND ADVERSE REACTIONS', 'REASON FOR REFERRAL', 'MEDICATIONS', 'VITAL SIGNS']) {
      expect(within(toc).getByRole('link', { name: title })).toBeTruthy();
    }
    fireEvent.click(within(toc).getByRole('link', { name: 'REASON FOR REFERRAL' }));
    expect(scrolled).toEqual(['REASON FOR REFERRAL']);
    expect(document.activeElement?.textContent).toBe('REASON FOR REFERRAL');
    expect(screen.getByText('05/01/1975')).toBeTruthy();
    expect(screen.getByText('Female')).toBeTruthy();
  });

  it('refuses a hostile document (DOCTYPE with entities) and says why', () => {
    const hostile = `<?xml version="1.0"?><!DOCTYPE ClinicalDocument [<!ENTITY xxe SYSTEM "file:///etc/passwd"><!ENTITY a "aaaaaaaaaa">]><ClinicalDocument xmlns="urn:hl7-org:v3"><title>&xxe;&a;</title></ClinicalDocument>`;
    renderWithProviders(<CdaExplorer xml={hostile} />);
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('Unable to show this document');
    expect(alert.textContent).toContain(cdaErrors.hostile);
    expect(screen.queryByRole('navigation', { name: 'Table of contents' })).toBeNull();
  });

  it('shows that a file is not well-formed XML', () => {
    renderWithProviders(<CdaExplorer xml="<ClinicalDocument xmlns='urn:hl7-org:v3'><title>" />);
    expect(screen.getByRole('alert').textContent).toContain(cdaErrors.notWellFormed);
  });

  it('renders no script, no event handler and no live javascript: link from the narrative', () => {
    const xml = cda(
      '<paragraph onclick="alert(1)" onmouseover="alert(2)">Take <content styleCode="Bold" onload="alert(3)">aspirin</content><script>alert(4)</script></paragraph>' +
        '<paragraph><linkHtml href="javascript:alert(5)">click me</linkHtml> <linkHtml href="data:text/html,&lt;script&gt;alert(6)&lt;/script&gt;">data</linkHtml> ' +
        '<linkHtml href="https://example.org/guide">guide</linkHtml> <linkHtml href="http://example.org/plain">plain</linkHtml></paragraph>' +
        '<renderMultiMedia referencedObject="img1"/><table><tbody><tr><td style="background:url(https://evil.example/x)" colspan="999999">cell</td></tr></tbody></table>' +
        '<h:script xmlns:h="http://www.w3.org/1999/xhtml">alert(7)</h:script><h:img xmlns:h="http://www.w3.org/1999/xhtml" src="https://evil.example/p.png" onerror="alert(8)"/>',
    );
    const { container } = renderWithProviders(<CdaExplorer xml={xml} />);
    const html = container.innerHTML;
    expect(container.querySelector('script, img, iframe')).toBeNull();
    expect(html).not.toMatch(/\son[a-z]+=/i);
    expect(html).not.toContain('evil.example');
    expect(container.querySelector('a[href^="javascript"], a[href^="data"], a[href^="http:"]')).toBeNull();

    // The text of a script is only text; a non-https address is shown, not followed.
    expect(squash(container.textContent ?? '')).toContain('Take aspirinalert(4)');
    expect(screen.getByText('aspirin').style.fontWeight).toBe('700');
    expect(screen.getByText(/click me/).closest('a')).toBeNull();
    expect(squash(container.textContent ?? '')).toContain('click me (javascript:alert(5))');
    expect(squash(container.textContent ?? '')).toContain('plain (http://example.org/plain)');
    const guide = screen.getByRole('link', { name: 'guide' });
    expect(guide.getAttribute('href')).toBe('https://example.org/guide');
    expect(guide.getAttribute('target')).toBe('_blank');
    expect(guide.getAttribute('rel')).toBe('noopener noreferrer');
    expect(screen.getByText(/Image or multimedia not shown/)).toBeTruthy();
    expect(screen.getByRole('cell', { name: 'cell' }).getAttribute('colspan')).toBe('100');
    expect(screen.getByRole('cell', { name: 'cell' }).getAttribute('style')).toBeNull();
  });

  itWithFixtures('reports an embedded PDF with its size and opens it in the PDF viewer', async () => {
    renderWithProviders(<CdaExplorer xml={fixture('unstructured-embedded-pdf.xml')} fileName="summary.xml" />);
    expect(screen.getByText(/^This document embeds a PDF \(\d+ KB\)\.$/)).toBeTruthy();
    expect(screen.queryByRole('navigation', { name: 'Table of contents' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'View embedded PDF' }));
    await screen.findByText('Page 1 of 2');
    // View only: no tools on a document inside another.
    expect(screen.queryByRole('button', { name: 'Download' })).toBeNull();
  });
});
