import { connectorMessages as text } from '@clinicrelay/contracts/connectors.ts';

// The small HTML pages of the sign-in window: the sandbox provider's sign-in form and our callback's result. No inline
// script (the CSP forbids it): the result page loads close-window.js, which closes the window the screen watches.

const escape = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const page = (title: string, body: string, script?: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escape(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem;color:#1a1b1e}
.badge{display:inline-block;background:#fff3bf;color:#5c3c00;border-radius:4px;padding:2px 8px;font-size:.8rem;font-weight:600}
label{display:block;margin:.8rem 0 .2rem;font-weight:600}input{width:100%;padding:.5rem;font-size:1rem;box-sizing:border-box}
.actions{margin-top:1.2rem;display:flex;gap:.5rem}button{padding:.5rem 1rem;font-size:1rem;cursor:pointer}
button.primary{background:#1c7ed6;color:#fff;border:0;border-radius:4px}.error{color:#c92a2a}</style>
</head><body><main>${body}</main>${script ? `<script src="${escape(script)}"></script>` : ''}</body></html>`;

export interface SignInForm {
  action: string;
  redirectUri: string;
  state: string;
  accountName: string;
  email: string;
  error?: string;
}

export const sandboxSignInPage = (f: SignInForm) =>
  page(
    'Sandbox e-signature sign-in',
    `<p><span class="badge">sandbox</span></p>
<h1>Sign in to the sandbox e-signature provider</h1>
<p>This is the sandbox provider's test mode: no real e-signature account is used. Accept to connect the test account below.</p>
${f.error ? `<p class="error" role="alert">${escape(f.error)}</p>` : ''}
<form method="get" action="${escape(f.action)}">
<input type="hidden" name="redirect_uri" value="${escape(f.redirectUri)}"><input type="hidden" name="state" value="${escape(f.state)}">
<label for="accountName">Account name</label><input id="accountName" name="accountName" required maxlength="100" value="${escape(f.accountName)}">
<label for="email">Email</label><input id="email" name="email" type="email" required maxlength="254" value="${escape(f.email)}">
<div class="actions"><button class="primary" type="submit" name="decision" value="accept">Accept</button><button type="submit" name="decision" value="cancel">Cancel</button></div>
</form>`,
  );

export const CLOSE_WINDOW_SCRIPT = "setTimeout(function () { window.close(); }, 1500);\n";

export const signInResultPage = (result: { ok: true; accountName: string; email: string } | { ok: false; message: string }, closeScript: string) =>
  result.ok
    ? page(
        'E-signature account connected',
        `<h1>Account connected</h1><p>${escape(text.signedIn)} ${escape(result.accountName)} (${escape(result.email)}).</p><p>You can close this window.</p>`,
        closeScript,
      )
    : page('E-signature sign-in', `<h1>Sign-in not completed</h1><p class="error" role="alert">${escape(result.message)}</p><p>You can close this window.</p>`, closeScript);
