import { describe, expect, it } from 'vitest';
import { emergencyInput, emergencyMessages, emergencyOrganizationInput, emergencyStatus, formatDisabledDate, parseDisabledDate, utcToday } from './emergencies.ts';

describe('disabled dates (back-office-b §5: M/d/yyyy, M/d/yy, MMddyyyy, MMddyy)', () => {
  it('reads every accepted format as the same day', () => {
    for (const typed of ['3/4/2027', '03/04/2027', '3/4/27', '03/04/27', '03042027', '030427']) {
      expect(parseDisabledDate(typed), typed).toBe('2027-03-04');
    }
  });

  it('reads two-digit years as 20yy, past or future', () => {
    expect(parseDisabledDate('12/31/99')).toBe('2099-12-31');
    expect(parseDisabledDate('1/1/01')).toBe('2001-01-01');
    expect(parseDisabledDate('010126')).toBe('2026-01-01');
  });

  it('takes back what the API answers: YYYY-MM-DD and an ISO date-time', () => {
    expect(parseDisabledDate('2027-03-04')).toBe('2027-03-04');
    expect(parseDisabledDate('2027-03-04T00:00:00Z')).toBe('2027-03-04');
    expect(parseDisabledDate('2027-03-04T00:00:00.000+02:00')).toBe('2027-03-04');
  });

  it('refuses days that do not exist and other formats', () => {
    for (const typed of ['2/30/2027', '13/1/2027', '0/10/2027', '02292027', '022927', '2/29/27', 'tomorrow', '1/2', '1/2/123', '3-4-2027', '3.4.2027', '3042027', '12345', '2027-3-4', '03/04/2027 10:00']) {
      expect(parseDisabledDate(typed), typed).toBeNull();
    }
    expect(parseDisabledDate('2/29/2028')).toBe('2028-02-29');
  });

  it('reads blank as no date', () => {
    expect(parseDisabledDate('')).toBe('');
    expect(parseDisabledDate('   ')).toBe('');
  });

  it('shows dates as MM/dd/yy (§9)', () => {
    expect(formatDisabledDate('2027-03-04')).toBe('03/04/27');
    expect(formatDisabledDate(null)).toBe('');
  });

  it("takes today in UTC", () => {
    expect(utcToday(new Date('2026-11-29T23:30:00-05:00'))).toBe('2026-11-30');
  });
});

describe('emergency status (§4)', () => {
  const today = '2026-11-29';
  it('is active without a disabled date, pending before it, disabled from it on', () => {
    expect(emergencyStatus(null, today)).toBe('Active');
    expect(emergencyStatus('2026-11-30', today)).toBe('Pending disable');
    expect(emergencyStatus('2026-11-29', today)).toBe('Disabled');
    expect(emergencyStatus('2026-10-31', today)).toBe('Disabled');
    // The date reached, not the day of the month: the 1st of next month is still pending on the 29th.
    expect(emergencyStatus('2026-12-01', today)).toBe('Pending disable');
  });
});

describe('emergency forms (§5)', () => {
  it('needs a name of at most 1000 characters', () => {
    expect(emergencyInput.safeParse({ name: '  ' }).error?.issues[0]?.message).toBe('Name is required.');
    expect(emergencyInput.safeParse({ name: 'x'.repeat(1001) }).error?.issues[0]?.message).toBe('Name must be at most 1000 characters.');
    expect(emergencyInput.parse({ name: 'x'.repeat(1000) }).name).toHaveLength(1000);
  });

  it('parses the typed disabled date and refuses an unknown format', () => {
    expect(emergencyInput.parse({ name: 'Flood', disabledDate: '030427' }).disabledDate).toBe('2027-03-04');
    expect(emergencyInput.parse({ name: 'Flood', disabledDate: '' }).disabledDate).toBeNull();
    expect(emergencyInput.parse({ name: 'Flood', disabledDate: null }).disabledDate).toBeNull();
    expect(emergencyInput.parse({ name: 'Flood' }).disabledDate).toBeNull();
    expect(emergencyInput.safeParse({ name: 'Flood', disabledDate: '2027/03/04' }).error?.issues[0]?.message).toBe(emergencyMessages.invalidDate);
  });

  it('needs an organization name (max 1000) and a valid OID', () => {
    expect(emergencyOrganizationInput.safeParse({ oid: '', name: 'A' }).error?.issues[0]?.message).toBe('OID is required.');
    expect(emergencyOrganizationInput.safeParse({ oid: '1.2.3', name: '' }).error?.issues[0]?.message).toBe('Name is required.');
    expect(emergencyOrganizationInput.safeParse({ oid: '1.2.3', name: 'x'.repeat(1001) }).error?.issues[0]?.message).toBe('Name must be at most 1000 characters.');
    expect(emergencyOrganizationInput.safeParse({ oid: 'abc', name: 'A' }).error?.issues[0]?.message).toBe(emergencyMessages.oidInvalid);
    expect(emergencyOrganizationInput.parse({ oid: ' urn:oid:1.2.3 ', name: ' A ' })).toEqual({ oid: '1.2.3', name: 'A' });
  });
});
