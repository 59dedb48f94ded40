import { html, type SafeHtml } from './html.ts';

// The frame and the one-time-link layout the account mails share (email confirmation, account creation, password
// reset, password changed): one place for the markup, so the mails look alike.

/** An absolute link into the web app: config.appUrl (PUBLIC_URL, else this server's own port) and the path. */
export const appUrl = (base: string, path: string) => `${base.replace(/\/+$/, '')}${path}`;

/** A mail's HTML document: the subject as its title, the house font, and the paragraphs given. */
export const mailDocument = (subject: string, paragraphs: SafeHtml) => html`<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${subject}</title></head>
<body style="font-family: Arial, Helvetica, sans-serif; font-size: 15px; line-height: 1.5; color: #1a1b1e;">
${paragraphs}
</body>
</html>
`;

export interface LinkMail {
  subject: string;
  /** The addressee's full name, for the greeting. */
  name: string;
  /** What happened and what the link does, ending with a colon. */
  intro: string;
  /** The button's text. */
  action: string;
  link: string;
  /** How long and how often the link works. */
  validity: string;
}

/** A mail whose point is one link: greeting, intro, a button, the link written out, how long it works. */
export function linkMail({ subject, name, intro, action, link, validity }: LinkMail) {
  const text = [`Hello ${name},`, '', intro, link, '', validity, ''].join('\n');
  const body = mailDocument(
    subject,
    html`<p>Hello ${name},</p>
<p>${intro}</p>
<p><a href="${link}" style="display: inline-block; padding: 10px 18px; background: #1c7ed6; color: #ffffff; text-decoration: none; border-radius: 4px;">${action}</a></p>
<p style="font-size: 13px; color: #495057;">Or open this link: <a href="${link}">${link}</a></p>
<p style="font-size: 13px; color: #495057;">${validity}</p>`,
  );
  return { subject, text, html: body };
}
