import type { BrowserContext, Locator, Page, Response } from 'playwright-core';
import { expect } from 'vitest';
import { DEMO_PASSWORD, UD_SAMPLE } from './constants.ts';

const WAIT_MS = 15_000;
const ACCESS_TOKEN_KEY = 'clinicrelay.accessToken';

/** Waits until the browser shows `pathname` (the SPA redirects after the first render). */
export async function expectPath(page: Page, pathname: string): Promise<void> {
  await expect.poll(() => new URL(page.url()).pathname, { timeout: WAIT_MS, interval: 100 }).toBe(pathname);
}

/** Waits for the page's h1. */
export async function expectHeading(page: Page, name: string): Promise<void> {
  await page.getByRole('heading', { level: 1, name, exact: true }).waitFor({ state: 'visible' });
}

/**
 * Accepts the active terms document in the onboarding Terms dialog (issue 14 §2): every user meets it at their first
 * sign-in, and an organization's Administrator before anything else.
 */
export async function acceptTerms(page: Page): Promise<void> {
  const terms = page.getByRole('dialog', { name: 'Terms and conditions', exact: true });
  await terms.getByRole('checkbox', { name: 'I have read and accept the terms and conditions' }).check();
  await terms.getByRole('button', { name: 'Accept' }).click();
  await terms.waitFor({ state: 'hidden' });
}

/** An Administrator of an organization not yet ID-proofed puts the identity check off until the next sign-in. */
export async function putOffIdentityCheck(page: Page): Promise<void> {
  const welcome = page.getByRole('dialog', { name: 'Welcome', exact: true });
  await welcome.getByRole('button', { name: 'Not now' }).click();
  await welcome.waitFor({ state: 'hidden' });
}

export interface SandboxIdentity {
  firstName: string;
  lastName: string;
  dateOfBirth: string;
  ssn: string;
  phone: string;
  address: string;
  city: string;
  state: string;
  zip: string;
}

/** Fills the onboarding's Submit identity form (end-user §5 "Identity form") and submits it. */
export async function submitIdentity(page: Page, identity: SandboxIdentity): Promise<void> {
  const form = page.getByRole('dialog', { name: 'Submit identity' });
  await form.getByRole('textbox', { name: 'First Name' }).fill(identity.firstName);
  await form.getByRole('textbox', { name: 'Last Name' }).fill(identity.lastName);
  await form.getByLabel('Date of Birth').fill(identity.dateOfBirth);
  await form.getByRole('textbox', { name: 'SSN' }).pressSequentially(identity.ssn);
  await form.getByRole('textbox', { name: 'Phone Number' }).pressSequentially(identity.phone);
  await form.getByRole('textbox', { name: 'Address' }).fill(identity.address);
  await form.getByRole('textbox', { name: 'City' }).fill(identity.city);
  await form.getByRole('combobox', { name: 'State' }).fill(identity.state);
  await page.getByRole('option', { name: new RegExp(`^[A-Z]{2} - ${identity.state}$`) }).click();
  await form.getByRole('textbox', { name: 'Zip' }).fill(identity.zip);
}

/** The sandbox's true answers for an identity (its street, birth year and city: identity-proofing/provider.ts). */
export const sandboxQuizTruth = (identity: SandboxIdentity) => [identity.address.replace(/^\d+\s+/, ''), identity.dateOfBirth.slice(0, 4), identity.city];

/** Answers the sandbox's security questions with the truth and submits them. */
export async function answerQuiz(page: Page, identity: SandboxIdentity): Promise<void> {
  const quiz = page.getByRole('dialog', { name: 'Security questions', exact: true });
  for (const answer of sandboxQuizTruth(identity)) await quiz.getByRole('radio', { name: answer, exact: true }).check();
  await quiz.getByRole('button', { name: 'Submit' }).click();
}

/** A system administrator activates an organization from the back office's list, with the default records address. */
export async function activateOrganization(page: Page, name: string): Promise<void> {
  await page.getByRole('button', { name: `More actions for ${name}` }).click();
  await page.getByRole('menuitem', { name: 'Activate' }).click();
  const activation = page.getByRole('dialog');
  await activation.getByRole('checkbox', { name: "Send activation email to the organization's Administrators" }).waitFor();
  expect(await activation.getByRole('checkbox', { name: 'Create the default records address' }).isChecked()).toBe(true);
  await activation.getByRole('button', { name: 'Save' }).click();
  await page.getByText('Organization Activation Status has been updated.').waitFor();
}

