import { useEffect, useEffectEvent, useState, type RefObject } from 'react';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useBlocker } from 'react-router';
import { releaseMessages } from '@clinicrelay/contracts/messages.ts';
import { errorDetails } from '../../components/error-details.ts';
import { notifyError } from '../../components/notify.ts';

export interface LeaveGuardOptions {
  /** A new message (or the draft it became): leaving asks Save or Discard; forward and reply never block. */
  composing: boolean;
  /** Send, discard and delete navigate on purpose; only other ways out are asked about. */
  leavingOnPurpose: RefObject<boolean>;
  draftId: RefObject<string | null>;
  isDirty: () => boolean;
  hasFrom: () => boolean;
  /** Saves the draft; false when it could not be saved. */
  save: () => Promise<boolean>;
  deleteDraft: (id: string) => Promise<unknown>;
}

/**
 * end-user §4 "Draft lifecycle" on the way out: with a From address and unsaved changes ask Save or
 * Discard; with no From an existing draft is deleted silently. Closing or reloading the tab with unsaved
 * changes gets the browser's own warning (it allows no other dialog there).
 */
export function ComposeLeaveGuard(options: LeaveGuardOptions) {
  const { composing, leavingOnPurpose, draftId, isDirty, hasFrom, save, deleteDraft } = options;
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      composing && !leavingOnPurpose.current && currentLocation.pathname !== nextLocation.pathname && (draftId.current !== null || isDirty()),
  );
  const promptOpen = blocker.state === 'blocked' && hasFrom() && isDirty();

  const unsaved = useEffectEvent(() => !leavingOnPurpose.current && isDirty());
  useEffect(() => {
    const warn = (event: BeforeUnloadEvent) => {
      if (!unsaved()) return;
      event.preventDefault();
      // Older browsers show the warning only when returnValue is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, []);

  useEffect(() => {
    if (blocker.state !== 'blocked' || promptOpen) return;
    const existing = draftId.current;
    if (!hasFrom() && existing !== null) {
      // A draft with no From address is not worth keeping.
      deleteDraft(existing)
        .catch(() => undefined)
        .finally(() => blocker.proceed());
      return;
    }
    blocker.proceed();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- runs once per blocked navigation
  }, [blocker.state]);

  return (
    <LeavePrompt
      opened={promptOpen}
      onCancel={() => blocker.reset?.()}
      onSave={async () => {
        try {
          if (await save()) blocker.proceed?.();
          else blocker.reset?.();
        } catch (failure) {
          notifyError(errorDetails(failure).message);
        }
      }}
      onDiscard={async () => {
        try {
          if (draftId.current !== null) await deleteDraft(draftId.current);
          blocker.proceed?.();
        } catch {
          notifyError(releaseMessages.discardFailure);
        }
      }}
    />
  );
}

interface LeavePromptProps {
  opened: boolean;
  onCancel: () => void;
  onSave: () => Promise<void>;
  onDiscard: () => Promise<void>;
}

function LeavePrompt({ opened, onCancel, onSave, onDiscard }: LeavePromptProps) {
  const [busy, setBusy] = useState(false);
  const run = (work: () => Promise<void>) => {
    setBusy(true);
    void work().finally(() => setBusy(false));
  };
  return (
    <Modal opened={opened} onClose={busy ? () => {} : onCancel} title="Save this draft?">
      <Stack>
        <Text>This message has unsaved changes. Save it as a draft, or discard it?</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel} disabled={busy}>
            Cancel
          </Button>
          <Button variant="default" color="red" onClick={() => run(onDiscard)} disabled={busy}>
            Discard
          </Button>
          <Button onClick={() => run(onSave)} loading={busy}>
            Save
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
