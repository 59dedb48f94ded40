import { describe, expect, it } from 'vitest';
import { subscriptionMessages } from '@clinicrelay/contracts/subscriptions.ts';
import { checkBeforeSend } from './compose-validation.ts';
import { blankValues } from './release-compose-form.ts';

// end-user §5 "Release send", §6: plan-restricted organizations send only to fax or phone numbers or to addresses on
// this service; compose says so before Review and Send, from the recipient check's answers.
describe('plan-restricted recipients in compose', () => {
  const values = { ...blankValues('rt-1'), to: ['someone@other.example.com', 'referrals@riverview.direct.example.org', '5035550202'] };
  const statuses: Record<string, string> = { 'someone@other.example.com': 'NoCertificate', 'referrals@riverview.direct.example.org': 'Hosted', '5035550202': 'Fax' };
  const recipientStatus = (address: string) => statuses[address];

  it('refuses a Direct address outside this service for a plan-restricted organization', () => {
    const found = checkBeforeSend(values, { action: 'send', attachments: [], planRestricted: true, recipientStatus });
    expect(found.list).toContain(subscriptionMessages.planRestrictedRecipient);
    expect(found.fields.to).toBe(subscriptionMessages.planRestrictedRecipient);
  });

  it('accepts hosted addresses and fax numbers, and says nothing for other organizations', () => {
    const hostedOnly = { ...values, to: ['referrals@riverview.direct.example.org', '5035550202'] };
    expect(checkBeforeSend(hostedOnly, { action: 'send', attachments: [], planRestricted: true, recipientStatus }).list).not.toContain(subscriptionMessages.planRestrictedRecipient);
    expect(checkBeforeSend(values, { action: 'send', attachments: [], planRestricted: false, recipientStatus }).list).not.toContain(subscriptionMessages.planRestrictedRecipient);
  });
});