export async function openSignIn(page: Page): Promise<void> {
  await page.goto('/account/login');
  await expectHeading(page, 'Sign in');
}

/** Fills the sign-in form, clicks "Log in" and returns the API's answer (whatever it is). */
export async function submitSignIn(page: Page, userName: string, password: string): Promise<Response> {
  await page.getByLabel('Username', { exact: true }).fill(userName);
  await page.getByLabel('Password', { exact: true }).fill(password);
  const [response] = await Promise.all([
    page.waitForResponse((r) => new URL(r.url()).pathname === '/api/account/login' && r.request().method() === 'POST'),
    page.getByRole('button', { name: 'Log in', exact: true }).click(),
  ]);
  return response;
}

/** Signs a demo user in on the sign-in page that is already open; fails with the server's answer otherwise. */
export async function signIn(page: Page, userName: string, password: string = DEMO_PASSWORD): Promise<void> {
  const response = await submitSignIn(page, userName, password);
  if (!response.ok()) throw new Error(`sign-in of ${userName} failed: ${response.status()} ${await response.text()}`);
  // The SPA stores the token after it has read the answer: a page.goto() before that lands on sign-in again.
  await waitForExpression(page, `localStorage.getItem('${ACCESS_TOKEN_KEY}') !== null`);
}

/**
 * Polls a JavaScript expression in the page until it is true. page.waitForFunction evaluates its string with
 * eval() inside the page, which the app's CSP forbids; page.evaluate goes through the DevTools protocol.
 */
export async function waitForExpression(page: Page, expression: string, timeout = WAIT_MS): Promise<void> {
  await expect.poll(() => page.evaluate<boolean>(expression), { timeout, interval: 50 }).toBe(true);
}

/** The text of the sign-in page's alert once it is shown. */
export async function alertText(page: Page): Promise<string> {
  const alert = page.getByRole('alert');
  await alert.waitFor({ state: 'visible' });
  return (await alert.innerText()).trim();
}

/** The access token the SPA keeps in localStorage (read from the storage state: no DOM types needed). */
export async function storedAccessToken(context: BrowserContext, baseUrl: string): Promise<string | null> {
  const state = await context.storageState();
  const origin = state.origins.find((o) => o.origin === new URL(baseUrl).origin);
  return origin?.localStorage.find((item) => item.name === ACCESS_TOKEN_KEY)?.value ?? null;
}

// Picks an option of a select and waits until the select shows it (options load asynchronously).
export async function choose(page: Page, label: string, option: string) {
  const select = page.getByRole('combobox', { name: label, exact: true });
  await expect
    .poll(
      async () => {
        if ((await select.inputValue()) !== option) {
          await select.click();
          await page.getByRole('option', { name: option, exact: true }).click({ timeout: 2_000 }).catch(() => page.keyboard.press('Escape'));
        }
        return select.inputValue();
      },
      { timeout: 10_000, interval: 250 },
    )
    .toBe(option);
}

// Opens 'Attach a new file' and fills it (the file, Normal confidentiality, today's date); the caller
// clicks Attach, so it can wait for what that click sends.
export async function fillAttachDialog(page: Page, file: string): Promise<Locator> {
  await page.getByRole('button', { name: 'Attach a new file' }).click();
  const dialog = page.getByRole('dialog', { name: 'Attach a new file' });
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), dialog.getByRole('button', { name: 'File' }).click()]);
  await chooser.setFiles(file);
  await dialog.getByRole('combobox', { name: 'Confidentiality' }).click();
  await page.getByRole('option', { name: 'Normal', exact: true }).click();
  await dialog.getByRole('radio', { name: 'Today' }).check();
  return dialog;
}

