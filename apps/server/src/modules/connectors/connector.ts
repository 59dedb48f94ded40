import type { EsignatureProvider } from '@clinicrelay/contracts/connectors.ts';

// An e-signature provider's account sign-in, OAuth 2.0 authorization-code style (what DocuSign's eSignature API
// uses): the browser opens authorizeUrl, the provider sends it back to redirectUri with a code, and the server
// exchanges the code for a token and the account it belongs to.
export interface EsignatureAccountInfo {
  externalAccountId: string;
  accountName: string;
  email: string;
}

export interface EsignatureConnector {
  provider: EsignatureProvider;
  // The account type the list shows (back-office-b §3 "E-signature account": id, type).
  accountType: string;
  authorizeUrl(input: { state: string; redirectUri: string }): string;
  exchangeCode(input: { code: string; redirectUri: string }): Promise<{ accessToken: string; account: EsignatureAccountInfo }>;
}
