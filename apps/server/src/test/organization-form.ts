// The back office's New Organization form filled in validly (Summit Orthopedics); `over` changes any field.
export const newOrganizationForm = (over: Record<string, unknown> = {}) => ({
  name: 'Summit Orthopedics',
  subdomain: 'summit',
  brandId: 'clinicrelay',
  organizationTypeId: 1,
  organizationSpecialtyId: 2,
  hispProviderId: 1,
  organizationNpi: '1234567893',
  address: { street: '12 Summit Way', unit: 'Suite 4', city: 'Portland', state: 'OR', zip: '97201', country: 'US' },
  primaryPhone: '(503) 555-0177',
  primaryContactFirstName: 'Sue',
  primaryContactLastName: 'Summit',
  primaryContactEmail: 'sue@summit.example.org',
  ...over,
});