// A new Release referral for the demo patient Maria Alvarez with ud-sample.pdf attached, from
// Lakeside's Direct address unless told otherwise, ready to send; `origin` is another installation's (a peer's).
export async function composeReferral(page: Page, to: string[], subject: string, from = 'intake@lakeside.direct.example.org', origin = '') {
  await page.goto(`${origin}/release`);
  await expectHeading(page, 'Release');
  await page.getByRole('link', { name: 'New message' }).click();
  await expectPath(page, '/release/new');
  const toInput = page.getByRole('combobox', { name: 'To', exact: true });
  for (const address of to) {
    await toInput.fill(address);
    await toInput.press('Enter');
  }
  await choose(page, 'From', from);
  await choose(page, 'Release type', 'Referral');
  await page.getByRole('textbox', { name: 'Subject', exact: true }).fill(subject);
  await page.getByRole('textbox', { name: 'Body', exact: true }).fill('Please see Ms. Alvarez for palpitations. Notes attached.');
  await page.getByRole('textbox', { name: 'First name', exact: true }).fill('Maria');
  await page.getByRole('textbox', { name: 'Last name', exact: true }).fill('Alvarez');
  await page.getByRole('textbox', { name: 'Birth date', exact: true }).fill('04/12/1958');
  await choose(page, 'Gender', 'Female');

  const dialog = await fillAttachDialog(page, UD_SAMPLE);
  await dialog.getByRole('button', { name: 'Attach', exact: true }).click();
  // Closing the upload dialog moves the form to its draft's URL, which mounts the form anew: a Send clicked before
  // that lands would open a Review and Send dialog the new mount does not have.
  await dialog.waitFor({ state: 'hidden' });
  await expectHeading(page, 'Edit draft');
  await page.getByText('ud-sample.pdf').first().waitFor();
}

// Signs in through the API, outside any browser session, as a client of the API would; the headers
// to call it with.
export async function apiSignIn(baseUrl: string, userName: string): Promise<Record<string, string>> {
  const login = await fetch(`${baseUrl}/api/account/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ userName, password: DEMO_PASSWORD }),
  });
  expect(login.status).toBe(200);
  const { accessToken } = (await login.json()) as { accessToken: string };
  return { authorization: `Bearer ${accessToken}` };
}

/** Sends the compose form as it stands (Send, then Confirm), waits for the answer `sent`, and opens the sent message. */
export async function sendAndOpen(page: Page, subject: string, sent = 'The message was sent successfully.'): Promise<void> {
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await page.getByRole('dialog', { name: 'Review and Send' }).getByRole('button', { name: 'Confirm' }).click();
  await page.getByText(sent).first().waitFor();
  await expectPath(page, '/release');
  await page.getByRole('link', { name: subject, exact: true }).click();
  await expectHeading(page, subject);
}

/** Delivery runs in the background: reloads the Intake until the message's link is there. */
export async function untilListed(page: Page, link: Locator): Promise<void> {
  await expect
    .poll(
      async () => {
        if (await link.isVisible()) return true;
        await page.reload();
        await expectHeading(page, 'Intake');
        return link.waitFor({ timeout: 2_000 }).then(
          () => true,
          () => false,
        );
      },
      { timeout: 30_000, interval: 500 },
    )
    .toBe(true);
}

/** Searches the Intake of the installation at `origin` (the page's own by default) for `subject` and returns the message's row. */
export async function findInIntake(page: Page, subject: string, origin = ''): Promise<Locator> {
  await page.goto(`${origin}/intake`);
  await expectHeading(page, 'Intake');
  await page.getByRole('searchbox', { name: 'Search' }).fill(subject);
  const link = page.getByRole('link', { name: subject, exact: true });
  await untilListed(page, link);
  return page.getByRole('row').filter({ has: link });
}

/** Sends a non-PHI fax from Release's modal: `to` and `from` as the form shows fax numbers (503-555-0202). */
export async function sendNonPhiFax(page: Page, subject: string, to: string, from: string): Promise<void> {
  await page.goto('/release');
  await expectHeading(page, 'Release');
  await page.getByRole('button', { name: 'Send Non-PHI Fax' }).click();
  const dialog = page.getByRole('dialog', { name: 'Send non-PHI fax' });
  await dialog.getByRole('textbox', { name: 'To fax number' }).fill(to);
  await choose(page, 'From fax number', from);
  await dialog.getByRole('textbox', { name: 'Subject' }).fill(subject);
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), dialog.getByRole('button', { name: 'File' }).click()]);
  await chooser.setFiles(UD_SAMPLE);
  await dialog.getByRole('button', { name: 'Send', exact: true }).click();
  await page.getByText('The message was sent successfully.').waitFor();
  await dialog.waitFor({ state: 'hidden' });
}
