import { Anchor, Modal, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { LOGOUT_PATH } from '../../app/paths.ts';
import { TwoFactorEnrolment } from './two-factor-enrolment.tsx';

/**
 * Issue 14 §6: an administrator without two-factor sign-in while the platform requires it (profile
 * twoFactorEnrolmentRequired). It cannot be closed; it goes once the profile says enrolment is done, or by signing out.
 */
export function TwoFactorEnrolmentModal({ userName }: { userName: string }) {
  return (
    <Modal opened onClose={() => undefined} withCloseButton={false} closeOnEscape={false} closeOnClickOutside={false} size="lg" title="Set up two-factor sign-in" centered>
      <Stack gap="md">
        <Text size="sm">Administrators must sign in with a second factor. Set it up now to continue; you will need it at every sign-in.</Text>
        <TwoFactorEnrolment userName={userName} />
        <Anchor component={Link} to={LOGOUT_PATH} size="sm" ta="right">
          Sign out
        </Anchor>
      </Stack>
    </Modal>
  );
}
