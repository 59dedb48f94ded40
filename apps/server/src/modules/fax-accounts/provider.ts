import { randomBytes } from 'node:crypto';

// The fax providers' account services behind one interface (DESIGN.md "External services"). Only the sandbox adapter
// exists: it behaves like a provider's test mode, accepts every request and reaches no carrier.
export interface FaxAccountProvider {
  readonly name: 'sandbox';
  /** Creates or renames the organization's eFax group (a sub group of ours, or the customer's own group). */
  saveEfaxGroup(input: { groupName: string; accountType: 'Kno2EFaxAccount' | 'EFaxAccount' }): Promise<void>;
  /** Creates a WestFax sub account and returns its first password. */
  createWestfaxAccount(username: string): Promise<{ password: string }>;
  resetWestfaxPassword(username: string): Promise<{ password: string }>;
  /** The numbers the carrier has on the account; null when it keeps no list of its own (the sandbox). */
  westfaxNumbers(username: string): Promise<string[] | null>;
  addWestfaxNumber(username: string, number: string): Promise<void>;
  removeWestfaxNumber(username: string, number: string): Promise<void>;
  deleteWestfaxAccount(username: string): Promise<void>;
}

const password = () => randomBytes(12).toString('base64url');

export const sandboxFaxAccountProvider: FaxAccountProvider = {
  name: 'sandbox',
  saveEfaxGroup: async () => {},
  createWestfaxAccount: async () => ({ password: password() }),
  resetWestfaxPassword: async () => ({ password: password() }),
  westfaxNumbers: async () => null,
  addWestfaxNumber: async () => {},
  removeWestfaxNumber: async () => {},
  deleteWestfaxAccount: async () => {},
};
