import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { introduce } from '../scripts/direct-introduce.mjs';
import { expectNoAxeViolations, screenshot } from './support/axe.ts';
import { DEMO_PASSWORD } from './support/constants.ts';
import { composeReferral, expectHeading, findInIntake, sendAndOpen, signIn } from './support/journeys.ts';
import { currentServer } from './support/current-server.ts';
import { startServer, type RunningServer } from './support/server.ts';
import { test } from './support/test.ts';

// Direct between two installations (issue 12 §5 and §4): Lakeside on the main server sends a signed and encrypted
// referral over SMTP to Summit Cardiology on a peer installation, watches the MDNs come back into the recipient's
// timeline, and the peer's user finds it in Intake; then the peer sends one back the same way.

const LAKESIDE = 'intake@lakeside.direct.example.org';
const PEER_RIVERVIEW = 'referrals@riverview.peer.example.net';
const NOWHERE = 'nobody@nowhere.example.com';
// The stages as the timeline words them, oldest first.
const STAGES = ['Queued', 'Sent to the recipient’s mail server', 'Processed by the recipient’s HISP', 'Delivered to the recipient'];
const DELIVERED = STAGES.at(-1)!;
// SMTP on loopback and the MDNs back: seconds, with room for a loaded CI machine.
const DELIVERY_MS = 30_000;
// Seeding an empty database (the peer's demo world) takes up to a minute on 2 cores, longer on a busy machine.
const PEER_START_MS = 180_000;

let peer: RunningServer;

beforeAll(async () => {
  const { direct, peerDirect, baseUrl } = currentServer();
  peer = await startServer({
    smtpPort: peerDirect.smtpPort,
    dnsPort: peerDirect.dnsPort,
    moreDnsServers: [`127.0.0.1:${direct.dnsPort}`],
    logName: 'peer-server.log',
    env: { DEMO_WORLD: 'peer', DIRECT_SMARTHOSTS: `direct.example.org=127.0.0.1:${direct.smtpPort}` },
  });
  await introduce(baseUrl, peer.baseUrl, DEMO_PASSWORD);
}, PEER_START_MS);

afterAll(async () => {
  await peer?.stop();
});

async function signInAt(page: Page, origin: string, userName: string) {
  await page.goto(`${origin}/account/login`);
  await expectHeading(page, 'Sign in');
  await signIn(page, userName);
}

// The shared screenshot widens the window to 1440×900 first, which moves what a scroll brought into view: widened
// here before `part` is scrolled to the middle, and narrowed back after.
async function screenshotOf(page: Page, part: Locator, name: string) {
  const before = page.viewportSize();
  await page.setViewportSize({ width: 1440, height: 900 });
  await part.evaluate((element) => (element as unknown as { scrollIntoView: (options: object) => void }).scrollIntoView({ block: 'center' }));
  await screenshot(page, name);
  if (before) await page.setViewportSize(before);
}

const timelineOf = (page: Page, recipient: string) => page.getByRole('list', { name: `Delivery timeline of ${recipient}`, exact: true });

// The recipient's stages as the open /release/{id} lists them, once its timeline reaches `last` (workers and MDNs
// run in the background: the page is reloaded until then).
async function timelineUntil(page: Page, recipient: string, last: string): Promise<string[]> {
  const timeline = timelineOf(page, recipient);
  const stages = async () => (await timeline.getByRole('listitem').allInnerTexts()).map((text) => text.split(' · ', 1)[0]!.replace(/\s+/g, ' ').trim());
  await expect
    .poll(
      async () => {
        await page.reload();
        return timeline.waitFor({ timeout: 5_000 }).then(stages, () => []);
      },
      { timeout: DELIVERY_MS, interval: 1_000 },
    )
    .toContain(last);
  return stages();
}

