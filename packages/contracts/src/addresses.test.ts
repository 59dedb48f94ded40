import { describe, expect, it } from 'vitest';
import { displayAddress, formatFaxNumber } from './addresses.ts';

describe('fax display (end-user §5: dashes for 10 to 13 digits)', () => {
  it('puts dashes in a fax number of 10 to 13 digits, however it was stored', () => {
    expect(formatFaxNumber('5035550202')).toBe('503-555-0202');
    expect(formatFaxNumber('503-555-0101')).toBe('503-555-0101');
    expect(formatFaxNumber('(503) 555.0101')).toBe('503-555-0101');
    expect(formatFaxNumber('15035550202')).toBe('1-503-555-0202');
    expect(formatFaxNumber('4415035550202')).toBe('441-503-555-0202');
  });

  it('leaves anything shorter or longer as it is', () => {
    expect(formatFaxNumber('555020')).toBe('555020');
    expect(formatFaxNumber('12345678901234')).toBe('12345678901234');
    expect(formatFaxNumber(null)).toBe('');
  });

  it('formats only fax numbers among message addresses', () => {
    expect(displayAddress('5035550202')).toBe('503-555-0202');
    expect(displayAddress('referrals@riverview.direct.example.org')).toBe('referrals@riverview.direct.example.org');
    expect(displayAddress('room5035550202@example.org')).toBe('room5035550202@example.org');
    expect(displayAddress(undefined)).toBe('');
  });
});
