import { describe, expect, it } from 'vitest';
import { releaseMessages } from '@clinicrelay/contracts/messages.ts';
import { checkBeforeSend, serverProblems } from './compose-validation.ts';
import { blankValues } from './release-compose-form.ts';

// end-user §5 "Field rules": a telephone is 10 digits with an optional leading 1; compose says so before Review and
// Send, at the Phone field, as the server does at send.
describe('the patient telephone in compose', () => {
  const withPhone = (telephone: string) => {
    const values = blankValues('rt-1');
    return { ...values, patient: { ...values.patient, telephone } };
  };

  it('refuses "12" at the Phone field and accepts a real number or none', () => {
    const refused = checkBeforeSend(withPhone('12'), { action: 'send', attachments: [] });
    expect(refused.list).toContain(releaseMessages.patientTelephoneInvalid);
    expect(refused.fields['patient.telephone']).toBe(releaseMessages.patientTelephoneInvalid);
    for (const telephone of ['(503) 555-0143', '1-503-555-0143', '']) {
      expect(checkBeforeSend(withPhone(telephone), { action: 'send', attachments: [] }).fields['patient.telephone']).toBeUndefined();
    }
  });

  it('marks the Phone field when the server refuses the send for it', () => {
    const found = serverProblems(releaseMessages.fixErrorsHeading, { 'patient.telephone': [releaseMessages.patientTelephoneInvalid] });
    expect(found.fields['patient.telephone']).toBe(releaseMessages.patientTelephoneInvalid);
  });
});
