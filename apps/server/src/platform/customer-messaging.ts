// The customer-messaging service (Intercom in the spec's texts) behind one interface (DESIGN.md "External
// services"). Only the sandbox exists today: it records each sync and calls nothing.
export interface CustomerMessagingService {
  readonly name: string;
  readonly sandbox: boolean;
  syncOrganization(organization: { id: string; orgId: number; name: string; subdomain: string }): Promise<{ reference: string }>;
  syncUser(user: { id: string; userName: string; fullName: string }): Promise<{ reference: string }>;
}

export function sandboxCustomerMessaging(): CustomerMessagingService & { synced: { id: string; name: string; at: Date }[] } {
  const synced: { id: string; name: string; at: Date }[] = [];
  return {
    name: 'sandbox',
    sandbox: true,
    synced,
    syncOrganization(organization) {
      synced.push({ id: organization.id, name: organization.name, at: new Date() });
      return Promise.resolve({ reference: `sandbox-org-${organization.orgId}` });
    },
    syncUser(user) {
      synced.push({ id: user.id, name: user.fullName, at: new Date() });
      return Promise.resolve({ reference: `sandbox-user-${user.id}` });
    },
  };
}