test('Lakeside sends a referral with a PDF over Direct to another installation, sees it dispatched, and the peer finds it in Intake', { timeout: 150_000 }, async ({ page }) => {
  // Unique per run, so each Intake search finds this message and no other.
  const subject = `Direct referral for Maria Alvarez ${Date.now().toString(36)}`;
  await signInAt(page, '', 'user@lakeside.example.org');
  await composeReferral(page, [PEER_RIVERVIEW, NOWHERE], subject);
  // The attached file made a draft, and the form was drawn again at the draft's address: the notes below are that form's.
  await expectHeading(page, 'Edit draft');

  // Before Send, the To field says what each address is: the peer's certificate is in its DNS, the other has none.
  const to = page.getByRole('combobox', { name: 'To', exact: true });
  const notes = page.getByRole('list', { name: 'Notes on the To addresses', exact: true });
  const note = (address: string) => notes.getByRole('listitem').filter({ hasText: address });
  await note(PEER_RIVERVIEW).getByText('Trusted Direct address (certificate found in DNS)', { exact: true }).waitFor({ timeout: DELIVERY_MS });
  await note(NOWHERE).getByText(/^No certificate found for this address \(DNS and LDAP tried\)/).waitFor({ timeout: DELIVERY_MS });
  await screenshotOf(page, to, 'direct-compose-check');
  await expectNoAxeViolations(page, 'compose with the To addresses checked');

  // The address nothing can reach is taken out (Backspace in the empty field removes the last tag).
  await to.focus();
  await to.press('Backspace');
  await note(NOWHERE).waitFor({ state: 'detached' });
  await note(PEER_RIVERVIEW).waitFor();
  await sendAndOpen(page, subject);

  // The MDNs of the peer move the recipient on to delivered, through every stage in order.
  expect(await timelineUntil(page, PEER_RIVERVIEW, DELIVERED)).toEqual(STAGES);
  await screenshotOf(page, timelineOf(page, PEER_RIVERVIEW), 'direct-release-timeline');
  await expectNoAxeViolations(page, 'sent message with its Direct timeline');

  // The peer's user, in the same browser (another origin, so its own session), finds the message in Intake.
  await signInAt(page, peer.baseUrl, 'user@riverview.example.org');
  const row = await findInIntake(page, subject, peer.baseUrl);
  await row.getByText(LAKESIDE, { exact: true }).waitFor();
  await screenshot(page, 'direct-peer-intake-list');
  await expectNoAxeViolations(page, 'the peer’s Intake list');
  await row.getByRole('link', { name: subject, exact: true }).click();
  await expectHeading(page, subject);
  await page.getByRole('region', { name: 'Document viewer: ud-sample.pdf' }).waitFor();
  await screenshot(page, 'direct-peer-intake');
  await expectNoAxeViolations(page, 'the peer’s Intake message received over Direct');
});

test('Summit Cardiology on the peer sends a referral with a PDF back to Lakeside, which finds it in its Intake', { timeout: 150_000 }, async ({ page }) => {
  const subject = `Direct consult note for Maria Alvarez ${Date.now().toString(36)}`;
  await signInAt(page, peer.baseUrl, 'user@riverview.example.org');
  await composeReferral(page, [LAKESIDE], subject, PEER_RIVERVIEW, peer.baseUrl);
  await expectHeading(page, 'Edit draft');
  await page
    .getByRole('list', { name: 'Notes on the To addresses', exact: true })
    .getByText('Trusted Direct address (certificate found in DNS)', { exact: true })
    .waitFor({ timeout: DELIVERY_MS });
  await expectNoAxeViolations(page, 'the peer’s compose with the To address checked');
  await sendAndOpen(page, subject);
  expect(await timelineUntil(page, LAKESIDE, DELIVERED)).toEqual(STAGES);
  await screenshotOf(page, timelineOf(page, LAKESIDE), 'direct-peer-release-timeline');
  await expectNoAxeViolations(page, 'the peer’s sent message with its Direct timeline');

  await signInAt(page, '', 'user@lakeside.example.org');
  const row = await findInIntake(page, subject);
  await row.getByText(PEER_RIVERVIEW, { exact: true }).waitFor();
  await expectNoAxeViolations(page, 'Lakeside’s Intake list');
  await row.getByRole('link', { name: subject, exact: true }).click();
  await expectHeading(page, subject);
  await page.getByRole('region', { name: 'Document viewer: ud-sample.pdf' }).waitFor();
  await screenshot(page, 'direct-lakeside-intake');
  await expectNoAxeViolations(page, 'Lakeside’s Intake message received over Direct');
});
