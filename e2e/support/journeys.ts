import type { BrowserContext, Locator, Page, Response } from 'playwright-core';
import { expect } from 'vitest';
import { DEMO_PASSWORD } from './constants.ts';

const WAIT_MS = 10_000;
const ACCESS_TOKEN_KEY = 'clinicrelay.accessToken';

/** Waits until the browser shows `pathname` (the SPA redirects after the first render). */
export async function expectPath(page: Page, pathname: string): Promise<void> {
  await expect.poll(() => new URL(page.url()).pathname, { timeout: WAIT_MS, interval: 100 }).toBe(pathname);
}

/** Waits for the page's h1. */
export async function expectHeading(page: Page, name: string): Promise<void> {
  await page.getByRole('heading', { level: 1, name, exact: true }).waitFor({ state: 'visible' });
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
