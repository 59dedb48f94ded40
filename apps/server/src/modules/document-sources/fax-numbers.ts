// Ordering a new fax number from a fax provider (issue 13 §3), behind one interface (DESIGN.md "External services").
// Only the sandbox adapter exists: like a provider's test mode it reaches no carrier and assigns a number at once.
export interface FaxNumberProvider {
  readonly name: string;
  /** The digits numbers of this provider start with, so the caller can say which are taken. */
  readonly prefix: string;
  /** A free number (10 digits) other than the taken ones, or null when the provider has none left. */
  orderNumber(taken: ReadonlySet<string>): Promise<string | null>;
}

// The fictional range 555-0100–555-0199 (reserved for fiction and tests), in the demo world's area code.
const SANDBOX_PREFIX = '50355501';

export const sandboxFaxNumberProvider: FaxNumberProvider = {
  name: 'sandbox',
  prefix: SANDBOX_PREFIX,
  orderNumber: async (taken) => {
    for (let n = 0; n < 100; n++) {
      const number = `${SANDBOX_PREFIX}${String(n).padStart(2, '0')}`;
      if (!taken.has(number)) return number;
    }
    return null;
  },
};
