import { describe, expect, it } from 'vitest';
import { formatIsoDate, parseTypedDate } from './dates.ts';

const today = '2026-11-23';

describe('typed dates (end-user §5)', () => {
  it('reads every accepted format', () => {
    for (const typed of ['01/02/1985', '1/2/1985', '1/2/85', '01/02/85', '1985-01-02', '01021985', '010285']) {
      expect(parseTypedDate(typed, today), typed).toBe('1985-01-02');
    }
  });

  it('maps two-digit years above the current one to 19xx and others to 20xx', () => {
    expect(parseTypedDate('03/04/27', today)).toBe('1927-03-04');
    expect(parseTypedDate('03/04/26', today)).toBe('2026-03-04');
    expect(parseTypedDate('03/04/05', today)).toBe('2005-03-04');
  });

  it('shifts a two-digit year that lands in the future back 100 years, never a four-digit one', () => {
    expect(parseTypedDate('12/01/26', today)).toBe('1926-12-01');
    expect(parseTypedDate('12/01/2099', today)).toBe('2099-12-01');
  });

  it('refuses days that do not exist and text that is not a date', () => {
    for (const typed of ['02/30/2001', '13/01/2001', '00/10/2001', '2001-02-29', 'yesterday', '1/2', '1/2/123']) {
      expect(parseTypedDate(typed, today), typed).toBeNull();
    }
    expect(parseTypedDate('  ', today)).toBe('');
  });

  it('formats the model for the view', () => {
    expect(formatIsoDate('1985-01-02')).toBe('01/02/1985');
    expect(formatIsoDate('1985-01-02T00:00:00Z')).toBe('01/02/1985');
    expect(formatIsoDate(null)).toBe('');
  });
});
