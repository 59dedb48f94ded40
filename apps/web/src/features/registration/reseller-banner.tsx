import { Image, Stack, Text } from '@mantine/core';
import type { RegistrationReseller } from '@clinicrelay/contracts/registration.ts';

// Dark backgrounds (the reseller modal's 3f4449) get light text.
const DARK = new Set(['3f4449']);

/** A reseller link's branding: its logo on its background colour, and its welcome text. */
export function ResellerBanner({ reseller }: { reseller: RegistrationReseller }) {
  const color = reseller.logoBackgroundColor;
  return (
    <Stack gap="xs" align="center" p="md" bg={color ? `#${color}` : 'gray.1'} c={color && DARK.has(color) ? 'white' : undefined} style={{ borderRadius: 'var(--mantine-radius-md)' }} data-testid="reseller-banner">
      {reseller.logoUrl ? <Image src={reseller.logoUrl} alt={`${reseller.name} logo`} h={56} w="auto" fit="contain" /> : <Text fw={700} fz="lg">{reseller.name}</Text>}
      {reseller.welcomeText && (
        <Text ta="center" size="sm" style={{ whiteSpace: 'pre-line' }}>
          {reseller.welcomeText}
        </Text>
      )}
    </Stack>
  );
}
