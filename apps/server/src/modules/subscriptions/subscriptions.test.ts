import { and, eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { releaseMessages } from '@clinicrelay/contracts/messages.ts';
import { sandboxCardMessages, subscriptionMessages } from '@clinicrelay/contracts/subscriptions.ts';
import { auditEvents } from '../../db/schema/audit.ts';
import { mailOutbox } from '../../db/schema/mail.ts';
import { subscriptionPayments } from '../../db/schema/onboarding.ts';
import { organizations } from '../../db/schema/organizations.ts';
import { users } from '../../db/schema/users.ts';
import { useTestApp } from '../../test/app.ts';
import { insertInbound } from '../intake/test-inbound.ts';
import { luhnValid } from './payment-provider.ts';
import { paidThrough } from './service.ts';

const OAKWOOD_ADMIN = 'admin@oakwood.example.org';
const OAKWOOD_USER = 'user@oakwood.example.org';
const LAKESIDE_ADMIN = 'admin@lakeside.example.org';
const LAKESIDE_USER = 'user@lakeside.example.org';
const BASE = '/api/subscriptionplans';
const SUBSCRIPTION = `${BASE}/subscriptions`;
const REACTIVATE = `${BASE}/reactivate`;
const CANCEL = `${BASE}/cancel`;
const UPGRADE = `${BASE}/upgraderequest`;
const GOOD_CARD = { number: '4242 4242 4242 4242', expiryMonth: 12, expiryYear: 2099, cvc: '123', nameOnCard: 'Laura Lake' };

describe('subscriptions: plans, payments (sandbox), cancel and reactivation', () => {
  const t = useTestApp();
  const db = () => t.handle.db;
  const orgId = async (subdomain: string) => (await db().select({ id: organizations.id }).from(organizations).where(eq(organizations.subdomain, subdomain)))[0]!.id;
  const setOrg = async (subdomain: string, values: Partial<typeof organizations.$inferInsert>) => db().update(organizations).set(values).where(eq(organizations.subdomain, subdomain));
  const eventsOf = (organizationId: string, eventType: string) => db().select().from(auditEvents).where(and(eq(auditEvents.organizationId, organizationId), eq(auditEvents.eventType, eventType)));
  const paymentsOf = (organizationId: string) => db().select().from(subscriptionPayments).where(eq(subscriptionPayments.organizationId, organizationId));
  const snapshot = { lakeside: {} as Partial<typeof organizations.$inferInsert>, oakwood: {} as Partial<typeof organizations.$inferInsert> };
  const restore = async () => {
    for (const sub of ['lakeside', 'oakwood'] as const) if (Object.keys(snapshot[sub]).length) await setOrg(sub, snapshot[sub]);
  };
  afterEach(restore);
  const remember = async (sub: 'lakeside' | 'oakwood') => {
    const [row] = await db().select().from(organizations).where(eq(organizations.subdomain, sub));
    snapshot[sub] = { planId: row!.planId, cancelledAt: row!.cancelledAt, gracePeriodEndsAt: row!.gracePeriodEndsAt, subscriptionReference: row!.subscriptionReference, settings: row!.settings };
  };

  it('checks card numbers with Luhn and computes the end of the paid month', () => {
    expect(luhnValid('4242424242424242')).toBe(true);
    expect(luhnValid('4242424242424241')).toBe(false);
    expect(paidThrough(new Date('2026-01-15T10:00:00Z'), new Date('2026-03-20T00:00:00Z')).toISOString()).toBe('2026-04-15T10:00:00.000Z');
    expect(paidThrough(new Date('2026-03-20T00:00:00Z'), new Date('2026-03-20T00:00:00Z')).toISOString()).toBe('2026-04-20T00:00:00.000Z');
  });

  it('shows the current plan, the plans with price and allowed users, and the sandbox provider', async () => {
    const res = await t.call(LAKESIDE_ADMIN, 'GET', SUBSCRIPTION);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ organizationName: 'Lakeside Family Medicine', planId: 'professional', status: 'Active', paymentProvider: 'sandbox', lastPayment: null });
    expect(res.json().userCount).toBeGreaterThan(0);
    expect(res.json().plans.map((p: { id: string }) => p.id)).toEqual(['free', 'stay-connected', 'professional', 'enterprise']);
    expect(res.json().plans[2]).toEqual({ id: 'professional', name: 'Professional', allowedUsers: 25, allowedUsersDescription: 'Up to 25 users', isFree: false, priceCents: 9900 });
  });

  it('changes the plan with the success test card, and records only the last 4 digits', async () => {
    await remember('lakeside');
    const lakeside = await orgId('lakeside');
    const res = await t.call(LAKESIDE_ADMIN, 'POST', SUBSCRIPTION, { planId: 'enterprise', organizationId: lakeside, card: GOOD_CARD });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ message: 'Your subscription plan is now Enterprise.', payment: { status: 'Completed', planId: 'enterprise', amountCents: 49900, cardLast4: '4242', provider: 'sandbox' } });
    const [org] = await db().select().from(organizations).where(eq(organizations.id, lakeside));
    expect(org).toMatchObject({ planId: 'enterprise', subscriptionReference: expect.stringMatching(/^SUB-SANDBOX-/) });
    const payments = await paymentsOf(lakeside);
    expect(payments).toEqual([expect.objectContaining({ status: 'Completed', cardLast4: '4242', reference: res.json().payment.reference })]);
    expect(JSON.stringify(payments)).not.toContain('4242424242424242');
    expect(await eventsOf(lakeside, 'SubscriptionPlanChanged')).toEqual([expect.objectContaining({ userName: LAKESIDE_ADMIN, details: expect.objectContaining({ fromPlanId: 'professional', planId: 'enterprise' }) })]);

    // GET /fastspring/{id}: the order by its reference, or the latest by the subscription reference.
    const order = await t.call(LAKESIDE_ADMIN, 'GET', `${BASE}/fastspring/${res.json().payment.reference}`);
    expect(order.statusCode).toBe(200);
    expect(order.json()).toMatchObject({ reference: res.json().payment.reference, status: 'Completed', cardLast4: '4242' });
    expect((await t.call(LAKESIDE_ADMIN, 'GET', `${BASE}/fastspring/${org!.subscriptionReference}`)).json().reference).toBe(res.json().payment.reference);
    // Another organization's administrator cannot read it, nor can an unknown reference be read.
    expect((await t.call('admin@riverview.example.org', 'GET', `${BASE}/fastspring/${res.json().payment.reference}`)).statusCode).toBe(404);
    expect((await t.call(LAKESIDE_ADMIN, 'GET', `${BASE}/fastspring/ORD-NOPE`)).statusCode).toBe(404);
    expect((await t.call(LAKESIDE_ADMIN, 'GET', SUBSCRIPTION)).json().lastPayment).toMatchObject({ cardLast4: '4242' });
  });

  it('refuses a declined card with the provider’s message and records a Declined payment; the plan stays', async () => {
    await remember('lakeside');
    const lakeside = await orgId('lakeside');
    for (const [number, reason] of [
      ['4000 0000 0000 0002', sandboxCardMessages.declined],
      ['4000000000009995', sandboxCardMessages.insufficientFunds],
      ['4000-0000-0000-0069', sandboxCardMessages.expired],
      ['4111 1111 1111 1111', sandboxCardMessages.notATestCard],
    ] as const) {
      const res = await t.call(LAKESIDE_ADMIN, 'POST', SUBSCRIPTION, { planId: 'enterprise', organizationId: lakeside, card: { ...GOOD_CARD, number } });
      expect(res.statusCode, number).toBe(400);
      expect(res.json()).toEqual({ message: reason, modelState: { card: [reason] } });
    }
    expect((await paymentsOf(lakeside)).filter((p) => p.status === 'Declined').map((p) => [p.status, p.cardLast4])).toEqual([['Declined', '0002'], ['Declined', '9995'], ['Declined', '0069'], ['Declined', '1111']]);
    expect(await eventsOf(lakeside, 'SubscriptionPaymentDeclined')).toHaveLength(4);
    expect((await db().select().from(organizations).where(eq(organizations.id, lakeside)))[0]!.planId).toBe('professional');
  });

  it('says what is wrong with the request: invalid number, expired card, missing fields, unknown or same plan, too many users', async () => {
    const lakeside = await orgId('lakeside');
    const before = (await paymentsOf(lakeside)).length;
    const post = (body: object) => t.call(LAKESIDE_ADMIN, 'POST', SUBSCRIPTION, { planId: 'enterprise', organizationId: lakeside, card: GOOD_CARD, ...body });
    let res = await post({ card: { ...GOOD_CARD, number: '4242 4242 4242 4241' } });
    expect(res.json()).toEqual({ message: sandboxCardMessages.invalidNumber, modelState: { 'card.number': [sandboxCardMessages.invalidNumber] } });
    res = await post({ card: { ...GOOD_CARD, expiryYear: 2001 } });
    expect(res.json()).toEqual({ message: sandboxCardMessages.expired, modelState: { 'card.expiry': [sandboxCardMessages.expired] } });
    res = await post({ card: { ...GOOD_CARD, cvc: '12' } });
    expect(res.statusCode).toBe(400);
    expect(JSON.stringify(res.json())).toContain('Enter the 3 or 4 digit security code.');
    res = await post({ card: null });
    expect(res.json()).toEqual({ message: subscriptionMessages.cardRequired, modelState: { card: [subscriptionMessages.cardRequired] } });
    res = await post({ planId: 'platinum' });
    expect(res.json()).toEqual({ message: subscriptionMessages.unknownPlan, modelState: { planId: [subscriptionMessages.unknownPlan] } });
    res = await post({ planId: 'professional' });
    expect(res.json()).toEqual({ message: subscriptionMessages.samePlan, modelState: { planId: [subscriptionMessages.samePlan] } });
    const count = (await t.call(LAKESIDE_ADMIN, 'GET', SUBSCRIPTION)).json().userCount as number;
    if (count > 3) {
      res = await post({ planId: 'free' });
      expect(res.json().message).toBe(subscriptionMessages.tooManyUsers(3, count));
    }
    expect(await paymentsOf(lakeside)).toHaveLength(before);
  });

  it('answers 404 for another organization’s id and 403 to Users and system administrators', async () => {
    const riverview = await orgId('riverview');
    const res = await t.call(LAKESIDE_ADMIN, 'POST', SUBSCRIPTION, { planId: 'enterprise', organizationId: riverview, card: GOOD_CARD });
    expect(res.statusCode).toBe(404);
    for (const user of [LAKESIDE_USER, OAKWOOD_USER, 'sysadmin@example.org']) {
      for (const [method, url, body] of [
        ['GET', SUBSCRIPTION, undefined],
        ['POST', SUBSCRIPTION, { planId: 'enterprise', organizationId: riverview, card: GOOD_CARD }],
        ['POST', CANCEL, { cancelReason: 'Too expensive' }],
        ['POST', REACTIVATE, {}],
        ['GET', `${BASE}/fastspring/ORD-1`, undefined],
      ] as const) {
        const r = await t.call(user, method, url, body);
        expect(r.statusCode, `${user} ${method} ${url}`).toBe(403);
        expect(r.json()).toEqual({ message: 'You are not authorized to view this resource.' });
      }
    }
    expect((await t.call(null, 'POST', REACTIVATE, {})).statusCode).toBe(401);
  });

  it('cancels with a reason: a grace period until the end of the paid month, then the profile says canceled', async () => {
    await remember('lakeside');
    const lakeside = await orgId('lakeside');
    expect((await t.call(LAKESIDE_ADMIN, 'POST', CANCEL, { cancelReason: '  ' })).json()).toMatchObject({ modelState: { cancelReason: ['Tell us why you are canceling.'] } });
    expect((await t.call(LAKESIDE_ADMIN, 'POST', CANCEL, { cancelReason: 'x'.repeat(1001) })).json()).toMatchObject({ modelState: { cancelReason: ['The reason must be at most 1000 characters.'] } });
    expect((await t.call(LAKESIDE_ADMIN, 'POST', CANCEL, {})).statusCode).toBe(400);

    // A payment made 10 days ago (the only one): paid through one month after it.
    await db().delete(subscriptionPayments).where(eq(subscriptionPayments.organizationId, lakeside));
    const paidAt = new Date(t.clock.now.getTime() - 10 * 86_400_000);
    await db().insert(subscriptionPayments).values({ organizationId: lakeside, planId: 'professional', provider: 'sandbox', reference: 'ORD-TEST-PAID', status: 'Completed', amountCents: 9900, cardLast4: '4242', createdAt: paidAt, completedAt: paidAt });
    const res = await t.call(LAKESIDE_ADMIN, 'POST', CANCEL, { cancelReason: 'We are merging with another practice.' });
    expect(res.statusCode, res.body).toBe(200);
    const end = paidThrough(paidAt, t.clock.now);
    expect(res.json().gracePeriodEndDate).toBe(end.toISOString());
    expect(res.json().message).toMatch(/^Your subscription has been canceled\. Your organization can use it until \d\d\/\d\d\/\d{4}\.$/);
    expect(await eventsOf(lakeside, 'SubscriptionCancelled')).toEqual([expect.objectContaining({ details: expect.objectContaining({ cancelReason: 'We are merging with another practice.' }) })]);

    expect((await t.call(LAKESIDE_USER, 'GET', '/api/users/profiledata')).json()).toMatchObject({ orgIsCancelled: false, orgIsInGracePeriod: true, orgGracePeriodEndDate: end.toISOString() });
    expect((await t.call(LAKESIDE_ADMIN, 'GET', SUBSCRIPTION)).json()).toMatchObject({ status: 'GracePeriod' });
    expect((await t.call(LAKESIDE_ADMIN, 'POST', CANCEL, { cancelReason: 'Again' })).json()).toEqual({ message: subscriptionMessages.alreadyCancelled });

    // After the grace period: canceled.
    t.clock.now = new Date(end.getTime() + 60_000);
    try {
      expect((await t.call(LAKESIDE_USER, 'GET', '/api/users/profiledata')).json()).toMatchObject({ orgIsCancelled: true, orgIsInGracePeriod: false });
      // Reactivation charges the card on file (the last completed payment).
      await setOrg('lakeside', { subscriptionReference: 'SUB-LAKESIDE-TEST' });
      const back = await t.call(LAKESIDE_ADMIN, 'POST', `${REACTIVATE}/`, { planId: 'professional' });
      expect(back.statusCode, back.body).toBe(200);
      expect(back.json()).toMatchObject({ message: 'Organization successfully reactivated.', payment: { status: 'Completed', cardLast4: '4242', amountCents: 9900 } });
      expect((await t.call(LAKESIDE_USER, 'GET', '/api/users/profiledata')).json()).toMatchObject({ orgIsCancelled: false, orgIsInGracePeriod: false });
    } finally {
      t.clock.now = new Date();
    }
  });

  it('reactivates Oakwood at once (its subscription reference), with the trailing-slash form too', async () => {
    await remember('oakwood');
    const oakwood = await orgId('oakwood');
    expect((await t.call(OAKWOOD_ADMIN, 'GET', '/api/users/profiledata')).json()).toMatchObject({ orgIsCancelled: true, subscriptionReference: 'SUB-OAKWOOD-2025-0042' });
    expect((await t.call(OAKWOOD_ADMIN, 'GET', '/api/users')).statusCode).toBe(403);
    const res = await t.call(OAKWOOD_ADMIN, 'POST', `${REACTIVATE}/`, { planId: 'professional' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ message: subscriptionMessages.reactivated, payment: { planId: 'professional', amountCents: 9900, cardLast4: null, status: 'Completed' } });
    const [admin] = await db().select().from(users).where(eq(users.userName, OAKWOOD_ADMIN));
    expect(await eventsOf(oakwood, 'OrganizationReactivated')).toEqual([
      expect.objectContaining({ userId: admin!.id, ip: '127.0.0.1', details: { planId: 'professional', subscriptionReference: 'SUB-OAKWOOD-2025-0042' } }),
    ]);
    expect((await t.call(OAKWOOD_ADMIN, 'GET', '/api/users/profiledata')).json()).toMatchObject({ orgIsCancelled: false, orgIsInGracePeriod: false });
    expect((await t.call(OAKWOOD_ADMIN, 'GET', '/api/users')).statusCode).toBe(200);
    expect((await t.call(OAKWOOD_ADMIN, 'POST', REACTIVATE)).json()).toEqual({ message: subscriptionMessages.notCancelled });
  });

  it('has nothing to reactivate without a cancellation or without a subscription reference', async () => {
    await remember('oakwood');
    const res = await t.call(LAKESIDE_ADMIN, 'POST', REACTIVATE, { planId: 'professional' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ message: subscriptionMessages.notCancelled });
    await setOrg('oakwood', { subscriptionReference: null });
    const none = await t.call(OAKWOOD_ADMIN, 'POST', REACTIVATE, {});
    expect(none.statusCode).toBe(409);
    expect(none.json()).toEqual({ message: subscriptionMessages.noSubscription });
  });
});

