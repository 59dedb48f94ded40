import { Box } from '@mantine/core';

export interface TermsDocumentProps {
  /** The terms document's HTML, as stored (sanitized by the server when it was uploaded). */
  html: string;
  /** The frame's accessible name. */
  title?: string;
  /** The frame's height: the document scrolls inside it. */
  height?: number | string;
}

// The frame's own styles: a readable document in the app's font; no remote resource can load (the page's CSP, which an
// about:srcdoc frame inherits, allows images from 'self' and data: only).
const frameStyles =
  'body{margin:0;padding:12px 16px;font:14px/1.55 -apple-system,BlinkMacSystemFont,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;color:#212529;background:#fff;word-wrap:break-word}' +
  'h1{font-size:1.35em}h2{font-size:1.15em}h3{font-size:1em}img{max-width:100%;height:auto}table{border-collapse:collapse}td,th{border:1px solid #dee2e6;padding:4px 8px}a{color:#1c7ed6}';

/**
 * Shows a terms document (EULA or Privacy) in a sandboxed frame: the HTML is sanitized on upload (server allow-list),
 * and the frame is the second wall if sanitizing ever missed something. `sandbox` without allow-scripts means no
 * script and no event handler can run, without allow-same-origin the document cannot reach the app's storage or
 * cookies, and without allow-forms/allow-top-navigation it can neither post nor navigate the app. Links open in a
 * new tab (allow-popups, escaping the sandbox so the linked site works normally).
 */
export function TermsDocument({ html, title = 'Terms document', height = '55vh' }: TermsDocumentProps) {
  const srcDoc = `<!doctype html><html><head><meta charset="utf-8"><base target="_blank"><style>${frameStyles}</style></head><body>${html}</body></html>`;
  return (
    <Box
      component="iframe"
      title={title}
      srcDoc={srcDoc}
      sandbox="allow-popups allow-popups-to-escape-sandbox"
      referrerPolicy="no-referrer"
      data-testid="terms-document"
      style={{ width: '100%', height, border: '1px solid var(--mantine-color-default-border)', borderRadius: 'var(--mantine-radius-sm)', background: '#fff' }}
    />
  );
}