describe('the Stay Connected plan and plan-restricted sending', () => {
  const t = useTestApp();
  const db = () => t.handle.db;
  const lakeside = eq(organizations.subdomain, 'lakeside');
  const stayConnected = () => db().update(organizations).set({ planId: 'stay-connected' }).where(lakeside);
  const professional = () => db().update(organizations).set({ planId: 'professional', settings: {} }).where(lakeside);
  afterEach(professional);

  it('refuses send, forward, reply and triage for a Stay Connected organization (403)', async () => {
    await stayConnected();
    const draft = await t.call(LAKESIDE_USER, 'PUT', '/api/messages', { subject: 'x', toAddress: '5035550202' });
    expect(draft.statusCode, draft.body).toBe(200);
    for (const kind of ['send', 'forward', 'reply']) {
      const res = await t.call(LAKESIDE_USER, 'POST', `/api/messages/${draft.json().id}/${kind}`);
      expect(res.statusCode, kind).toBe(403);
      expect(res.json()).toEqual({ message: subscriptionMessages.upgradeRequired });
    }
    // Triage: a message Riverview received.
    const riverview = eq(organizations.subdomain, 'riverview');
    const inbound = await insertInbound(db(), { subject: 'Plan guard triage' });
    const [me] = await db().select({ id: users.id }).from(users).where(eq(users.userName, 'admin@riverview.example.org'));
    await db().update(organizations).set({ planId: 'stay-connected' }).where(riverview);
    const triage = await t.call('admin@riverview.example.org', 'POST', `/api/messages/${inbound.id}/triage`, { userId: me!.id }).finally(() => db().update(organizations).set({ planId: 'professional' }).where(riverview));
    expect(triage.statusCode).toBe(403);
    expect(triage.json()).toEqual({ message: subscriptionMessages.upgradeRequired });
  });

  it('sends a User’s upgrade request to the Administrators by mail, once an hour, and answers the spec text', async () => {
    expect((await t.call(LAKESIDE_USER, 'POST', UPGRADE, { feature: 'Triage' })).json()).toEqual({ message: subscriptionMessages.notStayConnected });
    expect((await t.call(LAKESIDE_USER, 'GET', '/api/users/profiledata')).json()).toMatchObject({ planId: 'professional', orgIsPlanRestricted: false });
    await stayConnected();
    // The web's guard reads the plan from the profile.
    expect((await t.call(LAKESIDE_USER, 'GET', '/api/users/profiledata')).json()).toMatchObject({ planId: 'stay-connected' });
    const res = await t.call(LAKESIDE_USER, 'POST', UPGRADE, { feature: 'Triage' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ message: 'Your plan upgrade request has been sent.' });
    const mails = await db().select().from(mailOutbox).where(eq(mailOutbox.kind, 'PlanUpgradeRequest'));
    expect(mails.map((m) => m.toAddress)).toContain('admin@lakeside.example.org');
    expect(mails[0]!.textBody).toContain('Triage is not included in the Stay Connected plan.');
    expect((await t.call(LAKESIDE_USER, 'POST', UPGRADE, {})).statusCode).toBe(200);
    expect(await db().select().from(mailOutbox).where(eq(mailOutbox.kind, 'PlanUpgradeRequest'))).toHaveLength(mails.length);
    expect(await db().select().from(auditEvents).where(eq(auditEvents.eventType, 'PlanUpgradeRequested'))).toHaveLength(2);
    expect((await t.call(LAKESIDE_USER, 'POST', UPGRADE, { feature: 'Nope' })).statusCode).toBe(400);
    expect((await t.call('sysadmin@example.org', 'POST', UPGRADE, {})).statusCode).toBe(403);
  });

  it('lets a plan-restricted organization send only to fax numbers or addresses hosted here', async () => {
    await db().update(organizations).set({ settings: { planRestricted: true } }).where(lakeside);
    expect((await t.call(LAKESIDE_USER, 'GET', '/api/users/profiledata')).json()).toMatchObject({ orgIsPlanRestricted: true });
    const draft = await t.call(LAKESIDE_USER, 'PUT', '/api/messages', {
      subject: 'x',
      toAddress: 'someone@other.example.com; referrals@riverview.direct.example.org; 5551234567',
    });
    const res = await t.call(LAKESIDE_USER, 'POST', `/api/messages/${draft.json().id}/send`);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(releaseMessages.fixErrorsHeading);
    expect(res.json().modelState['toAddress:someone@other.example.com']).toEqual([subscriptionMessages.planRestrictedRecipient]);
    expect(res.json().modelState['toAddress:referrals@riverview.direct.example.org']).toBeUndefined();
    expect(res.json().modelState['toAddress:5551234567']).toBeUndefined();
  });
});
